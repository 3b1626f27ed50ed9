"""narrative: the suite-free half of the press-release text.

Concern: rendering (``rendering``: the mark and legend, figures read back, Jinja templates per language
with footnotes in reading order, HTML to plain text) and the story's wording (``story_text``). Each
suite's claims live in ``suites/<name>/narrative.py``.
May import: core, i18n, ingest, analysis.
Public: ``rendering.Rendered`` / ``load_figures`` / ``render_template`` / ``to_text``, ``story_text.render``.
"""
