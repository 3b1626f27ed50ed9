"""The HTML report (``report.<lang>.html``, and ``report.html`` for the first language): one
self-contained page, charts inline, nothing fetched (``report_document.Page.html``)."""

from __future__ import annotations

from mlperf_report.assemble.formats import PAGE_TEMPLATES

name = "html"
per_language = True
label_key = "format.html"  # what the contents, the index page and mail call it
#: The page's templates shape this format (and the others that show the page), nothing else.
DATA_INPUTS = PAGE_TEMPLATES
mime = {".html": "text/html"}
copies = ("report.html",)  # the first language's, under a language-free name


def file_name(lang: str) -> str:
    return f"report.{lang}.html"


def files(kit) -> tuple[str, ...]:
    return (file_name(kit.lang),)


def companion(kit):
    return None  # the report itself


def make(report) -> dict[str, bytes]:
    data = report.page.html.encode("utf-8")
    return {file_name(report.lang): data, **({copies[0]: data} if report.default_copy else {})}
