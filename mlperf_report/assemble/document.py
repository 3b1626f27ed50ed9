"""Assemble one round's report in one language: a self-contained HTML page and a print-quality PDF.

The executed notebooks become sections (:mod:`mlperf_report.assemble.sections`: that language's
outputs only, never code); the narrative and notes fragments go in as real HTML;
``templates/report.html.j2`` puts cover, contents and sections around them, with the CSS and a
subset of the CJK font inline. WeasyPrint prints the same page with ``templates/print.css``, its
charts' labels set as text (:mod:`mlperf_report.assemble.print_svg`) so printing takes seconds, not a
minute. Both files are rendered in memory first and renamed into place together, so a failed build
never leaves half a report or destroys the previous one.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import nbformat

from mlperf_report.core import paths
from mlperf_report.assemble import appendix_pdf, print_lists, print_svg, screen_svg
from mlperf_report.assemble.page import page_fonts, render_page
from mlperf_report.assemble.pdf_print import PrintedPart, print_report, render_pdf
from mlperf_report.core.atomic import atomic_open
from mlperf_report.core.errors import InputError, UserError
from mlperf_report.core.rounds import parse_round_id
from mlperf_report.assemble.sections import fetched_urls, fragment_section, labels_for, notebook_section


@dataclass(frozen=True)
class AssembledReport:
    """Where the files of one language went, and how long each step took (seconds)."""

    lang: str
    html_path: Path
    pdf_path: Path | None
    copies: tuple[Path, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)
    exhibits_path: Path | None = None  # exhibits.<lang>.pdf, when the report has exhibits


# --- the one call per language (file access happens here) -------------------------------------------


def read_notebook(path: Path) -> nbformat.NotebookNode:
    try:
        return nbformat.read(str(path), as_version=4)
    except FileNotFoundError:
        raise InputError(f"{path}: executed notebook not found; run `python build.py report` first") from None
    except Exception as error:  # nbformat raises several types for a broken file
        raise InputError(f"{path}: not a readable notebook ({error}); re-run `python build.py report`") from None


def assemble_report(
    round_id: str,
    lang: str,
    notebooks: list[Path],
    narrative_html: str,
    notes_html: str,
    out_dir: Path,
    title: str,
    date: str,
    *,
    default_copy: bool = False,
    pdf: bool = True,
    cache_dir: Path | None = paths.CACHE / "assemble",
    pdf_renderer: Callable[..., bytes] = render_pdf,
    share_appendix: bool = False,
    workbook: str | None = None,
) -> AssembledReport:
    """Write ``out_dir/report.<lang>.html`` and ``.pdf`` (and ``report.html`` / ``report.pdf`` when
    ``default_copy``): narrative first, one section per notebook in the order given, notes last; the
    HTML ends with the exhibits, which the PDF leaves to ``exhibits.<lang>.pdf`` beside it. Both list
    the files beside the report under their contents (the exhibits' PDF, ``workbook``: the results
    workbook's file name, which the caller writes).

    Everything is rendered in memory, then all files are renamed into place together: on any error
    the previous report stays as it was.
    """
    timings: dict[str, float] = {}
    started = time.perf_counter()
    sections = report_sections(lang, notebooks, narrative_html, notes_html)
    timings["sections"] = time.perf_counter() - started
    own = PrintedPart.of(print_lists.cut_long_lists([s for s in sections if s.kind != "appendix"], lang))
    appendix = PrintedPart.of([s for s in sections if s.kind == "appendix"])
    page_args = dict(lang=lang, title=title, round_title=round_title(round_id), date=date, sections=sections,
                     companions=companions(lang, exhibits=bool(appendix.sections) and pdf, workbook=workbook))
    mark = time.perf_counter()
    printed_text = "".join(s.html for s in own.sections)  # what only print says ("and 34 more") is set too
    faces = page_fonts(render_page(**page_args) + printed_text, own.chart_labels + appendix.chart_labels, cache_dir)
    timings["fonts"] = time.perf_counter() - mark
    # charts inline with their labels as text in the embedded faces (screen_svg): a third of the bytes
    html = screen_svg.inline_charts(render_page(**page_args, font_faces=faces))
    loads = fetched_urls(html)
    if loads:
        raise UserError(f"the {lang} report would load {loads[0]!r} (and {len(loads) - 1} more); "
                        "a report must be self-contained: embed it as a data: URL instead")

    mark = time.perf_counter()
    pdf_bytes = exhibits_bytes = None
    if pdf:
        pdf_bytes, exhibits_bytes, from_cache = print_report(page_args, own, appendix, faces, cache_dir, pdf_renderer,
                                                             share_appendix=share_appendix)
        timings["pdf_cached" if from_cache else "pdf"] = time.perf_counter() - mark

    print_svg.forget_charts()  # HTML and PDF both converted them: no one will again
    mark = time.perf_counter()
    report = _write(Path(out_dir), lang, html, pdf_bytes, exhibits_bytes, default_copy)
    timings["write"] = time.perf_counter() - mark
    timings["total"] = time.perf_counter() - started
    return replace(report, timings=timings)


def companions(lang: str, *, exhibits: bool, workbook: str | None) -> tuple[tuple[str, str], ...]:
    """(file, what it is) of the files beside a report: the exhibits' PDF, the results workbook."""
    labels = labels_for(lang)
    return (((appendix_pdf.file_name(lang), labels["exhibits_file"]),) if exhibits else ()) + \
        (((workbook, labels["workbook_file"]),) if workbook else ())


def _write(out_dir: Path, lang: str, html: str, pdf_bytes: bytes | None, exhibits_bytes: bytes | None,
           default_copy: bool) -> AssembledReport:
    """The report's files, renamed into place together."""
    html_path, pdf_path = out_dir / f"report.{lang}.html", out_dir / f"report.{lang}.pdf"
    files: dict[Path, bytes] = {html_path: html.encode("utf-8")}
    if pdf_bytes is not None:
        files[pdf_path] = pdf_bytes
    copies = _default_copies(files, out_dir) if default_copy else []
    exhibits_path = out_dir / appendix_pdf.file_name(lang) if exhibits_bytes is not None else None
    if exhibits_path:
        files[exhibits_path] = exhibits_bytes
    write_together(files)
    return AssembledReport(lang=lang, html_path=html_path, pdf_path=pdf_path if pdf_bytes is not None else None,
                           copies=tuple(copies), exhibits_path=exhibits_path)


def report_sections(lang: str, notebooks: list[Path], narrative_html: str, notes_html: str) -> list:
    """The report's sections in reading order: narrative, one per notebook, notes (when there are
    any), and last the appendix (the closing exhibits)."""
    labels = labels_for(lang)
    sections = [fragment_section(narrative_html, "sec-highlights", labels["highlights"], "narrative")]
    for path in notebooks:
        sections.append(notebook_section(read_notebook(Path(path)), lang, Path(path).stem))
    if notes_html.strip():
        sections.append(fragment_section(notes_html, "sec-notes", labels["notes"], "notes"))
    return [s for s in sections if s.kind != "appendix"] + [s for s in sections if s.kind == "appendix"]


def round_title(round_id: str) -> str:
    """``MLPerf Training v1.0`` for a round id; the id itself when it is not one."""
    try:
        return parse_round_id(round_id).title
    except ValueError:
        return round_id


def _default_copies(files: dict[Path, bytes], out_dir: Path) -> list[Path]:
    """Add report.html / report.pdf beside the language's files (same bytes)."""
    copies = []
    for path in list(files):
        copy = out_dir / ("report" + path.suffix)
        files[copy] = files[path]
        copies.append(copy)
    return copies


@dataclass(frozen=True)
class ReportRequest:
    """The arguments of one :func:`assemble_report` call, so several can run side by side."""

    round_id: str
    lang: str
    notebooks: tuple[Path, ...]
    narrative_html: str
    notes_html: str
    out_dir: Path
    title: str
    date: str
    default_copy: bool = False
    pdf: bool = True
    cache_dir: Path | None = paths.CACHE / "assemble"
    share_appendix: bool = False  # a batch's: see print_report
    workbook: str | None = None   # the results workbook's file name beside the report, listed under the contents

    def run(self) -> AssembledReport:
        return assemble_report(self.round_id, self.lang, list(self.notebooks), self.narrative_html, self.notes_html,
                               self.out_dir, self.title, self.date, default_copy=self.default_copy, pdf=self.pdf,
                               cache_dir=self.cache_dir, share_appendix=self.share_appendix, workbook=self.workbook)


def assemble_reports(requests: list[ReportRequest], *, workers: int = 2) -> list[AssembledReport]:
    """Several languages at once, one process each (WeasyPrint is single-threaded Python: two
    languages on two cores take the time of one). Results in the order of ``requests``; the first
    error is raised after every request has finished, and each language's files are all-or-nothing.
    A batch hands its reports to :class:`report_pools.RenewingPool` instead."""
    from mlperf_report.assemble import report_pools

    if workers <= 1 or len(requests) <= 1:
        return [request.run() for request in requests]
    with report_pools.report_pool(min(workers, len(requests))) as own:
        return report_pools.submit_reports(requests, own)()


def write_together(files: dict[Path, bytes]) -> None:
    """Write every file to a temporary name and rename them all only when all are complete."""
    with contextlib.ExitStack() as stack:
        for path, data in files.items():
            stack.enter_context(atomic_open(path, "wb")).write(data)


__all__ = ["AssembledReport", "ReportRequest", "assemble_report", "assemble_reports"]
