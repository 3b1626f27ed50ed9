"""ingest: the suite-independent half of reading an official results tree.

Concern: parsing the systems JSON every suite's tree carries (``systems``). The suite-specific half (tree
layout, log format, scoring) lives in ``suites/<suite>/``; ``cli.ingest`` wires the two.
May import: core, i18n.
Public: ``systems.parse_system``.
"""
