"""Chart labels written as text set in the page's embedded font subsets, their characters collected.

The notebooks write each chart label as one ``<text>`` (matplotlib's ``svg.fonttype = "none"``)
naming the fonts matplotlib measured it with (``'DejaVu Sans', 'Noto Sans CJK TC'``), its weight
and slant. A report must show them in exactly those fonts and load nothing, so those names become
the embedded subsets' (``fonts.EMBEDDED_*``: the HTML and the PDF carry them, cut to the labels'
characters, which are collected here). Any other family (a brand's face) is left as named. Spaces
are kept where matplotlib measured them (``xml:space``). A bold or slanted label wholly in Chinese
is written regular: matplotlib drew it in Noto Sans CJK's one face, regular, and so did the pages
from its outlines; a browser would otherwise fake a bold or slanted face for it.
"""

from __future__ import annotations

import re
from html import unescape

from mlperf_report.i18n import fonts

#: matplotlib's family names and the page's names for their embedded subsets.
EMBEDDED = {fonts.LATIN_FAMILY: fonts.EMBEDDED_LATIN_FAMILY, fonts.CJK_FAMILY: fonts.EMBEDDED_CJK_FAMILY}
_TEXT = re.compile(r"<text\b(?P<attrs>[^>]*)>(?P<label>[^<]*)</text>")
_FAMILY = re.compile(r"(?P<head>font-family\s*[:=]\s*\"?)(?P<names>[^;\"]*)")
_WEIGHT_OR_SLANT = re.compile(r"font-(?:weight|style)\s*:[^;\"]*;?\s*")


def _names(match: re.Match) -> list[str]:
    return [name.strip().strip("'\"").strip() for name in match.group("names").split(",") if name.strip()]


def _families(match: re.Match) -> str:
    return match.group("head") + ", ".join(EMBEDDED.get(name, name) for name in _names(match))


def embedded(svg: str) -> tuple[str, tuple[str, ...]]:
    """``svg`` with each ``<text>`` in the embedded faces and its spaces kept; also the labels."""
    labels: list[str] = []

    def text(match: re.Match) -> str:
        attrs, label = match.group("attrs"), unescape(match.group("label"))
        labels.append(label)
        if _WEIGHT_OR_SLANT.search(attrs) and _drawn_regular(attrs, label):
            attrs = _WEIGHT_OR_SLANT.sub("", attrs)
        if "xml:space" not in attrs:
            attrs = ' xml:space="preserve"' + attrs
        return f"<text{_FAMILY.sub(_families, attrs)}>{match.group('label')}</text>"

    return _TEXT.sub(text, svg), tuple(labels)


def _drawn_regular(attrs: str, label: str) -> bool:
    """Whether matplotlib drew every character of ``label`` in the house's CJK face (it has no bold,
    no slant): the label is in the house's fonts, and DejaVu Sans has none of its characters."""
    family = _FAMILY.search(attrs)
    if family is None or not set(_names(family)) <= set(EMBEDDED):
        return False
    latin = fonts.latin_characters()
    return not any(ord(ch) in latin for ch in label)
