"""Charts drawn once for every focus: the focus's colours painted onto a drawing that has none.

A batch of focuses draws each benchmark's charts once per focus, and most of them differ only in
colour: the focus's bars, the baseline's, and in the scaling charts each submitter's own colour
(which moves along the palette when another submitter is the focus). A chart that takes a
``colours`` option (a key per bar or per submitter -> its colour) is drawn with a placeholder
colour per key instead of the real ones, kept in the chart memo by everything but those colours,
and then painted: every placeholder replaced by its key's colour. Every build takes this path, a
single focus's too, so a chart's bytes never depend on which focus happened to draw it first.

Placeholders are ``#fe0001``, ``#fe0002``, ... in the order of the sorted keys; text written on a
placeholder's bar (a value inside it) is drawn in ``#fd0001``, ... and painted with the colour of
text on that key's colour. No colour of the house style starts with ``#fe`` or ``#fd``; a drawing where such a colour is not one of its placeholders is an
error, never a silent repaint. Submitters' names only reach the SVG as a ``<text>``'s content (or,
drawn as glyph outlines, in the comment matplotlib writes before them), and neither is ever repainted.
"""

from __future__ import annotations

import contextlib
import re
from typing import Hashable, Iterator, Mapping

_PREFIX = "#fe"
#: The placeholder of the text written on a placeholder's bar (``#fd0001`` on ``#fe0001``).
_TEXT_PREFIX = "#fd"
#: A label in a chart's SVG: a ``<text>``'s content from its ``>``, or a comment (outlines' labels).
#: Its text may be anything, a colour's spelling too: what repaints a chart skips it (``style.recolour``).
LABEL = r"<!--.*?-->|>[^<]*</text>"
#: A placeholder colour (a bar's or its text's), or a label (skipped).
_PAINTABLE = re.compile(LABEL + r"|#f[de][0-9a-f]{4}\b", re.DOTALL)


class PaintError(RuntimeError):
    """A drawing whose placeholder colours do not match its keys: a chart's bug, never the reader's."""


def placeholders(keys) -> dict[Hashable, str]:
    """A distinct placeholder colour per key, the same for the same set of keys in any order."""
    ordered = sorted(set(keys), key=repr)
    if len(ordered) >= 0xFFFF:
        raise PaintError(f"{len(ordered)} keys to paint; at most {0xFFFF - 1}")
    return {key: f"{_PREFIX}{i + 1:04x}" for i, key in enumerate(ordered)}


_DRAWING: list[frozenset] = []  # the placeholders of the charts being drawn (innermost last)


@contextlib.contextmanager
def drawing_with(placeholder_of: Mapping[Hashable, str]) -> Iterator[None]:
    """For the ``with`` block: a chart is being drawn with these placeholders (``placeholders``), so
    text written on one of them gets its text placeholder (:func:`text_placeholder`)."""
    _DRAWING.append(frozenset(colour.lower() for colour in placeholder_of.values()))
    try:
        yield
    finally:
        _DRAWING.pop()


def text_placeholder(colour: str) -> str | None:
    """The placeholder of text written on a bar of ``colour`` when that is a placeholder of the chart
    being drawn (``#fe0001`` -> ``#fd0001``: painted with the colour of text on that key's colour);
    None for any other colour (a brand's ``#fe6a00`` is a colour, not a placeholder)."""
    hexed = colour.lower()
    return _text_of(hexed) if _DRAWING and hexed in _DRAWING[-1] else None


def _text_of(placeholder: str) -> str:
    return _TEXT_PREFIX + placeholder[len(_PREFIX):]


def repaint(svg: str, placeholder_of: Mapping[Hashable, str], colours: Mapping[Hashable, str]) -> str:
    """``svg`` with each key's placeholder replaced by that key's colour (as matplotlib writes one:
    ``#rrggbb``, lowercase), and the text on its bars by the colour of text on that colour
    (``style.text_on_painted``)."""
    from matplotlib.colors import to_hex

    from mlperf_report.analysis import style

    final = {placeholder_of[key]: to_hex(colour) for key, colour in colours.items()}
    final.update({_text_of(placeholder_of[key]): to_hex(style.text_on_painted(colour))
                  for key, colour in colours.items()})

    def paint(match: re.Match) -> str:
        text = match.group(0)
        if text[0] in "<>":  # a label
            return text
        try:
            return final[text]
        except KeyError:
            raise PaintError(f"the chart drew {text}, which is no key's placeholder colour") from None

    return _PAINTABLE.sub(paint, svg)
