"""suites.inference: everything MLPerf Inference, in one folder.

Concern: the rules (round facts ``rounds``, the submission checker's tables ``checker_rules``, the model
catalogue ``models``, LoadGen summaries and the primary metric ``loadgen``, ``endpoints``, ``metrics``,
accuracy ``accuracy``, validity ``validity``, power ``power``, the tree ``tree``), the ingest into
``data/inference-vX.Y/`` (``ingest``), the report plan (``plan``), its analysis (``tables``, ``charts``,
``exhibits``, ``story_inputs``) and narrative (``narrative``); ``suite.SUITE`` is how the shared stages
see it.
May import: core, i18n, ingest, analysis, narrative, and its own modules (never another suite's).
Public: ``suite.SUITE``; ``rounds.parse_round``, ``ingest.ingest`` / ``write_tables``.
"""
