"""Executed notebooks (and the narrative and notes fragments) as report sections, per language.

Pure functions: notebook objects in, HTML out. A section shows, for its language, the outputs whose
``mlperf_report.lang`` metadata is that language (or none), markdown cells, and never code: our
nbconvert template (``templates/nbconvert/report``) has no input block at all, and papermill's
parameter cells and streams are dropped before it runs.
"""

from __future__ import annotations

import base64
import functools
from html import unescape as html_unescape
import re
from dataclasses import dataclass

import nbformat

from mlperf_report.core import paths
from mlperf_report.i18n import catalogue

#: Cell tags whose cells never appear in a report (papermill's parameter cells among them).
HIDDEN_CELL_TAGS = frozenset({"parameters", "injected-parameters", "remove-cell", "remove_cell", "remove-output"})

#: Output types a report shows; streams (prints, warnings) and tracebacks are for the audit trail.
SHOWN_OUTPUT_TYPES = ("display_data", "execute_result")

#: Mime types a report shows, best first; a bare text/plain repr (``<Figure ...>``) is not content.
SHOWN_MIME_TYPES = ("image/svg+xml", "image/png", "image/jpeg", "text/html", "text/markdown")

#: Words of the report's own frame; their text per language is in the catalogue (``frame.<word>``).
FRAME_WORDS = ("contents", "highlights", "notes", "summary", "exhibits", "companions")

#: Headings inside a section start at this level (h2 is the section title itself).
SECTION_HEADING_LEVEL = 3

#: Only data: URLs may be loaded by the report; anything else would be a network (or disk) fetch.
_FETCHED = re.compile(
    r"""<(?:img|script|iframe|embed|source|video|audio|input)\b[^>]*?\ssrc\s*=\s*["']?(?!data:)([^"'\s>]+)"""
    r"""|<link\b[^>]*?\shref\s*=\s*["']?(?!data:)([^"'\s>]+)""",
    re.IGNORECASE,
)
#: CSS loads; looked for only where CSS is (style elements and attributes), never in page text, where a
#: submitter's name may well read "url(https://...)".
_CSS_FETCHED = re.compile(r"""url\(\s*["']?(?!data:|#)([^"')\s]+)|@import\s+["']([^"']+)""", re.IGNORECASE)
_CSS = re.compile(r"""<style\b[^>]*>(.*?)</style\s*>|<[a-z][^>]*?\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)')""",
                  re.IGNORECASE | re.DOTALL)
_SCRIPT = re.compile(r"<script\b.*?</script\s*>", re.IGNORECASE | re.DOTALL)
_HEADING_TAG = re.compile(r"<(/?)h([1-6])\b", re.IGNORECASE)
_ANCHOR_LINK = re.compile(r'<a class="anchor-link" href="#[^"]*">(?:¶|&#182;|&para;)</a>')
_HEADING_ID = re.compile(r'<h([1-6]) id="[^"]*">')
_TABLE = re.compile(r"(<table\b.*?</table\s*>)", re.IGNORECASE | re.DOTALL)
_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")


#: Kinds of the notebooks' sections that are not a benchmark's: the summary, and the closing exhibits,
#: which go last as the report's appendix (printed once for a batch, see ``appendix_pdf``).
SECTION_KINDS = {"summary": "summary", "exhibits": "appendix"}


@dataclass(frozen=True)
class Section:
    """One part of the report: its anchor, title (contents entry) and body HTML."""

    id: str
    title: str
    html: str
    kind: str = "notebook"


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


def take_title_cell(nb: nbformat.NotebookNode) -> str | None:
    """Remove the notebook's own title block (a first markdown cell opening with a level-1
    heading, and the notes to notebook readers under it) and return the heading; else None."""
    first = next((cell for cell in nb.cells), None)
    if first is None or first.cell_type != "markdown":
        return None
    lines = [line for line in first.source.splitlines() if line.strip()]
    match = _MD_HEADING.match(lines[0]) if lines else None
    if not match or len(match.group(1)) != 1:
        return None
    nb.cells.remove(first)
    return match.group(2).strip()


def _parameters(nb: nbformat.NotebookNode) -> dict:
    return nb.get("metadata", {}).get("papermill", {}).get("parameters", {})


def _suite_of(parameters: dict):
    """The suite of the round a notebook was run for; None for a notebook papermill did not run."""
    from mlperf_report.suites import suite_for

    return suite_for(str(parameters["round_id"])) if parameters.get("round_id") else None


def section_title(nb: nbformat.NotebookNode, stem: str, lang: str, heading: str | None) -> str:
    """The contents entry of a notebook: "Summary" for the summary, "Exhibits" for the closing
    exhibits, the suite's name for a notebook papermill ran for an item (a benchmark's full name, in
    MLCommons' wording), else the notebook's own title."""
    parameters = _parameters(nb)
    if stem in ("summary", "exhibits") and not parameters.get("benchmark"):
        return labels_for(lang)[stem]
    suite = _suite_of(parameters)
    titled = suite.section_title(parameters, stem, lang) if suite else None
    return titled or heading or stem


def shift_headings(html: str, top: int = SECTION_HEADING_LEVEL) -> str:
    """Move every heading down so the highest one is ``h<top>`` (sections own h1 and h2), and drop
    nbconvert's "¶" anchor links and heading ids (every benchmark has a "Time to train": the ids
    would clash, and the pilcrows would print)."""
    html = _ANCHOR_LINK.sub("", html)
    html = _HEADING_ID.sub(r"<h\1>", html)
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
    found = [(match.start(), next(g for g in match.groups() if g)) for match in _FETCHED.finditer(html)]
    for css in _CSS.finditer(html):
        text = next((g for g in css.groups() if g), "")
        offset = css.start()
        found += [(offset + m.start(), next(g for g in m.groups() if g)) for m in _CSS_FETCHED.finditer(html_unescape(text))]
    return [url for _, url in sorted(found)]


@functools.cache
def exporter():
    """nbconvert's HTML exporter with the report's template, made once per process."""
    exporter = _exporter_class()(

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


@functools.cache
def _exporter_class():
    """``HTMLExporter`` without its last pass: parsing the page it made with BeautifulSoup to give an
    ``alt`` to images without one and a ``tabindex`` to JupyterLab's cells, and writing it out again,
    was four fifths of a section's conversion (Training v1.0: 0.16 of 0.19 s a language). The report's
    template gives every image its ``alt`` and has no such cells, so the pass changed nothing but how
    the same elements were written (attribute order, ``<img/>``, blank lines). It re-does the
    exporter's method with two of its private names, so only on the nbconvert versions it was
    checked with (``core.compat``); on any other, ``HTMLExporter`` itself."""
    from nbconvert import HTMLExporter

    from mlperf_report.core import compat

    if not compat.private_ok("nbconvert"):
        return HTMLExporter
    from nbconvert.exporters.templateexporter import TemplateExporter
    from nbconvert.filters.highlight import Highlight2HTML
    from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

    class SectionExporter(HTMLExporter):
        def from_notebook_node(self, nb, resources=None, **kw):  # HTMLExporter's, up to its soup
            info = nb.metadata.get("language_info", {})
            self.register_filter("highlight_code", self.filters.get("highlight_code", Highlight2HTML(
                pygments_lexer=info.get("pygments_lexer", info.get("name")), parent=self)))
            resources = self._init_resources(resources)
            self.register_filter("filter_data_type", WidgetsDataTypeFilter(
                notebook_metadata=self._nb_metadata, parent=self, resources=resources))
            html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
            return _CHARACTER_REFERENCE.sub(_as_character, html), resources

    return SectionExporter


#: A character reference (``&#x27;``, ``&nbsp;``): the pass written them out as the characters they
#: stand for (but ``&``, ``<``, ``>``, ``"``), which the print's line breaking (``print_tables``) counts.
_CHARACTER_REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def _as_character(match: re.Match) -> str:
    character = html_unescape(match.group(0))
    return match.group(0) if character in ('&', '<', '>', '"') or character == match.group(0) else character


def notebook_section(nb: nbformat.NotebookNode, lang: str, stem: str) -> Section:
    """One executed notebook as a report section in ``lang``."""
    shown = report_notebook(nb, lang)
    title = section_title(nb, stem, lang, take_title_cell(shown))
    section_id = "sec-" + re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-")
    body, _ = exporter().from_notebook_node(shown, resources={"section_id": section_id})
    html = catalogue_note(nb, lang) + body.strip()
    return Section(id=section_id, title=title, html=html, kind=SECTION_KINDS.get(stem, "notebook"))


def catalogue_note(nb: nbformat.NotebookNode, lang: str) -> str:
    """The suite's visible note above a section (e.g. a benchmark the catalogue lacks), or ""."""
    parameters = _parameters(nb)
    suite = _suite_of(parameters)
    return suite.section_note(parameters, lang) if suite else ""


def labels_for(lang: str) -> dict[str, str]:
    """Words of the report's own frame (contents, highlights, notes, summary) in ``lang``."""
    return {key: catalogue.message(f"frame.{key}", lang) for key in FRAME_WORDS}


def fragment_section(html: str, section_id: str, title: str, kind: str) -> Section:
    """The narrative or notes fragment as a section; its own top heading becomes the title."""
    match = re.match(r"\s*<h([1-6])\b[^>]*>(.*?)</h\1\s*>", html, re.IGNORECASE | re.DOTALL)
    if match:
        title = re.sub(r"<[^>]+>", "", match.group(2)).strip() or title
        html = html[match.end() :]
    html = _TABLE.sub(r'<div class="table-wrap">\1</div>', html)  # wide tables scroll on a phone
    return Section(id=section_id, title=title, html=shift_headings(html.strip()), kind=kind)
