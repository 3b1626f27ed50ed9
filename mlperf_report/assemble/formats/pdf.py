"""The PDF report (``report.<lang>.pdf``, and ``report.pdf`` for the first language): A4, cover,
contents, the benchmarks, the notes; at most 30 pages (``pdf_print``, ``templates/print.css``)."""

from __future__ import annotations

name = "pdf"
per_language = True


def files(kit) -> tuple[str, ...]:
    return (f"report.{kit.lang}.pdf",)


def companion(kit):
    return None  # the report itself


def make(model) -> dict[str, bytes]:
    data, _ = model.printed
    return {f"report.{model.lang}.pdf": data, **({"report.pdf": data} if model.request.default_copy else {})}
