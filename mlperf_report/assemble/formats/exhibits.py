"""The exhibits (``exhibits.<lang>.pdf``): every benchmark's full results table, printed as a document
of its own beside the report, pages A-1, A-2, … (``appendix_pdf``); a report without exhibits has none."""

from __future__ import annotations

from mlperf_report.assemble import appendix_pdf
from mlperf_report.assemble.sections import labels_for

name = "exhibits"
per_language = True


def files(kit) -> tuple[str, ...]:
    return (appendix_pdf.file_name(kit.lang),) if kit.has_exhibits else ()


def companion(kit):
    return (appendix_pdf.file_name(kit.lang), labels_for(kit.lang)["exhibits_file"]) if kit.has_exhibits else None


def make(model) -> dict[str, bytes]:
    if not model.appendix.sections:
        return {}
    _, data = model.printed
    return {appendix_pdf.file_name(model.lang): data}
