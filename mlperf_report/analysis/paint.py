"""Charts drawn once for every focus: the focus's colours painted onto a drawing that has none.

A batch of focuses draws each benchmark's charts once per focus, and most of them differ only in
colour: the focus's bars, the baseline's, and in the scaling charts each submitter's own colour
(which moves along the palette when another submitter is the focus). A chart that takes a
``colours`` option (a key per bar or per submitter -> its colour) is drawn with a placeholder
colour per key instead of the real ones, kept in the chart memo by everything but those colours,
and then painted: every placeholder replaced by its key's colour. Every build takes this path, a
single focus's too, so a chart's bytes never depend on which focus happened to draw it first.

Placeholders are ``#fe0001``, ``#fe0002``, ... in the order of the sorted keys. No colour of the
house style starts with ``#fe``; a drawing where such a colour is not one of its placeholders is an
error, never a silent repaint. Submitters' names only reach the SVG in comments (matplotlib writes
each label before its glyph outlines), and comments are never repainted.
"""

from __future__ import annotations

import re
from typing import Hashable, Mapping

_PREFIX = "#fe"
#: A placeholder colour, or a comment (skipped: it holds a label's text, which may be anything).
_PAINTABLE = re.compile(r"<!--.*?-->|#fe[0-9a-f]{4}\b", re.DOTALL)


class PaintError(RuntimeError):
    """A drawing whose placeholder colours do not match its keys: a chart's bug, never the reader's."""


def placeholders(keys) -> dict[Hashable, str]:
    """A distinct placeholder colour per key, the same for the same set of keys in any order."""
    ordered = sorted(set(keys), key=repr)
    if len(ordered) >= 0xFFFF:
        raise PaintError(f"{len(ordered)} keys to paint; at most {0xFFFF - 1}")
    return {key: f"{_PREFIX}{i + 1:04x}" for i, key in enumerate(ordered)}


def repaint(svg: str, placeholder_of: Mapping[Hashable, str], colours: Mapping[Hashable, str]) -> str:
    """``svg`` with each key's placeholder replaced by that key's colour (as matplotlib writes one:
    ``#rrggbb``, lowercase)."""
    from matplotlib.colors import to_hex

    final = {placeholder_of[key]: to_hex(colour) for key, colour in colours.items()}

    def paint(match: re.Match) -> str:
        text = match.group(0)
        if text.startswith("<!--"):
            return text
        try:
            return final[text]
        except KeyError:
            raise PaintError(f"the chart drew {text}, which is no key's placeholder colour") from None

    return _PAINTABLE.sub(paint, svg)
