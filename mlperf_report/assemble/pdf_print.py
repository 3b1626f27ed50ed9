"""The report printed: WeasyPrint with ``templates/print.css``, charts' labels set as text, the PDF
cached by page content, and the appendix printed as a document of its own.

Printing never touches the network or the disk (an in-memory URL fetcher), and the same page prints
to the same bytes (font subsets with a fixed timestamp).
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from mlperf_report.assemble import (appendix_pdf, chart_letters, fixed_tables, print_svg, print_tables, svg_runs,
                                    text_lines)
from mlperf_report.assemble.page import FontFace, page_fonts, render_page
from mlperf_report.assemble.sections import Section
from mlperf_report.core.atomic import atomic_open
from mlperf_report.core.brand import NO_BRAND


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
    with _fixed_font_timestamps(), chart_letters.remembered(), text_lines.remembered(), svg_runs.whole_labels():
        return document.write_pdf(font_config=FontConfiguration(), optimize_images=False)


def shortest_that_fits(make_html: Callable[[int], str], most: int, pages: int = 1) -> bytes:
    """The PDF of ``make_html(n)`` for the largest ``n`` (1 ≤ n ≤ ``most``) whose layout takes at
    most ``pages`` pages; ``make_html(1)`` when none fits. All ``most`` first; when they do not fit,
    the page's marked parts measured in that layout guess ``n`` (``page_fit.guess``), and layouts of
    ``n`` and the next one tell (a brief of five to eight claims: three layouts, where halving took
    four); by halving when the page marks no part."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    def laid_out(n: int):
        return HTML(string=make_html(n), url_fetcher=_fetcher({}), media_type="print").render(
            font_config=FontConfiguration(), optimize_images=False)

    with _fixed_font_timestamps(), chart_letters.remembered(), text_lines.remembered(), svg_runs.whole_labels():
        best = laid_out(most)
        if len(best.pages) > pages:
            best = _fewer(laid_out, best, most, pages)
        return best.write_pdf()


def _fewer(laid_out: Callable, full, most: int, pages: int):
    """The layout of the largest ``n`` < ``most`` that fits in ``pages`` (``full``: the layout of all
    ``most``, which does not), else of 1: from the guess up while the next fits, or down until one
    fits (the same ``n`` as halving: fewer parts never take more pages)."""
    from mlperf_report.assemble import page_fit

    fits = lambda document: len(document.pages) <= pages  # noqa: E731
    n = page_fit.guess(full, most, pages)
    if n is None:
        return _largest(laid_out, 1, most - 1, fits) or laid_out(1)
    best = laid_out(n)
    if fits(best):
        while n + 1 < most and fits(document := laid_out(n + 1)):
            best, n = document, n + 1
        return best
    while n > 1 and not fits(best := laid_out(n - 1)):
        n -= 1
    return best


def _largest(laid_out: Callable, low: int, high: int, fits: Callable):
    """The layout of the largest ``n`` in ``low``..``high`` that ``fits``, by halving; None if none."""
    best = None
    while low <= high:
        middle = (low + high) // 2
        document = laid_out(middle)
        if fits(document):
            best, low = document, middle + 1
        else:
            high = middle - 1
    return best


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
                 share_appendix: bool = False) -> tuple[bytes, bytes | None, bool]:
    """The report's own pages and, printed as a document of its own, its appendix, which a batch's
    focuses share through the cache (``appendix_pdf``); (report, exhibits or None, report came from cache).

    ``share_appendix``: in subsets of its own text, so a batch's focuses print (and cache) one page;
    a single report prints it in its own subsets (they hold its characters too): three fewer to cut.
    Results tables print with the columns ``fixed_tables`` works out from those faces."""
    lang, brand = page_args["lang"], page_args.get("brand", NO_BRAND)
    own_sections = fixed_tables.fixed_sections(own.sections, faces, brand)
    if not appendix.sections:
        printed = render_page(**{**page_args, "sections": own_sections}, font_faces=faces, resources=own.resources)
        data, from_cache = cached_pdf(printed, own.resources, lang, cache_dir, renderer)
        return data, None, from_cache
    appendix_args = {**page_args, "sections": fixed_tables.fixed_sections(appendix.sections, faces, brand),
                     "contents": [], "companions": ()}
    appendix_faces = (page_fonts(render_page(**appendix_args), appendix.chart_labels, cache_dir, brand)
                      if share_appendix else faces)
    printed_appendix = render_page(**appendix_args, font_faces=appendix_faces, resources=appendix.resources)
    appendix_bytes, _ = cached_pdf(printed_appendix, appendix.resources, f"{lang}.appendix", cache_dir, renderer)
    printed = render_page(**{**page_args, "sections": own_sections}, contents=[*own.sections, *appendix.sections],
                          font_faces=faces, resources=own.resources,
                          appendix_files={s.id: appendix_pdf.file_name(lang) for s in appendix.sections})
    own_bytes, from_cache = cached_pdf(printed, own.resources, lang, cache_dir, renderer)
    return own_bytes, appendix_bytes, from_cache
