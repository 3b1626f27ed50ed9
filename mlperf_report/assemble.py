"""Assemble one round's report in one language: a self-contained HTML page and a print-quality PDF.

The executed notebooks become sections through nbconvert and our template
(``templates/nbconvert/report``: outputs of the target language only, never code); the narrative and
notes fragments go in as real HTML; ``templates/report.html.j2`` puts cover, contents and sections
around them with the CSS and a subset of the CJK font inline. WeasyPrint prints that same page with
``templates/print.css``. Both files are rendered in memory first and renamed into place together,
so a failed build never leaves half a report or destroys the previous one.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import nbformat

from mlperf_report import fonts, paths
from mlperf_report.atomic import atomic_open
from mlperf_report.errors import InputError, UserError

#: Cell tags whose cells never appear in a report (papermill's parameter cells among them).
HIDDEN_CELL_TAGS = frozenset({"parameters", "injected-parameters", "remove-cell", "remove_cell", "remove-output"})

#: Output types a report shows; streams (prints, warnings) and tracebacks are for the audit trail.
SHOWN_OUTPUT_TYPES = ("display_data", "execute_result")

#: Mime types a report shows, best first; a bare text/plain repr (``<Figure ...>``) is not content.
SHOWN_MIME_TYPES = ("image/svg+xml", "image/png", "image/jpeg", "text/html", "text/markdown")

#: Words of the report's own frame, per language (the narrative brings its own words).
LABELS = {
    "en": {"contents": "Contents", "highlights": "Highlights", "notes": "Notes and citations", "summary": "Summary"},
    "zh-Hant": {"contents": "目錄", "highlights": "重點", "notes": "附註與引用", "summary": "總覽"},
}

#: Headings inside a section start at this level (h2 is the section title itself).
SECTION_HEADING_LEVEL = 3

#: Only data: URLs may be loaded by the report; anything else would be a network (or disk) fetch.
_FETCHED = re.compile(
    r"""<(?:img|script|iframe|embed|source|video|audio|input)\b[^>]*?\ssrc\s*=\s*["']?(?!data:)([^"'\s>]+)"""
    r"""|<link\b[^>]*?\shref\s*=\s*["']?(?!data:)([^"'\s>]+)"""
    r"""|url\(\s*["']?(?!data:)([^"')\s]+)"""
    r"""|@import\s+["']([^"']+)""",
    re.IGNORECASE,
)
_SCRIPT = re.compile(r"<script\b.*?</script\s*>", re.IGNORECASE | re.DOTALL)
_HEADING_TAG = re.compile(r"<(/?)h([1-6])\b", re.IGNORECASE)
_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")


@dataclass(frozen=True)
class Section:
    """One part of the report: its anchor, title (contents entry) and body HTML."""

    id: str
    title: str
    html: str
    kind: str = "notebook"


@dataclass(frozen=True)
class AssembledReport:
    """Where the files of one language went, and how long each step took (seconds)."""

    lang: str
    html_path: Path
    pdf_path: Path | None
    copies: tuple[Path, ...] = ()
    timings: dict[str, float] = field(default_factory=dict)


# --- notebooks to sections (pure: notebook objects in, HTML out) ------------------------------------


def _lang_of(metadata: dict) -> str | None:
    return (metadata or {}).get("mlperf_report", {}).get("lang")


def _shown_in(metadata: dict, lang: str) -> bool:
    own = _lang_of(metadata)
    return own is None or own == lang


def report_notebook(nb: nbformat.NotebookNode, lang: str) -> nbformat.NotebookNode:
    """A copy of ``nb`` with only what the ``lang`` report shows: no hidden cells, no outputs of
    other languages, no streams or errors. Code sources stay (the template never prints them)."""
    nb = nbformat.from_dict(nb)
    cells = []
    for cell in nb.cells:
        tags = set(cell.get("metadata", {}).get("tags", []))
        if tags & HIDDEN_CELL_TAGS or not _shown_in(cell.get("metadata", {}), lang):
            continue
        if cell.cell_type == "code":
            cell.outputs = [
                output
                for output in cell.get("outputs", [])
                if output.output_type in SHOWN_OUTPUT_TYPES
                and _shown_in(output.get("metadata", {}), lang)
                and any(mime in output.get("data", {}) for mime in SHOWN_MIME_TYPES)
            ]
            if not cell.outputs:
                continue
        elif cell.cell_type != "markdown":
            continue
        cells.append(cell)
    nb.cells = cells
    return nb


def take_title(nb: nbformat.NotebookNode) -> str | None:
    """Remove and return the first markdown heading, which becomes the section title (and the
    contents entry); None when the notebook opens with something else."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            return None
        lines = cell.source.splitlines()
        for index, line in enumerate(lines):
            if not line.strip():
                continue
            match = _MD_HEADING.match(line)
            if not match:
                return None
            cell.source = "\n".join(lines[:index] + lines[index + 1 :]).strip()
            return match.group(2).strip()
    return None


def default_title(nb: nbformat.NotebookNode, stem: str, lang: str) -> str:
    """Title for a notebook without a heading: the benchmark's full name, or "Summary"."""
    from mlperf_report import rounds

    parameters = nb.get("metadata", {}).get("papermill", {}).get("parameters", {})
    benchmark = parameters.get("benchmark") or stem
    if benchmark in rounds.BENCHMARK_NAMES:
        return rounds.benchmark_title(benchmark)
    if stem == "summary":
        return labels_for(lang)["summary"]
    return stem


def shift_headings(html: str, top: int = SECTION_HEADING_LEVEL) -> str:
    """Move every heading down so the highest one is ``h<top>`` (sections own h1 and h2)."""
    levels = [int(level) for _, level in _HEADING_TAG.findall(html)]
    if not levels:
        return html
    delta = top - min(levels)
    if delta <= 0:
        return html
    return _HEADING_TAG.sub(lambda m: f"<{m.group(1)}h{min(int(m.group(2)) + delta, 6)}", html)


def strip_scripts(html: str) -> str:
    """Drop <script> elements: the report runs no code."""
    return _SCRIPT.sub("", html)


def svg_data_uri(svg: str) -> str:
    """An SVG as a data: URI for <img>; each chart stays an isolated document."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def fetched_urls(html: str) -> list[str]:
    """Every URL the page would load (src, stylesheet links, url(), @import) that is not data:.
    Links people click (<a href>) are not loads and are not listed."""
    return [next(group for group in match.groups() if group) for match in _FETCHED.finditer(html)]


@functools.cache
def _exporter():
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(
        template_name="report",
        extra_template_basedirs=[str(paths.TEMPLATES / "nbconvert")],
        exclude_input=True,
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )
    exporter.register_filter("svg_data_uri", svg_data_uri)
    exporter.register_filter("shift_headings", shift_headings)
    exporter.register_filter("strip_scripts", strip_scripts)
    return exporter


def notebook_section(nb: nbformat.NotebookNode, lang: str, stem: str) -> Section:
    """One executed notebook as a report section in ``lang``."""
    shown = report_notebook(nb, lang)
    title = take_title(shown) or default_title(nb, stem, lang)
    section_id = "sec-" + re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-")
    body, _ = _exporter().from_notebook_node(shown, resources={"section_id": section_id})
    return Section(id=section_id, title=title, html=body.strip(), kind="summary" if stem == "summary" else "notebook")


def labels_for(lang: str) -> dict[str, str]:
    return LABELS.get(lang, LABELS["en"])


def fragment_section(html: str, section_id: str, title: str, kind: str) -> Section:
    """The narrative or notes fragment as a section; its own top heading becomes the title."""
    match = re.match(r"\s*<h([1-6])\b[^>]*>(.*?)</h\1\s*>", html, re.IGNORECASE | re.DOTALL)
    if match:
        title = re.sub(r"<[^>]+>", "", match.group(2)).strip() or title
        html = html[match.end() :]
    return Section(id=section_id, title=title, html=shift_headings(html.strip()), kind=kind)


# --- page and PDF -----------------------------------------------------------------------------------


@functools.cache
def _jinja():
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(paths.TEMPLATES)),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        keep_trailing_newline=True,
    )


def render_page(*, lang: str, title: str, round_title: str, date: str, sections: list[Section],
                font_data_uri: str | None = None, font_format: str = "woff") -> str:
    """The whole report page; section bodies are trusted HTML made by our own code."""
    from markupsafe import Markup

    template = _jinja().get_template("report.html.j2")
    return template.render(
        lang=lang, title=title, round_title=round_title, date=date, labels=labels_for(lang),
        sections=[Section(s.id, s.title, Markup(s.html), s.kind) for s in sections],
        report_css=Markup((paths.TEMPLATES / "report.css").read_text(encoding="utf-8")),
        print_css=Markup((paths.TEMPLATES / "print.css").read_text(encoding="utf-8")),
        font_data_uri=font_data_uri, font_format=font_format, font_family=fonts.CJK_FAMILY,
    )


def embed_font(page_without_font: str, cache_dir: Path | None) -> tuple[str, str]:
    """A data: URI of the CJK font cut down to the characters of the page (font, format)."""
    data = fonts.subset_font(page_without_font, flavor="woff", cache_dir=cache_dir)
    return "data:font/woff;base64," + base64.b64encode(data).decode("ascii"), "woff"


def render_pdf(html: str) -> bytes:
    """Print the page with WeasyPrint (media print: print.css applies)."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher

    # data: URLs only, and any other load is fatal: printing can never touch the network or disk.
    fetcher = URLFetcher(allowed_protocols={"data"}, fail_on_errors=True)
    font_config = FontConfiguration()
    document = HTML(string=html, url_fetcher=fetcher, media_type="print")
    return document.write_pdf(font_config=font_config, optimize_images=False)


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
    cache_dir: Path | None = paths.CACHE / "fonts",
    pdf_renderer: Callable[[str], bytes] = render_pdf,
) -> AssembledReport:
    """Write ``out_dir/report.<lang>.html`` and ``.pdf`` (and ``report.html`` / ``report.pdf`` when
    ``default_copy``): narrative first, one section per notebook in the order given, notes last.

    Everything is rendered in memory, then all files are renamed into place together: on any error
    the previous report stays as it was.
    """
    from mlperf_report.rounds import parse_round

    timings: dict[str, float] = {}
    started = time.perf_counter()
    labels = labels_for(lang)
    sections = [fragment_section(narrative_html, "sec-highlights", labels["highlights"], "narrative")]
    for path in notebooks:
        sections.append(notebook_section(read_notebook(Path(path)), lang, Path(path).stem))
    if notes_html.strip():
        sections.append(fragment_section(notes_html, "sec-notes", labels["notes"], "notes"))
    timings["sections"] = time.perf_counter() - started

    try:
        round_title = parse_round(round_id).title
    except ValueError:
        round_title = round_id
    page_args = dict(lang=lang, title=title, round_title=round_title, date=date, sections=sections)
    mark = time.perf_counter()
    font_uri, font_format = embed_font(render_page(**page_args), cache_dir)
    html = render_page(**page_args, font_data_uri=font_uri, font_format=font_format)
    timings["font"] = time.perf_counter() - mark
    loads = fetched_urls(html)
    if loads:
        raise UserError(f"the {lang} report would load {loads[0]!r} (and {len(loads) - 1} more); "
                        "a report must be self-contained: embed it as a data: URL instead")

    mark = time.perf_counter()
    pdf_bytes = pdf_renderer(html) if pdf else None
    timings["pdf"] = time.perf_counter() - mark

    out_dir = Path(out_dir)
    html_path = out_dir / f"report.{lang}.html"
    pdf_path = out_dir / f"report.{lang}.pdf"
    files: dict[Path, bytes] = {html_path: html.encode("utf-8")}
    if pdf_bytes is not None:
        files[pdf_path] = pdf_bytes
    copies: list[Path] = []
    if default_copy:
        for path in list(files):
            copy = out_dir / ("report" + path.suffix)
            files[copy] = files[path]
            copies.append(copy)
    mark = time.perf_counter()
    write_together(files)
    timings["write"] = time.perf_counter() - mark
    timings["total"] = time.perf_counter() - started
    return AssembledReport(lang=lang, html_path=html_path, pdf_path=pdf_path if pdf_bytes is not None else None,
                           copies=tuple(copies), timings=timings)


def write_together(files: dict[Path, bytes]) -> None:
    """Write every file to a temporary name and rename them all only when all are complete."""
    with contextlib.ExitStack() as stack:
        for path, data in files.items():
            stack.enter_context(atomic_open(path, "wb")).write(data)


def copy_default(report: AssembledReport) -> tuple[Path, ...]:
    """Copy one language's files to report.html / report.pdf (atomically), for callers that decide
    the default language after assembling."""
    files = {report.html_path.with_name("report.html"): report.html_path.read_bytes()}
    if report.pdf_path:
        files[report.pdf_path.with_name("report.pdf")] = report.pdf_path.read_bytes()
    write_together(files)
    return tuple(files)


__all__ = ["AssembledReport", "Section", "assemble_report", "copy_default", "fetched_urls", "notebook_section",
           "render_page", "render_pdf", "report_notebook"]
