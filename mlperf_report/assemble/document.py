"""Assemble one round's report in one language: every deliverable its formats make, written together.

The executed notebooks become sections (:mod:`mlperf_report.assemble.sections`: that language's
outputs only, never code); the narrative and notes fragments go in as real HTML. ``build_document``
makes the one document (``report_document.Report``) every format (``assemble.formats``: the HTML
page, the PDF, the exhibits' PDF, the workbook, the deck, the brief, the chart cards, a plug-in's)
is made from: the sections, the page model (the page and the printed report made on first use, once),
the kit (the lead claims, each chart drawn once a size) and the results tables. Every file is rendered in memory first and all are
renamed into place together, so a failed build never leaves half a report or destroys the previous one.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import nbformat

from mlperf_report.core import paths
from mlperf_report.assemble import formats, print_lists, print_svg
from mlperf_report.assemble.kit import Kit
from mlperf_report.assemble.pdf_print import PrintedPart, render_pdf
from mlperf_report.assemble.report_document import Page, Report, timed
from mlperf_report.core.atomic import atomic_open
from mlperf_report.core.brand import NO_BRAND, Brand, use_fonts
from mlperf_report.core.errors import InputError
from mlperf_report.core.rounds import parse_round_id
from mlperf_report.assemble.sections import fragment_section, labels_for, notebook_section

#: What a report is made of when nobody says otherwise (the tests' and the toy suite's reports).
REPORT_FORMATS = formats.REPORT_FORMATS
PAGE = formats.PAGE


@dataclass(frozen=True)
class AssembledReport:
    """Where the files of one language went, and how long each step took (seconds)."""

    lang: str
    html_path: Path | None  # None: the page was not asked for
    pdf_path: Path | None
    copies: tuple[Path, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)
    exhibits_path: Path | None = None  # exhibits.<lang>.pdf, when the report has exhibits
    files: tuple[Path, ...] = ()       # every file written, the press kit's too
    deliverables: dict[str, tuple[Path, ...]] = field(default_factory=dict)  # format -> its files


@dataclass(frozen=True)
class ReportRequest:
    """One language's report: what its formats are made from, so several can run side by side."""

    round_id: str
    lang: str
    notebooks: tuple[Path, ...]
    narrative_html: str
    notes_html: str
    out_dir: Path
    title: str
    date: str
    default_copy: bool = False          # also report.html / report.pdf; the per-report formats (workbook)
    formats: tuple[str, ...] = REPORT_FORMATS
    make: tuple[str, ...] | None = None  # the formats to make this time (the others are up to date); None: all
    cache_dir: Path | None = paths.CACHE / "assemble"
    share_appendix: bool = False        # a batch's: see pdf_print.print_report
    give_back: bool = True              # the printing's heap given back before the kit draws (Page.printed)
    kit: Kit | None = None              # the lead claims and their charts (assemble.kit)
    data_dir: Path | None = None        # the round's tables, for the workbook
    prices_file: Path | None = None
    focus: object | None = None         # core.config.Focus, for the workbook's marks
    brand: Brand = NO_BRAND             # core.brand: colours, logo and typefaces

    def run(self, pdf_renderer: Callable[..., bytes] = render_pdf) -> AssembledReport:
        return make_report(self, pdf_renderer)


def read_notebook(path: Path) -> nbformat.NotebookNode:
    try:
        return nbformat.read(str(path), as_version=4)
    except FileNotFoundError:
        raise InputError(f"{path}: executed notebook not found; run `python build.py report` first") from None
    except Exception as error:  # nbformat raises several types for a broken file
        raise InputError(f"{path}: not a readable notebook ({error}); re-run `python build.py report`") from None


def build_document(request: ReportRequest, pdf_renderer: Callable[..., bytes] = render_pdf) -> Report:
    """``request``'s document (``report_document.Report``), made once for every chosen format: the
    sections read from the notebooks, each claim's chart drawn once at every size a chosen format
    shows it, the results tables read for the formats that use them (the first language's: the
    workbook is one per report)."""
    r, timings = request, {}
    sections = tuple(timed(timings, "sections", lambda: report_sections(
        r.lang, list(r.notebooks), r.narrative_html, r.notes_html, focus_colour=r.brand.primary)))
    own = PrintedPart.of(print_lists.cut_long_lists([s for s in sections if s.kind != "appendix"], r.lang))
    appendix = PrintedPart.of([s for s in sections if s.kind == "appendix"])
    kit = r.kit or Kit(r.lang, r.round_id, round_title(r.round_id), r.title, r.date, "",
                       has_exhibits=bool(appendix.sections))
    kit = dataclasses.replace(kit, brand=r.brand) if r.brand != kit.brand else kit
    use_fonts(r.brand)  # the font files the parent resolved: no fc-match in this process
    made = _made(r)
    wanted = [pair for fmt in made if callable(getattr(fmt, "charts", None)) for pair in fmt.charts(kit)]
    from mlperf_report.assemble import kit_charts  # matplotlib and pandas: where reports are assembled

    kit = timed(timings, "charts", lambda: kit_charts.with_drawings(kit, wanted))
    listed = tuple(c for fmt in formats.chosen(r.formats) if (c := fmt.companion(kit)))
    page = Page(dict(lang=r.lang, title=r.title, round_title=round_title(r.round_id), date=r.date,
                     sections=list(sections), companions=listed, brand=r.brand),
                own, appendix, r.cache_dir, r.share_appendix, pdf_renderer, timings, r.give_back)
    tables = timed(timings, "tables", lambda: _tables(r)) if any(getattr(f, "uses_tables", False) for f in made) else None
    return Report(r.lang, r.round_id, round_title(r.round_id), r.title, r.date, kit, sections, page, tables,
                  r.default_copy, timings)


def _made(request: ReportRequest) -> list:
    """The formats this language makes: each chosen one that is made per language (or this is the
    report's first language) and that is not up to date (``make``). The contents list them all."""
    return [fmt for fmt in formats.chosen(request.formats) if (fmt.per_language or request.default_copy)
            and (request.make is None or fmt.name in request.make)]


def _tables(request: ReportRequest):
    """The round's results tables as the suite gives them for the workbook (``Suite.workbook``: sheet
    name -> frame, the focus's rows marked), or None when it gives none or no data folder is known."""
    from mlperf_report.suites import suite_for

    suite = suite_for(request.round_id)
    if not hasattr(suite, "workbook") or request.data_dir is None:
        return None
    return suite.workbook(request.data_dir, request.round_id, request.prices_file, request.focus)


def make_report(request: ReportRequest, pdf_renderer: Callable[..., bytes] = render_pdf) -> AssembledReport:
    """Every file of ``request``'s formats, renamed into place together."""
    started = time.perf_counter()
    report = build_document(request, pdf_renderer)
    made: dict[str, bytes] = {}
    by_format: dict[str, tuple[str, ...]] = {}
    for fmt in _made(request):
        files_of = timed(report.timings, f"make {fmt.name}", lambda fmt=fmt: fmt.make(report))
        made.update(files_of)
        by_format[fmt.name] = tuple(files_of)
    print_svg.forget_charts()  # every format converted them that will: no one will again
    out = Path(request.out_dir)
    files = {out / name: data for name, data in made.items()}
    timed(report.timings, "write", lambda: write_together(files))
    report.timings["total"] = time.perf_counter() - started
    by_path = {name: tuple(out / f for f in fs) for name, fs in by_format.items()}
    own = {name: [p for p in fs if not formats.is_copy(name, p)] for name, fs in by_path.items()}
    first = lambda name: (own.get(name) or [None])[0]  # noqa: E731
    return AssembledReport(lang=request.lang, html_path=first(formats.PAGE), pdf_path=first(formats.PRINTED),
                           copies=tuple(p for name in (formats.PAGE, formats.PRINTED) for p in by_path.get(name, ())
                                        if formats.is_copy(name, p)),
                           timings=report.timings, exhibits_path=first("exhibits"), files=tuple(files),
                           deliverables=by_path)


def assemble_report(round_id: str, lang: str, notebooks: list[Path], narrative_html: str, notes_html: str,
                    out_dir: Path, title: str, date: str, *, default_copy: bool = False, pdf: bool = True,
                    cache_dir: Path | None = paths.CACHE / "assemble", pdf_renderer: Callable[..., bytes] = render_pdf,
                    share_appendix: bool = False, formats: tuple[str, ...] | None = None) -> AssembledReport:
    """Write ``out_dir/report.<lang>.html`` and ``.pdf`` (and ``report.html`` / ``report.pdf`` when
    ``default_copy``), ``exhibits.<lang>.pdf`` where there are exhibits, and whatever else ``formats``
    names: narrative first, one section per notebook in the order given, notes last."""
    chosen = formats or (REPORT_FORMATS if pdf else (PAGE,))
    request = ReportRequest(round_id, lang, tuple(notebooks), narrative_html, notes_html, Path(out_dir), title, date,
                            default_copy=default_copy, formats=tuple(chosen), cache_dir=cache_dir,
                            share_appendix=share_appendix)
    return make_report(request, pdf_renderer)


def report_sections(lang: str, notebooks: list[Path], narrative_html: str, notes_html: str,
                    focus_colour: str | None = None) -> list:
    """The report's sections in reading order: narrative, one per notebook, notes (when there are
    any), and last the appendix (the closing exhibits). ``focus_colour``: a brand's primary colour,
    painted over the house focus colour of the notebooks' charts."""
    labels = labels_for(lang)
    sections = [fragment_section(narrative_html, "sec-highlights", labels["highlights"], "narrative")]
    for path in notebooks:
        sections.append(notebook_section(_recoloured(read_notebook(Path(path)), focus_colour), lang, Path(path).stem))
    if notes_html.strip():
        sections.append(fragment_section(notes_html, "sec-notes", labels["notes"], "notes"))
    return [s for s in sections if s.kind != "appendix"] + [s for s in sections if s.kind == "appendix"]


def _recoloured(notebook, colour: str | None):
    """``notebook`` with its SVG charts' focus colour replaced by ``colour`` (``style.recolour``)."""
    if not colour:
        return notebook
    from mlperf_report.analysis import style

    for cell in notebook.cells:
        for output in cell.get("outputs", ()):
            data = output.get("data") or {}
            if "image/svg+xml" in data:
                svg = data["image/svg+xml"]
                data["image/svg+xml"] = style.recolour("".join(svg) if isinstance(svg, list) else svg, colour)
    return notebook


def round_title(round_id: str) -> str:
    """``MLPerf Training v1.0`` for a round id; the id itself when it is not one."""
    try:
        return parse_round_id(round_id).title
    except ValueError:
        return round_id


def write_together(files: dict[Path, bytes]) -> None:
    """Write every file to a temporary name and rename them all only when all are complete."""
    with contextlib.ExitStack() as stack:
        for path, data in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            stack.enter_context(atomic_open(path, "wb")).write(data)


__all__ = ["AssembledReport", "ReportRequest", "assemble_report", "build_document", "make_report"]
