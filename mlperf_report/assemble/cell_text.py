"""A printed table cell's text as WeasyPrint sets it: its widest unbreakable piece (min-content) and
its one-line width (max-content), measured with the advance widths of the faces the page embeds.

``fixed_tables`` needs both for every cell to work out a table's columns the way WeasyPrint's
automatic layout does, without WeasyPrint measuring each cell (its costliest pass over a table).
The pieces follow the line breaking Pango applies to our tables' text: at spaces, after the zero-width
spaces ``print_tables`` puts in long words, between Chinese characters (not before closing or after
opening punctuation: ``i18n.line_breaks``), after a hyphen or slash between letters; never inside a
``.nobr`` span nor in a ``white-space: nowrap`` cell. Advances are summed without kerning: a width
can only come out a little wider than Pango's, never narrower, so no measured piece overflows.
"""

from __future__ import annotations

import functools
import html
import io
import re
import unicodedata
from dataclasses import dataclass

from mlperf_report.i18n.line_breaks import NO_LINE_END, NO_LINE_START

ZWSP = "\u200b"
_NOBR = re.compile(r'<span class="nobr">([^<]*)</span>')
_SPACES = re.compile(r"[ \t\n\r\f]+")
#: A line never breaks at a space before these (Unicode's classes CL, CP, EX, IS, SY: "converged /"
#: and "21.05 ," stay whole), nor at one after an opening bracket (OP).
_NOT_AFTER_SPACE = frozenset(")]},.:;!?/，。、：；！？）」』】〕〉》")


@functools.lru_cache(maxsize=16)
def face_advances(data: bytes) -> dict:
    """Code point -> advance width in em of a font file's (woff, otf, ttf) glyphs; made once per face."""
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(data), lazy=True)
    metrics, upem = font["hmtx"].metrics, font["head"].unitsPerEm
    return {code: metrics[glyph][0] / upem for code, glyph in (font.getBestCmap() or {}).items()}


@dataclass(frozen=True)
class Fonts:
    """The faces a table's text prints in, first choice first (a brand's face, then the house CJK
    face), regular and bold; a character none of them has makes the text unmeasurable (None)."""

    regular: tuple[Face, ...]
    bold: tuple[Face, ...]

    def width(self, text: str, bold: bool, size: float) -> float | None:
        """``text``'s width at ``size`` (px), or None when a character is in none of the faces."""
        total = 0.0
        for char in text:
            code = ord(char)
            if char == ZWSP:
                continue
            for face in self.bold if bold else self.regular:
                advance = face.get(code)
                if advance is not None:
                    total += advance
                    break
            else:
                return None
        return total * size


def _is_cjk(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def _breaks_between(before: str, after: str) -> bool:
    """Whether a line may break between two characters of a run of text with no space between them."""
    if before == ZWSP:
        return True
    if _is_cjk(before) or _is_cjk(after):
        return after not in NO_LINE_START and before not in NO_LINE_END
    return before in "-/" and after.isalpha()


def _joined(before: str, after: str) -> bool:
    """Whether a space between ``before`` and the character ``after`` is no break opportunity."""
    return after in _NOT_AFTER_SPACE or (before.rstrip(" ")[-1:] in NO_LINE_END)


def pieces(cell_html: str, nowrap: bool) -> tuple[str, tuple[str, ...]] | None:
    """(the cell's text on one line, its unbreakable pieces), or None for markup other than text and
    ``.nobr`` spans (such a cell is left to WeasyPrint)."""
    parts, kept, at = [], [], 0  # kept: per character, whether it sits in a .nobr span
    for span in _NOBR.finditer(cell_html):
        parts.append((cell_html[at:span.start()], False))
        parts.append((span.group(1), True))
        at = span.end()
    parts.append((cell_html[at:], False))
    text = ""
    for part, nobr in parts:
        if "<" in part or ">" in part:
            return None
        part = _SPACES.sub(" ", html.unescape(part))
        text += part
        kept += [nobr] * len(part)
    start = len(text) - len(text.lstrip(" "))
    text, kept = text.strip(" "), kept[start:start + len(text.strip(" "))]
    if nowrap:
        return text, (text,)
    found, piece = [], ""
    for i, char in enumerate(text):
        if char == " " and not kept[i] and not _joined(piece, text[i + 1:i + 2]):
            found.append(piece)
            piece = ""
            continue
        piece += char
        if i + 1 < len(text) and not (kept[i] and kept[i + 1]) and text[i + 1] != " " \
                and _breaks_between(char, text[i + 1]):
            found.append(piece)
            piece = ""
    found.append(piece)
    return text, tuple(p for p in found if p)
