"""The results workbook (``results.xlsx``), one per report: every result of the round, a sheet per
benchmark, the focus's rows marked (``assemble.workbook``; the sheets are the suite's
``Suite.workbook``); made with the first language, for a suite that gives sheets."""

from __future__ import annotations

from mlperf_report.assemble import workbook as writer
from mlperf_report.i18n.labels import label

name = "workbook"
per_language = False
label_key = "frame.workbook_file"  # what the contents, the index page and mail call it
#: The workbook's name beside the report (one per report: its focus's rows are the marked ones).
FILE_NAME = "results.xlsx"
mime = {".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}


def _made_for(round_id: str) -> bool:
    from mlperf_report.suites import suite_for

    return hasattr(suite_for(round_id), "workbook")


def files(kit) -> tuple[str, ...]:
    return (FILE_NAME,) if _made_for(kit.round_id) else ()


def companion(kit):
    return (FILE_NAME, label(label_key, kit.lang)) if _made_for(kit.round_id) else None


#: The document reads the round's results tables (``Report.tables``) for this format.
uses_tables = True


def make(report) -> dict[str, bytes]:
    """The sheets are the document's tables (``Suite.workbook``, read once by the build), in the
    brand's shade, faces and logo."""
    if report.tables is None:
        return {}
    from mlperf_report.assemble import brand_art

    brand = report.brand
    marks = writer.WorkbookBrand(focus_fill=writer.tint(brand.primary), base_font=brand.base_font,
                                 headings_font=brand.headings_font, logo=brand_art.logo_png(brand))
    return {FILE_NAME: writer.workbook_bytes(report.tables, brand=marks)}
