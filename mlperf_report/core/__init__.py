"""core: what every stage stands on.

Concern: project paths, the tool's own errors, atomic writes, reading a results tree from a folder or
archive or git URL (``sources``), round ids of any suite (``rounds``), the report configuration
(``config``) and the price catalogue (``prices``).
May import: the standard library and third-party packages only; nothing else of mlperf_report.
Public: ``paths``, ``errors.UserError`` / ``InputError``, ``atomic.write_texts`` / ``atomic_open``,
``sources.open_source``, ``rounds.parse_round_id``, ``config.load_config``, ``prices.load_prices``.
"""
