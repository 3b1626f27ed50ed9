"""The one document every format of a report is made from, in one language (``Report``).

The build (``document.build_document``) makes it once per language: the claims with their citations
and charts (``Report.kit``: each claim's chart drawn once at every size a chosen format shows it,
``kit_charts.with_drawings``), the report's sections, the page model (``Page``), the results tables
the workbook needs (read from ``data/<round>/`` by the build) and the brand. A format's ``make(report)``
takes it and returns its files' bytes; no format reads a file of the round or draws a claim's chart
the document already holds. Frozen and picklable (with the default PDF renderer), as the kit is.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from mlperf_report.assemble.kit import Kit
from mlperf_report.assemble.pdf_print import PrintedPart
from mlperf_report.core import processes
from mlperf_report.core.brand import NO_BRAND, Brand
from mlperf_report.core.errors import UserError


def timed(timings: dict, name: str, make):
    """``make()``, its seconds added to ``timings[name]``."""
    started = time.perf_counter()
    value = make()
    timings[name] = timings.get(name, 0.0) + time.perf_counter() - started
    return value


@dataclass(frozen=True)
class Page:
    """The page model: what the page and the printed report are made of (``page.render_page``'s
    arguments: language, titles, date, sections, the files listed beside it, the brand) and the
    printed parts. The HTML, the font faces and the printing are made on first use, once, for every
    format that shows them (the PDF and the exhibits come out of one printing)."""

    args: dict
    own: PrintedPart
    appendix: PrintedPart
    cache_dir: Path | None = None
    share_appendix: bool = False
    pdf_renderer: Callable[..., bytes] | None = None
    timings: dict = field(default_factory=dict, compare=False, repr=False)
    give_back: bool = True  # see printed

    @functools.cached_property
    def faces(self) -> tuple:
        from mlperf_report.assemble.page import page_fonts, render_page

        printed_text = "".join(s.html for s in self.own.sections)  # what only print says ("and 34 more") too
        return timed(self.timings, "fonts", lambda: page_fonts(render_page(**self.args) + printed_text,
                                                               self.own.chart_labels + self.appendix.chart_labels,
                                                               self.cache_dir, self.args.get("brand", NO_BRAND)))

    @functools.cached_property
    def html(self) -> str:
        """The page with its charts inline, their labels as text in the embedded faces (``screen_svg``)."""
        from mlperf_report.assemble import screen_svg
        from mlperf_report.assemble.page import render_page
        from mlperf_report.assemble.sections import fetched_urls

        html = screen_svg.inline_charts(render_page(**self.args, font_faces=self.faces))
        loads = fetched_urls(html)
        if loads:
            raise UserError(f"the {self.args['lang']} report would load {loads[0]!r} (and {len(loads) - 1} more); "
                            "a report must be self-contained: embed it as a data: URL instead")
        return html

    @functools.cached_property
    def printed(self) -> tuple[bytes, bytes | None]:
        """The report's own pages and its appendix, printed (``pdf_print.print_report``). With
        ``give_back``, the layout's heap is given back before the kit draws: 20-30 MB off the peak of
        a process that goes on to other reports (a batch's), for a full collection (0.2 s of CPU); a
        single build's process, which exits after its one report, peaks 10 MB higher without it
        (247 MB, Training v1.0)."""
        from mlperf_report.assemble.pdf_print import print_report, render_pdf

        started = time.perf_counter()
        own, appendix, from_cache = print_report(self.args, self.own, self.appendix, self.faces, self.cache_dir,
                                                 self.pdf_renderer or render_pdf, share_appendix=self.share_appendix)
        if self.give_back and not from_cache:
            processes.give_back_memory()
        self.timings["pdf_cached" if from_cache else "pdf"] = time.perf_counter() - started
        return own, appendix


@dataclass(frozen=True)
class Report:
    """One language's report as every format sees it."""

    lang: str
    round_id: str
    round_title: str
    title: str
    date: str
    kit: Kit                      # the claims (text, note, citations, chart rows, drawn charts), the brand
    sections: tuple               # the report's HTML sections in reading order (``sections.Section``)
    page: Page                    # the page model
    tables: Mapping | None = None  # sheet name -> DataFrame (``Suite.workbook``), when a format uses them
    default_copy: bool = False    # the first language: also the language-free copies and per-report formats
    timings: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def claims(self) -> tuple:
        return self.kit.claims

    @property
    def brand(self) -> Brand:
        return self.kit.brand


__all__ = ["Page", "Report", "timed"]
