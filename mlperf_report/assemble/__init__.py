"""assemble: every deliverable of a report, per language: the self-contained HTML, the PDF, the
exhibits, the results workbook and the press kit (slides, brief, chart cards).

Concern: executed notebooks -> section HTML (``sections``), print-ready SVG (``print_svg``), the
claims and charts every deliverable shares (``kit``), one module per format (``formats``), the
document that makes them together (``document``), and the build step after the notebooks (``build``).
May import: core, i18n, ingest, suites, analysis, narrative.
Public: ``report_pools.assemble_reports``, ``build.build_reports``; the formats (``formats``) a report is made of.
"""
