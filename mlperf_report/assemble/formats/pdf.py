"""The PDF report (``report.<lang>.pdf``, and ``report.pdf`` for the first language): A4, cover,
contents, the benchmarks, the notes; at most 30 pages (``pdf_print``, ``templates/print.css``)."""

from __future__ import annotations

from mlperf_report.assemble.formats import PAGE_TEMPLATES

name = "pdf"
per_language = True
label_key = "format.pdf"  # what the contents, the index page and mail call it
#: The page's templates shape this format (and the others that show the page), nothing else.
DATA_INPUTS = PAGE_TEMPLATES
mime = {".pdf": "application/pdf"}
copies = ("report.pdf",)  # the first language's, under a language-free name


def file_name(lang: str) -> str:
    return f"report.{lang}.pdf"


def files(kit) -> tuple[str, ...]:
    return (file_name(kit.lang),)


def companion(kit):
    return None  # the report itself


def make(report) -> dict[str, bytes]:
    data, _ = report.page.printed
    return {file_name(report.lang): data, **({copies[0]: data} if report.default_copy else {})}
