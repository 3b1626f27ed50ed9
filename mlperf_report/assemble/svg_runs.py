"""Printing a chart label as one run of text, not letter by letter.

WeasyPrint draws an SVG ``<text>`` one letter at a time (``weasyprint/svg/text.py``): it lays each
letter out and draws it with a text matrix of its own, so that a letter may carry a position or a
rotation of its own (``x="1 2 3"``, ``dx``, ``rotate``). Our charts' labels never do: one position
for the whole label. Drawn letter by letter, a Training v1.0 report's 800 labels were 11,000 text
draws; the label's letters lost their kerning (each was placed at the previous one's advance), and a
PDF reader's copy of a label was a string of separate letters.

While a page prints (:func:`whole_labels`), a ``<text>`` with no per-letter position, no letter
spacing and no length to fit (``textLength``) is drawn by WeasyPrint's own code as one letter that
happens to be the whole label: its text is handed over as a string whose letters are itself. It is
laid out once (``chart_letters`` remembers the label's measurement, taken first for its width), drawn
with one text matrix, shaped by Pango as a whole (kerning and ligatures, as matplotlib measured it),
and its bounding box, the cursor after it and its anchoring (``text-anchor``) come out of the same
code. Any other ``<text>`` is drawn as before. The report's PDF is a fifth smaller and its printing
5-7% quicker (Training v1.0: 2.16 to 2.00 s of CPU in English, 2.00 to 1.90 s in Chinese).

This stands in for one WeasyPrint function (the SVG code's ``text``, in its module and its tag table)
for the length of one print, and only on the WeasyPrint versions it was checked against
(:data:`CHECKED`); on any other it does nothing and labels are drawn letter by letter.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

from mlperf_report.assemble import stand_in

#: WeasyPrint versions whose SVG text code this was checked against (see the tests).
CHECKED = ("70.0",)

#: What gives a letter a place of its own, or spaces the letters: such a ``<text>`` is drawn as before.
_PER_LETTER = ("dx", "dy", "rotate", "letter-spacing", "textLength", "lengthAdjust")


class _OneLetter(str):
    """A label whose only letter is itself: WeasyPrint's SVG text code draws one letter per item."""

    __slots__ = ()

    def __iter__(self):
        yield str(self)


@contextlib.contextmanager
def whole_labels() -> Iterator[None]:
    """For the ``with`` block: each plain ``<text>`` of an SVG drawn as one run (see the module)."""
    from weasyprint import svg

    original = svg.text
    with stand_in.standing_in("text", CHECKED, lambda memo: {svg: _drawing_whole(original)}):
        replaced = svg.text
        tags = [tag for tag, draw in svg.TAGS.items() if draw is original and replaced is not original]
        for tag in tags:  # the tag table and the module's name must stay the same function:
            svg.TAGS[tag] = replaced  # WeasyPrint tells text nodes by comparing them
        try:
            yield
        finally:
            for tag in tags:
                svg.TAGS[tag] = original


def _drawing_whole(original):
    """``original`` (WeasyPrint's SVG ``text``), a plain label's text handed over as one letter."""

    def text(svg, node, font_size):
        element = node._etree_node
        label = element.text
        if not plain(node.tag, label, len(element), node.attrib):
            return original(svg, node, font_size)
        element.text = _OneLetter(label)
        try:
            return original(svg, node, font_size)
        finally:
            element.text = label

    return text


def plain(tag: str, label, children: int, attributes) -> bool:
    """A ``<text>`` with text, no child element, at most one ``x`` and one ``y`` and nothing that
    places or spaces its letters one by one."""
    return (tag == "text" and isinstance(label, str) and bool(label) and not children
            and not any(name in attributes for name in _PER_LETTER)
            and all(len(str(attributes.get(name, "")).replace(",", " ").split()) <= 1 for name in ("x", "y")))
