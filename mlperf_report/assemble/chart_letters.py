"""Printing chart labels without measuring every letter again.

WeasyPrint sets an SVG ``<text>`` one letter at a time (``weasyprint/svg/text.py``) and measures each
letter with a Pango line layout of its own: about 9,700 measurements for the 800 labels of a Training
v1.0 report's charts, nearly all of them the same few dozen letters in two faces and three sizes, a
seventh of the report's printing time, and re-activates that layout before drawing the letter. While
a page prints, those measurements are remembered: the same text in the same face and size gives the
same measured layout, activated once and kept so (re-activating it gave the same layout each time),
so the PDF is the same bytes (a test prints a page both ways). A fifth less printing time.

This stands in for one WeasyPrint function for the length of one print, and only on the WeasyPrint
versions it was checked against (:data:`CHECKED`); on any other it does nothing and printing is only
slower. The text of the page itself is not affected: WeasyPrint's layout modules hold their own
reference to the function, and only the SVG text code looks it up at each call (and the remembered
layouts are only those of the styles that code builds).
"""

from __future__ import annotations

import contextlib
import math
from typing import Iterator

from mlperf_report.assemble import stand_in

#: WeasyPrint versions whose SVG text code this was checked against (same PDF bytes, see the tests).
CHECKED = ("70.0",)


@contextlib.contextmanager
def remembered() -> Iterator[dict]:
    """For the ``with`` block: SVG text measured once per text, face and size; yields the memo."""
    from weasyprint.text import line_break

    with stand_in.standing_in("split_first_line", CHECKED,
                              lambda memo: {line_break: _remembering(memo, line_break.split_first_line)}) as memo:
        yield memo


def _remembering(memo: dict, original):
    """``original`` (WeasyPrint's ``split_first_line``), its SVG text measurements kept in ``memo``."""

    def split_first_line(text, style, context, max_width, justification_spacing, is_line_start=True,
                         minimum=False):
        key = _key(text, style, context, max_width, justification_spacing, is_line_start, minimum)
        if key is None:
            return original(text, style, context, max_width, justification_spacing, is_line_start, minimum)
        if key not in memo:
            memo[key] = measured = original(text, style, context, max_width, justification_spacing)
            _keep_active(measured[0], style)
        return memo[key]

    return split_first_line


def _keep_active(layout, style) -> None:
    """Activate a remembered layout once and keep it so: WeasyPrint re-activates a letter's layout
    (a new Pango layout, its font set up and its text shaped) before drawing it, every time, and the
    layouts remembered here would be re-activated once per use, to the same result."""
    layout.reactivate(style)
    layout.reactivate = _already_active


def _already_active(style) -> None:
    return None


def _key(text, style, context, max_width, justification_spacing, is_line_start, minimum):
    """What the SVG text code's measurement depends on, or None for any other call. That code builds
    its style from WeasyPrint's initial values and sets only these five properties and the font
    configuration; the page, its fonts and its layout context live as long as the print."""
    if (type(style).__module__ != "weasyprint.svg.text" or max_width != math.inf or justification_spacing
            or not is_line_start or minimum):
        return None
    return (text, tuple(style["font_family"]), style["font_style"], style["font_weight"], style["font_size"],
            style["direction"], id(style.font_config), id(context))
