"""The HTML report (``report.<lang>.html``, and ``report.html`` for the first language): one
self-contained page, charts inline, nothing fetched (``document.ReportModel.html``)."""

from __future__ import annotations

name = "html"
per_language = True


def files(kit) -> tuple[str, ...]:
    return (f"report.{kit.lang}.html",)


def companion(kit):
    return None  # the report itself


def make(model) -> dict[str, bytes]:
    data = model.html.encode("utf-8")
    return {f"report.{model.lang}.html": data, **({"report.html": data} if model.request.default_copy else {})}
