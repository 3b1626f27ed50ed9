"""analysis: from a round's tables to executed notebooks, charts and figures.json.

Concern: reading the tables (``round_tables``), the comparisons (``metrics``), what one notebook works on
(``context``), the figures contract (``figures``), house chart style and charts (``style``, ``charts``),
tagged notebook outputs and HTML tables (``outputs``, ``html_tables``, ``summary_tables``), and running
the notebooks with papermill (``jobs``, ``stamps``, ``runner``, ``papermill_engine``).
May import: core, i18n, ingest, suites.
Public: ``context.load_benchmark`` / ``load_summary``, ``charts.*``, ``runner.run_notebooks``.
"""
