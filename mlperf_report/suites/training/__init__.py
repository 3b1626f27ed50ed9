"""suites.training: MLPerf Training's rules in one place.

Concern: per-round facts (``rounds``: benchmarks, run counts, drop counts, scaling rule, names; the
benchmark ``catalogue``: what each id means in a round, in every report language), the
results-tree layout (``tree``), the MLLOG log format (``mllog``), olympic scoring (``scoring``) and the
ingest that turns a tree into runs / results / systems tables (``ingest``).
May import: core, i18n, ingest.
Public: ``rounds.parse_round`` / ``Round``, ``catalogue.title`` / ``model`` / ``description`` / ``note``, ``ingest.ingest`` / ``write_tables``, ``scoring.score_runs``.
"""
