"""Text set into a fixed box at the largest size that fits, measured with the font it is drawn in.

A slide's title is a claim of any length ("…the Supermicro AS-4126GS-NBR-LCC system with 8 NVIDIA
B200 …", a 100-character system name, a Chinese sentence); a chart card's headline the same. Lines
are broken here, at spaces (and between Chinese characters), and each line measured with Pillow in
the font the deck or card names (DejaVu Sans; Noto Sans CJK TC where the text has Chinese; a brand's
face, ``latin``, for every character it has, Chinese still in the CJK face), so the renderer never
has to wrap it. The largest size from ``largest`` down to ``smallest`` whose lines fit
wins; if even the smallest does not, the text is cut at the last line that fits and ends in "…"
(the deck's speaker notes carry it whole). Line breaks and sizes therefore never depend on the
program that opens the file.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from mlperf_report.i18n.line_breaks import NO_LINE_END, NO_LINE_START

#: Share of a box's width the measured lines may fill: room for the renderer's own metrics.
SAFETY = 0.94
LINE_SPACING = 1.2


@dataclass(frozen=True)
class Fitted:
    lines: tuple[str, ...]
    size: float       # points
    cut: bool = False

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def has_cjk(text: str) -> bool:
    return any(unicodedata.east_asian_width(ch) in ("W", "F") for ch in text)


def family(text: str, lang: str, latin: str | None = None) -> str:
    """The font family a deck or card names for ``text`` (a brand's ``latin`` face when given)."""
    from mlperf_report.i18n import fonts

    return latin or (fonts.CJK_FAMILY if lang != "en" or has_cjk(text) else "DejaVu Sans")


#: The size text is measured at, then scaled: one font object per face. A Pillow font of the CJK
#: collection holds tens of MB, and one per size took an assembling process of a batch to 508 MB.
_MEASURED_AT = 100.0


@functools.lru_cache(maxsize=4)
def _font(cjk: bool, bold: bool):
    from PIL import ImageFont

    from mlperf_report.i18n import fonts

    if cjk:
        path = fonts.require_cjk_font()
        return ImageFont.truetype(str(path), _MEASURED_AT, index=fonts.cjk_face_index(path))
    return ImageFont.truetype(str(fonts.latin_font_paths()[700 if bold else 400]), _MEASURED_AT)


#: The space LibreOffice (and Word) put between a Chinese character and a Latin one beside it
#: ("autospace"), in ems: a title measured without it ran 10 points out of its box.
AUTOSPACE = 0.25
_WIDE = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")


def width(text: str, size: float, *, cjk: bool, bold: bool = False, latin: str | None = None) -> float:
    """``text``'s advance width in points at ``size`` points, Chinese-to-Latin spacing included; with
    a brand's ``latin`` face, each stretch of text in the face it is drawn in (:func:`_stretches`)."""
    visible = [ch for ch in text if not ch.isspace()]  # the space is added beside a space too
    joins = sum(1 for a, b in zip(visible, visible[1:]) if bool(_WIDE.match(a)) != bool(_WIDE.match(b)))
    branded = _brand_font(latin, bold) if latin else None
    if branded is None:
        return _font(cjk, bold).getlength(text) * size / _MEASURED_AT + (joins * AUTOSPACE * size if cjk else 0.0)
    font, covered = branded
    stretches = _stretches(text, covered)
    advance = sum((_font(True, bold) if wide else font).getlength(part) for part, wide in stretches)
    return advance * size / _MEASURED_AT + (joins * AUTOSPACE * size if any(w for _, w in stretches) else 0.0)


def _stretches(text: str, covered: frozenset[int]) -> list[tuple[str, bool]]:
    """``text`` cut where the face changes: True for a stretch drawn in the CJK face (a wide
    character, or one the brand's face lacks: matplotlib's fallback, the deck's East Asian font)."""
    out: list[tuple[str, bool]] = []
    for ch in text:
        wide = bool(_WIDE.match(ch)) or unicodedata.east_asian_width(ch) in ("W", "F") or ord(ch) not in covered
        if out and out[-1][1] == wide:
            out[-1] = (out[-1][0] + ch, wide)
        else:
            out.append((ch, wide))
    return out


@functools.lru_cache(maxsize=4)
def _brand_font(latin: str, bold: bool):
    """A brand face's Pillow font and the characters it has; None when fontconfig gives no file
    (then the house face measures it, as without a brand)."""
    from fontTools.ttLib import TTFont
    from PIL import ImageFont

    from mlperf_report.core.brand import font_file

    found = font_file(latin, bold)
    if found is None:
        return None
    path, index = found
    covered = frozenset(TTFont(str(path), fontNumber=index, lazy=True).getBestCmap() or ())
    return ImageFont.truetype(str(path), _MEASURED_AT, index=index), covered


def _tokens(text: str) -> list[str]:
    """Break opportunities: words with the space before them, and each Chinese character; closing
    punctuation joined to what it closes, opening punctuation to what it opens."""
    tokens: list[str] = []
    for token in re.findall(r"\s*[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]|\s*[^\s\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]+",
                            text):
        if tokens and (token[0] in NO_LINE_START or tokens[-1][-1] in NO_LINE_END):
            tokens[-1] += token
        else:
            tokens.append(token)
    return tokens


def wrap(text: str, size: float, box_width: float, *, cjk: bool, bold: bool = False,
         latin: str | None = None) -> list[str]:
    """``text`` in lines no wider than ``box_width`` points (a word wider than the box is split)."""
    lines, line = [], ""
    for token in _tokens(text):
        candidate = line + token if line else token.lstrip()
        if width(candidate, size, cjk=cjk, bold=bold, latin=latin) <= box_width * SAFETY:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = token.lstrip()
        while width(line, size, cjk=cjk, bold=bold, latin=latin) > box_width * SAFETY and len(line) > 1:
            cut = max(1, len(line) - 1)
            while cut > 1 and width(line[:cut], size, cjk=cjk, bold=bold, latin=latin) > box_width * SAFETY:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    return lines + ([line] if line else [])


def fit(text: str, box_width: float, box_height: float, *, largest: float, smallest: float, lang: str = "en",
        bold: bool = False, latin: str | None = None) -> Fitted:
    """``text`` (its ``\n`` paragraphs) at the largest whole point size in [``smallest``, ``largest``]
    whose lines fit the box (points); else at ``smallest``, cut to the lines that fit, the last ending
    in "…". ``latin``: a brand's face the text is drawn in, Chinese in the CJK face."""
    cjk = family(text, lang) != "DejaVu Sans"
    paragraphs = text.split("\n")
    wrapped = lambda size: [line for p in paragraphs  # noqa: E731
                            for line in wrap(p, size, box_width, cjk=cjk, bold=bold, latin=latin)]
    size = largest
    while size >= smallest:
        lines = wrapped(size)
        if len(lines) * size * LINE_SPACING <= box_height:
            return Fitted(tuple(lines), size)
        size -= 1
    lines = wrapped(smallest)
    keep = max(1, int(box_height // (smallest * LINE_SPACING)))
    last = lines[keep - 1]
    while last and width(last + "…", smallest, cjk=cjk, bold=bold, latin=latin) > box_width * SAFETY:
        last = last[:-1]
    return Fitted(tuple(lines[:keep - 1]) + (last.rstrip() + "…",), smallest, cut=True)
