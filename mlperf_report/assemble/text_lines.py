"""Printing the page's text without breaking the same line twice.

WeasyPrint breaks a run of text into lines with ``split_first_line``, a Pango layout of its own per
call, and asks the same question again and again while a page prints: a table's widths code breaks
each cell's text at every opportunity several times over before the cell is laid out, and the
notes' two columns are laid out again at each trial height until they are balanced. Of a Training
v1.0 report's calls, three in five were repeats (same text, same style, same width and line
position); repeats were a sixth of the time printing the exhibits in English, a third in Chinese.

While a page prints, the answers are remembered: the same text in the same style object at the same
width and line position is broken once. A remembered answer hands out a copy of its layout each
time (WeasyPrint sets a box's layout up again before drawing it and may change its text, for an
ellipsis: no two boxes share one), so the PDF is the same bytes (a test prints pages both ways).

This stands in for WeasyPrint's function in its layout modules for the length of one print, and
only on the WeasyPrint versions it was checked against (:data:`CHECKED`); on any other it does
nothing and printing is only slower. SVG text is left to :mod:`chart_letters`.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

from mlperf_report.assemble import stand_in

#: WeasyPrint versions whose layout code this was checked against (same PDF bytes, see the tests).
CHECKED = ("70.0",)


@contextlib.contextmanager
def remembered() -> Iterator[dict]:
    """For the ``with`` block: each line of the page's text broken once; yields the memo."""
    with stand_in.standing_in("split_first_line", CHECKED, _replacements) as memo:
        yield memo


def _replacements(memo: dict) -> dict:
    """The layout modules' ``split_first_line``, its answers kept in ``memo``: the widths code
    (``preferred``) only reads the numbers and gets the remembered answer itself; the line layout
    (``inline``) a copy of its own."""
    from weasyprint.layout import inline, preferred

    original = inline.split_first_line

    def remembered_line(text, style, context, max_width, justification_spacing, is_line_start=True,
                        minimum=False):
        # the style's id holds for the print: the memo keeps the style alive, so no other takes its id
        key = (text, id(style), id(context), max_width, justification_spacing, is_line_start, minimum)
        found = memo.get(key)
        if found is None:
            found = memo[key] = (style, original(text, style, context, max_width, justification_spacing,
                                                 is_line_start, minimum))
        return found[1]

    def split_first_line(*args, **kwargs):
        layout, *rest = remembered_line(*args, **kwargs)
        return (_copy(layout), *rest)

    return {inline: split_first_line, preferred: remembered_line}


def _copy(layout):
    """A layout of its own for a box (what ``copy.copy`` makes, without its generic machinery): its
    attributes are replaced, never changed in place, when WeasyPrint sets it up again or sets its text."""
    clone = object.__new__(type(layout))
    clone.__dict__.update(layout.__dict__)
    return clone
