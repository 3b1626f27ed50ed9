"""Make the charts' SVG quick for WeasyPrint to print and self-contained: labels as text in the embedded faces.

The notebooks write each label as text (``svg.fonttype = "none"``): :mod:`svg_faces` sets it in the
page's embedded subsets (DejaVu Sans, falling back to Noto Sans CJK TC) and collects its characters,
which the PDF then embeds. Labels come out as searchable text. An SVG that still carries labels as
glyph outlines (matplotlib's ``svg.fonttype = "path"``: a chart from elsewhere, or math) gets them
back as text here, which is cheap to keep (one regular expression that finds nothing in the
notebooks' charts): WeasyPrint re-parses every outline point at every character in Python, ~90 % of
its time on such a chart, about 0.5 s for a bar chart with system names. matplotlib writes the label
itself in a comment before each glyph group; that group becomes one ``<text>`` in the same place,
size, weight and colour. Anything that is not exactly what matplotlib writes for plain text (math,
an unknown font, a slanted face) is left as outlines.
"""
from __future__ import annotations

import base64
import functools
import re
from html import unescape

from mlperf_report.assemble import svg_faces, svg_tree
from mlperf_report.i18n import fonts

#: The embedded subsets of the fonts of matplotlib's glyph ids (``DejaVuSans-Bold-42``) that the
#: PDF can set as text (``fonts.EMBEDDED_*``: never an installed font of the same family).
LATIN_FAMILY = fonts.EMBEDDED_LATIN_FAMILY
CJK_FAMILY = fonts.EMBEDDED_CJK_FAMILY
_FONT_OF_GLYPH = re.compile(r"^(DejaVuSans|DejaVuSans-Bold|NotoSansCJK[A-Za-z]*-Regular)-[0-9a-fA-F]+$")

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_GROUP = re.compile(
    r"<!-- (?P<label>[^\n]*?) -->\s*"
    r'<g(?: style="(?P<style>[^"]*)")? transform="(?P<head>translate\(' + _NUMBER + r"(?:[ ,]" + _NUMBER + r")?\)"
    r"(?: rotate\(" + _NUMBER + r"\))?) scale\((?P<scale>" + _NUMBER + r") -(?P=scale)\)\">"
    r"(?P<defs>\s*<defs>.*?</defs>)?"
    r"(?P<uses>(?:\s*<use\s[^>]*/>)+)\s*</g>",
    re.DOTALL,
)
_LIGATURE = re.compile("ffi|ffl|ff|fi|fl")
_USE_ID = re.compile(r'xlink:href="#([^"]+)"')
_SVG_IMG = re.compile(r'(<img\b[^>]*?\ssrc=")data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)(")')
#: matplotlib's text-to-path size: glyph outlines are drawn at 100 units per em, then scaled.
_FONT_SCALE = 100


def _as_text(match: re.Match, labels: list[str]) -> str:
    label = match.group("label")
    # Math (mathtext) stays outlines, and so does "- -": matplotlib writes "--" in a comment as
    # "- -", so the label is ambiguous there.
    if "$" in label or "- -" in label or not label.strip():
        return match.group(0)
    glyphs = _USE_ID.findall(match.group("uses"))
    # one <use> per character, spaces too, or per ligature ("Offline": matplotlib shapes "ffl" as one glyph)
    if len(glyphs) not in (len(unescape(label)), len(_LIGATURE.sub("L", unescape(label)))):
        return match.group(0)
    fonts = set()
    for glyph in glyphs:
        font = _FONT_OF_GLYPH.match(glyph)
        if not font:
            return match.group(0)
        fonts.add(font.group(1))
    weight = ' font-weight="bold"' if "DejaVuSans-Bold" in fonts else ""
    labels.append(unescape(label))
    style = f' style="{match.group("style")}"' if match.group("style") else ""
    return (
        f'<g{style} transform="{match.group("head")} scale({match.group("scale")})">'
        f'{match.group("defs") or ""}'
        f'<text x="0" y="0" font-family="{LATIN_FAMILY}, {CJK_FAMILY}" font-size="{_FONT_SCALE}"{weight}'
        f' xml:space="preserve">{label}</text></g>'
    )


def glyphs_to_text(svg: str) -> tuple[str, list[str]]:
    """The chart with its labels as text in the embedded faces (``<text>`` as matplotlib wrote it, and
    each plain-text glyph group); also the labels."""
    converted, labels = _converted(svg)
    return converted, list(labels)


@functools.lru_cache(maxsize=128)
def _converted(svg: str) -> tuple[str, tuple[str, ...]]:
    """:func:`glyphs_to_text`'s work, done once per chart in a process: the HTML (``screen_svg``)
    and the PDF of a report convert the same charts."""
    svg, texts = svg_faces.embedded(svg)  # first: the outlines' own <text> are in those faces already
    labels: list[str] = []
    return _GROUP.sub(lambda match: _as_text(match, labels), svg), texts + tuple(labels)


def forget_charts() -> None:
    """Drop the charts :func:`glyphs_to_text` keeps (a report's worth: a batch's processes print
    many reports, whose charts are never converted again)."""
    _converted.cache_clear()


_DEFINED = re.compile(r'<(?P<tag>path|clipPath|pattern|linearGradient|radialGradient)\b[^>]*?\sid="(?P<id>[^"]+)"'
                      r'[^>]*?(?:/>|>.*?</(?P=tag)>)', re.DOTALL)
_REFERENCE = re.compile(r'(?:xlink:href="#|url\(#)([^")]+)')


def drop_definitions(svg: str, defined: set[str]) -> str:
    """``svg`` without the definitions (``<defs>`` children) it no longer uses, or that ``defined``
    already holds; adds the ones it keeps to ``defined``. Once labels are text, the glyph outlines
    are unused: dropping them spares the printer parsing them and the page carrying them."""
    used = set(_REFERENCE.findall(svg))

    def keep(match: re.Match) -> str:
        ident = match.group("id")
        if (ident not in used or ident in defined) and _is_definition(svg, match):
            return ""
        if ident in used:
            defined.add(ident)
        return match.group(0)

    return _DEFINED.sub(keep, svg)


def _is_definition(svg: str, match: re.Match) -> bool:
    """Only elements inside ``<defs>`` are definitions (a drawn path may carry an id too)."""
    opened, closed = svg.rfind("<defs>", 0, match.start()), svg.rfind("</defs>", 0, match.start())
    return opened > closed


#: URL scheme of the resources :func:`charts_for_print` hands to WeasyPrint from memory.
SCHEME = "mlperf-print:"


def charts_for_print(html: str, resources: dict[str, tuple[bytes, str]]) -> tuple[str, str]:
    """``html`` with every SVG chart's labels as text, the chart itself moved to ``resources``
    (name -> (bytes, mime type)) and referenced as ``mlperf-print:<name>``, so WeasyPrint neither
    parses nor decodes megabytes of base64; also all those labels' characters."""
    characters: set[str] = set()

    def rewrite(match: re.Match) -> str:
        svg, labels = glyphs_to_text(base64.b64decode(match.group(2)).decode("utf-8"))
        svg = drop_definitions(svg, set())
        characters.update("".join(labels))
        name = f"chart-{len(resources)}"
        resources[name] = (svg_tree.lighter(svg.encode("utf-8")), "image/svg+xml")
        return f"{match.group(1)}{SCHEME}{name}{match.group(3)}"

    return _SVG_IMG.sub(rewrite, html), "".join(sorted(characters))
