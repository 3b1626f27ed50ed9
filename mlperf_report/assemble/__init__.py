"""assemble: one self-contained HTML and one PDF per language.

Concern: executed notebooks -> section HTML (``sections``), print-ready SVG (``print_svg``), the
document and its PDF (``document``), and the build step after the notebooks (``build``).
May import: core, i18n, ingest, suites, analysis, narrative.
Public: ``document.assemble_reports``, ``build.build_reports``.
"""
