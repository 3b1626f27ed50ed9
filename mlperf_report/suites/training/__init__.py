"""suites.training: MLPerf Training's rules in one place.

Concern: per-round facts (``rounds``: benchmarks, run counts, drop counts, scaling rule, names), the
results-tree layout (``tree``), the MLLOG log format (``mllog``), olympic scoring (``scoring``) and the
ingest that turns a tree into runs / results / systems tables (``ingest``).
May import: core, i18n, ingest.
Public: ``rounds.parse_round`` / ``Round``, ``ingest.ingest`` / ``write_tables``, ``scoring.score_runs``.
"""
