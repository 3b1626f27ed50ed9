"""The exhibits (``exhibits.<lang>.pdf``): every benchmark's full results table, printed as a document
of its own beside the report, pages A-1, A-2, … (``appendix_pdf``); a report without exhibits has none."""

from __future__ import annotations

from mlperf_report.i18n.labels import label

from mlperf_report.assemble.formats import PAGE_TEMPLATES

name = "exhibits"
per_language = True
label_key = "frame.exhibits_file"  # what the contents, the index page and mail call it
#: The page's templates shape this format (and the others that show the page), nothing else.
DATA_INPUTS = PAGE_TEMPLATES
mime = {".pdf": "application/pdf"}


def file_name(lang: str) -> str:
    return f"exhibits.{lang}.pdf"


def files(kit) -> tuple[str, ...]:
    return (file_name(kit.lang),) if kit.has_exhibits else ()


def companion(kit):
    return (file_name(kit.lang), label(label_key, kit.lang)) if kit.has_exhibits else None


def make(report) -> dict[str, bytes]:
    if not report.page.appendix.sections:
        return {}
    _, data = report.page.printed
    return {file_name(report.lang): data}
