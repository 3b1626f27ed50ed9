"""Charts in the HTML page, compact: inline ``<svg>`` with text in the page's fonts instead of an ``<img>``.

The assembler embedded each chart as a base64 ``<img>``, which can use no font of the page: its
labels had to be glyph outlines (a round of ~130 charts cost 12 MB of outlines and positions per
language, plus a third for base64). The notebooks now write labels as text; here, as for print
(:mod:`mlperf_report.assemble.print_svg`), each label is set in the page's embedded font subsets
(DejaVu Sans for Latin, Noto Sans CJK TC for the rest) and the chart is written inline, so it uses
them rather than a font the reader may lack (an SVG with outlines gets them back as text too).
Outlines that are still used (math, unknown fonts) and every other definition (clip paths, markers)
are kept once per page: matplotlib names them by a hash of their content, so one id is always one
definition.
"""
from __future__ import annotations

import base64
import html as html_lib
import re

from mlperf_report.assemble import print_svg

_PROLOG = re.compile(r"^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!DOCTYPE[^>]*>\s*)?", re.DOTALL)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_IMG = re.compile(r'<img\b[^>]*?\ssrc="data:image/svg\+xml;base64,(?P<data>[A-Za-z0-9+/=]+)"[^>]*>')
_ALT = re.compile(r'\salt="([^"]*)"')
_GROUP_ID = re.compile(r'<g id="[^"]*"')
_SVG_OPEN = re.compile(r"<svg\b")


def compact_svg(svg: str, defined: set[str]) -> str:
    """One chart for inline use: labels as text, no comments, no prolog, and no definition that is
    unused or already in ``defined`` (the ids earlier charts of the page defined; updated)."""
    svg, _ = print_svg.glyphs_to_text(svg)
    svg = _GROUP_ID.sub("<g", _COMMENT.sub("", _PROLOG.sub("", svg)))  # "patch_1" in every chart, never referenced
    return print_svg.drop_definitions(svg, defined)


def inline_charts(page: str) -> str:
    """``page`` with every base64 SVG ``<img>`` replaced by the compact inline chart (its ``alt`` as
    the chart's accessible name)."""
    defined: set[str] = set()

    def inline(match: re.Match) -> str:
        svg = compact_svg(base64.b64decode(match.group("data")).decode("utf-8"), defined)
        alt = _ALT.search(match.group(0))
        name = html_lib.escape(html_lib.unescape(alt.group(1)), quote=True) if alt else ""
        return _SVG_OPEN.sub(f'<svg role="img" aria-label="{name}" class="chart-svg"', svg, count=1)

    return _IMG.sub(inline, page)
