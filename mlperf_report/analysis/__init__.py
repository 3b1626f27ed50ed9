"""analysis: the suite-free half of the analysis stage.

Concern: running a suite's planned notebooks with papermill (``jobs``, ``planning``, ``stamps``,
``runner``, ``papermill_engine``), what notebooks of every suite share (house chart style and axes:
``style``, ``axes``, ``chart_text``; tagged outputs and HTML tables: ``outputs``, ``html_tables``; the
figures files: ``figures``; like-for-like comparison rules: ``comparisons``) and the story engine
(``claims``, ``story_angles``, ``story``). A suite's own analysis lives in ``suites/<name>/``.
May import: core, i18n, ingest.
Public: ``runner.run_notebooks``, ``planning.PlanRequest``, ``story.find_claims`` / ``tell``, ``figures.write``.
"""
