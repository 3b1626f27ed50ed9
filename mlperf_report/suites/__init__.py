"""suites: the rules of each MLPerf benchmark suite, one subpackage per suite.

Concern: everything that differs between MLPerf Training and (later) Inference: round facts, benchmark
catalogue, log format, result-tree layout, official scoring, ingest into tidy tables.
May import: core, i18n, ingest.
Public: ``training`` (see its docstring).
"""
