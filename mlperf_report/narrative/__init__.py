"""narrative: the press-release text, every number from figures.json.

Concern: figures + price catalogue + configuration -> claims -> one Jinja template per language.
May import: core, i18n, ingest, suites, analysis.
Public: ``narrative.render``, ``narrative.headline_summary`` / ``headline_notes``, ``narrative.load_figures``.
"""
