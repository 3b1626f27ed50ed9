"""suites.training: everything MLPerf Training, in one folder.

Concern: the rules (``rounds``: benchmarks, run counts, drop counts, scaling rule, names; the benchmark
``catalogue``; ``tree``; ``mllog``; ``scoring``; ``compliance``, ``amendments``, ``drift``; ``power``),
the ingest (``scan`` through the shared reader, ``ingest``), the report plan (``plan``), the analysis its
notebooks run (``round_tables``, ``metrics``, ``context``, ``figures``, ``charts``, ``tables``,
``summary_tables``, ``story_inputs``) and the narrative (``narrative``, ``narrative_facts``,
``narrative_round``); ``suite.SUITE`` is how the shared stages see it.
May import: core, i18n, ingest, analysis, narrative, and its own modules (never another suite's).
Public: ``suite.SUITE``; ``rounds.parse_round``, ``ingest.ingest`` / ``write_tables``, ``scoring.score_runs``.
"""
