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

import base64
import contextlib
import functools
import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import nbformat

from mlperf_report.i18n import fonts
from mlperf_report.core import paths
from mlperf_report.assemble import chart_letters, print_svg, print_tables, screen_svg
from mlperf_report.core.atomic import atomic_open
from mlperf_report.core.errors import InputError, UserError
from mlperf_report.core.rounds import parse_round_id
from mlperf_report.assemble.sections import (
    Section,
    fetched_urls,
    fragment_section,
    labels_for,
    notebook_section,
)


@dataclass(frozen=True)
class AssembledReport:
    """Where the files of one language went, and how long each step took (seconds)."""

    lang: str
    html_path: Path
    pdf_path: Path | None
    copies: tuple[Path, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)


# --- page, fonts and PDF (pure: strings in, strings or bytes out) -----------------------------------


@functools.cache
def _jinja():
    import jinja2

    from mlperf_report.core import jinja_env

    return jinja_env.environment(paths.TEMPLATES, autoescape=jinja2.select_autoescape(["html", "j2"]),
                                 keep_trailing_newline=True)


@dataclass(frozen=True)
class FontFace:
    """One inline ``@font-face``: family, weight and the font file (woff)."""

    family: str
    weight: int
    data: bytes
    format: str = "woff"

    @property
    def uri(self) -> str:
        return "data:font/woff;base64," + base64.b64encode(self.data).decode("ascii")

    def name(self) -> str:
        return f"font-{self.family.replace(' ', '-')}-{self.weight}"


@dataclass(frozen=True)
class _Face:
    """What the template needs of a face: family, weight, a URL and its format."""

    family: str
    weight: int
    uri: str
    format: str = "woff"


def render_page(*, lang: str, title: str, round_title: str, date: str, sections: list[Section],
                font_faces: tuple[FontFace, ...] = (), resources: dict | None = None,
                contents: list[Section] | None = None, appendix_pages: dict[str, str] | None = None) -> str:
    """The whole report page; section bodies are trusted HTML made by our own code. Fonts are
    inline data: URIs, or, when ``resources`` is given (printing), moved there by name.

    ``contents``: the sections the cover's contents list (default ``sections``; empty: no cover and
    no contents, as the printed appendix has). ``appendix_pages``: section id -> printed page of the
    appendix sections listed in the contents but printed apart (``appendix_pdf``)."""
    from markupsafe import Markup

    template = _jinja().get_template("report.html.j2")
    return template.render(
        lang=lang, title=title, round_title=round_title, date=date, labels=labels_for(lang),
        sections=[Section(s.id, s.title, Markup(s.html), s.kind) for s in sections],
        contents=sections if contents is None else contents, appendix_pages=appendix_pages or {},
        report_css=Markup((paths.TEMPLATES / "report.css").read_text(encoding="utf-8")),
        print_css=Markup((paths.TEMPLATES / "print.css").read_text(encoding="utf-8")),
        font_faces=[_face(face, resources) for face in font_faces],
    )


def _face(face: FontFace, resources: dict | None) -> _Face:
    if resources is None:
        return _Face(face.family, face.weight, face.uri)
    resources[face.name()] = (face.data, "font/woff")
    return _Face(face.family, face.weight, print_svg.SCHEME + face.name())


def page_fonts(page_text: str, chart_labels: str, cache_dir: Path | None) -> tuple[FontFace, ...]:
    """The CJK face cut down to the page's and the charts' characters (one subset serves the HTML and
    the PDF), then DejaVu Sans regular and bold for the chart labels the PDF sets as text (if any)."""
    font_cache = cache_dir / "fonts" if cache_dir else None
    base = fonts.base_dir() if cache_dir else None  # what subsets are cut from: made by `make venv`
    faces = [FontFace(fonts.CJK_FAMILY, 400, fonts.subset_font(page_text + chart_labels, cache_dir=font_cache,
                                                                base_dir=base))]
    if not chart_labels:  # no chart to label (the exhibits): no DejaVu face to cut
        return tuple(faces)
    for weight, path in fonts.latin_font_paths().items():
        faces.append(FontFace(print_svg.LATIN_FAMILY, weight,
                              fonts.subset_font(chart_labels, path=path, cache_dir=font_cache, base_dir=base)))
    return tuple(faces)


def print_sections(sections: list[Section], resources: dict) -> tuple[list[Section], str]:
    """The sections with their charts' labels as text for WeasyPrint (charts moved to
    ``resources``) and long words in tables breakable, and those labels' characters."""
    printed, characters = [], set()
    for section in sections:
        html, labels = print_svg.charts_for_print(print_tables.breakable_words(section.html), resources)
        printed.append(Section(section.id, section.title, html, section.kind))
        characters.update(labels)
    return printed, "".join(sorted(characters))


def _fetcher(resources: dict[str, tuple[bytes, str]]):
    """WeasyPrint URL fetcher: our in-memory resources and data: URLs, nothing else (any other
    load is fatal, so printing can never touch the network or the disk)."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class MemoryFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            if url.startswith(print_svg.SCHEME):
                data, mime = resources[url[len(print_svg.SCHEME):]]
                return URLFetcherResponse(url, body=data, headers={"Content-Type": mime})
            return super().fetch(url, headers)

    return MemoryFetcher(allowed_protocols={"data"}, fail_on_errors=True)


def render_pdf(html: str, resources: dict[str, tuple[bytes, str]] | None = None) -> bytes:
    """Print the page with WeasyPrint (media print: print.css applies)."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    document = HTML(string=html, url_fetcher=_fetcher(resources or {}), media_type="print")
    with _fixed_font_timestamps(), chart_letters.remembered():
        return document.write_pdf(font_config=FontConfiguration(), optimize_images=False)


@contextlib.contextmanager
def _fixed_font_timestamps():
    """fontTools stamps every font subset it saves with the current time unless SOURCE_DATE_EPOCH is
    set; a fixed stamp makes the same page print to the same bytes."""
    import os

    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = before or "0"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)


def cached_pdf(html: str, resources: dict, lang: str, cache_dir: Path | None,
               renderer: Callable[..., bytes]) -> tuple[bytes, bool]:
    """The PDF of ``html``, from the cache when this exact page was printed before (a rebuild with
    nothing changed then costs no WeasyPrint run); (pdf, came from cache)."""
    if cache_dir is None or renderer is not render_pdf:
        return renderer(html, resources), False
    from importlib.metadata import version  # not `import weasyprint`: a cache hit needs no WeasyPrint

    digest = hashlib.sha256(f"{version('weasyprint')}|".encode() + html.encode("utf-8"))
    for name in sorted(resources):
        digest.update(name.encode() + b"\0" + resources[name][0])
    key = digest.hexdigest()[:24]
    folder = cache_dir / "pdf"
    cached = folder / f"{lang}-{key}.pdf"
    if cached.is_file():
        return cached.read_bytes(), True
    data = renderer(html, resources)
    with atomic_open(cached, "wb") as handle:
        handle.write(data)
    for old in folder.glob(f"{lang}-*.pdf"):  # keep one per language
        if old != cached:
            old.unlink(missing_ok=True)
    return data, False


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
) -> AssembledReport:
    """Write ``out_dir/report.<lang>.html`` and ``.pdf`` (and ``report.html`` / ``report.pdf`` when
    ``default_copy``): narrative first, one section per notebook in the order given, notes last.

    Everything is rendered in memory, then all files are renamed into place together: on any error
    the previous report stays as it was.
    """
    timings: dict[str, float] = {}
    started = time.perf_counter()
    sections = report_sections(lang, notebooks, narrative_html, notes_html)
    timings["sections"] = time.perf_counter() - started
    page_args = dict(lang=lang, title=title, round_title=round_title(round_id), date=date, sections=sections)
    mark = time.perf_counter()
    own = PrintedPart.of([s for s in sections if s.kind != "appendix"])
    appendix = PrintedPart.of([s for s in sections if s.kind == "appendix"])
    faces = page_fonts(render_page(**page_args), own.chart_labels + appendix.chart_labels, cache_dir)
    timings["fonts"] = time.perf_counter() - mark
    # charts inline with their labels as text in the embedded faces (screen_svg): a third of the bytes
    html = screen_svg.inline_charts(render_page(**page_args, font_faces=faces))
    loads = fetched_urls(html)
    if loads:
        raise UserError(f"the {lang} report would load {loads[0]!r} (and {len(loads) - 1} more); "
                        "a report must be self-contained: embed it as a data: URL instead")

    mark = time.perf_counter()
    pdf_bytes = None
    if pdf:
        pdf_bytes, from_cache = print_report(page_args, own, appendix, faces, cache_dir, pdf_renderer,
                                             share_appendix=share_appendix)
        timings["pdf_cached" if from_cache else "pdf"] = time.perf_counter() - mark

    html_path, pdf_path = Path(out_dir) / f"report.{lang}.html", Path(out_dir) / f"report.{lang}.pdf"
    files: dict[Path, bytes] = {html_path: html.encode("utf-8")}
    if pdf_bytes is not None:
        files[pdf_path] = pdf_bytes
    print_svg.forget_charts()  # HTML and PDF both converted them: no one will again
    copies = _default_copies(files, Path(out_dir)) if default_copy else []
    mark = time.perf_counter()
    write_together(files)
    timings["write"] = time.perf_counter() - mark
    timings["total"] = time.perf_counter() - started
    return AssembledReport(lang=lang, html_path=html_path, pdf_path=pdf_path if pdf_bytes is not None else None,
                           copies=tuple(copies), timings=timings)


@dataclass(frozen=True)
class PrintedPart:
    """Sections made ready for WeasyPrint (``print_sections``), the charts they moved to
    ``resources``, and those charts' label characters."""

    sections: list[Section]
    resources: dict[str, tuple[bytes, str]]
    chart_labels: str

    @classmethod
    def of(cls, sections: list[Section]) -> "PrintedPart":
        resources: dict[str, tuple[bytes, str]] = {}
        printed, labels = print_sections(sections, resources)
        return cls(printed, resources, labels)


def print_report(page_args: dict, own: PrintedPart, appendix: PrintedPart, faces: tuple[FontFace, ...],
                 cache_dir: Path | None, renderer: Callable[..., bytes],
                 share_appendix: bool = False) -> tuple[bytes, bool]:
    """The PDF: the report's own pages, then its appendix printed as a document of its own, which a
    batch's focuses share through the cache (``appendix_pdf``); (pdf, own pages came from cache).

    ``share_appendix``: in subsets of its own text, so a batch's focuses print (and cache) one page;
    a single report prints it in its own subsets (they hold its characters too): three fewer to cut."""
    from mlperf_report.assemble import appendix_pdf

    lang = page_args["lang"]
    if not appendix.sections:
        printed = render_page(**{**page_args, "sections": own.sections}, font_faces=faces, resources=own.resources)
        return cached_pdf(printed, own.resources, lang, cache_dir, renderer)
    appendix_args = {**page_args, "sections": appendix.sections, "contents": []}
    appendix_faces = (page_fonts(render_page(**appendix_args), appendix.chart_labels, cache_dir)
                      if share_appendix else faces)
    printed_appendix = render_page(**appendix_args, font_faces=appendix_faces, resources=appendix.resources)
    appendix_bytes, _ = cached_pdf(printed_appendix, appendix.resources, f"{lang}.appendix", cache_dir, renderer)
    printed = render_page(**{**page_args, "sections": own.sections}, contents=[*own.sections, *appendix.sections],
                          font_faces=faces, resources=own.resources,
                          appendix_pages=appendix_pdf.section_pages(appendix_bytes))
    own_bytes, from_cache = cached_pdf(printed, own.resources, lang, cache_dir, renderer)
    return appendix_pdf.join(own_bytes, appendix_bytes), from_cache


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

    def run(self) -> AssembledReport:
        return assemble_report(self.round_id, self.lang, list(self.notebooks), self.narrative_html, self.notes_html,
                               self.out_dir, self.title, self.date, default_copy=self.default_copy, pdf=self.pdf,
                               cache_dir=self.cache_dir, share_appendix=self.share_appendix)


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


__all__ = ["AssembledReport", "FontFace", "ReportRequest", "assemble_report", "assemble_reports", "render_page",
           "render_pdf"]
