"""A brand's primary among a chart's other colours: house colours too alike to it are replaced.

A brand's primary becomes the focus's colour in every chart (``style.recolour`` for the notebooks'
charts, ``style.branded`` for the press kit's). The house's other colours (the baseline's teal, the
others' grey, the submitters' palette) were chosen beside the house's red, not beside a brand's: a
yellow brand's focus sat beside the palette's mustard, told apart only by the legend. A house colour
within :data:`contrast.ALIKE` of the primary (CIEDE2000) is replaced, in that chart, by a reserve
colour (the palette, then :data:`EXTRA`; a grey by another grey where one will do) that the chart
does not use, at least as far from the primary, on which the text written on the old one's bars
still reads (WCAG 4.5:1): of those, the one farthest from every other series left in the chart
(a chart of twelve submitters uses the whole palette, and the focus standing apart comes first).
Where none is, the colour stays (no worse than before).
"""

from __future__ import annotations

from typing import Iterable

from mlperf_report.core import contrast

#: Colours a clashing house colour may become after the submitter palette, far from it and from each
#: other (a blue-green, an orange, a navy, a light olive, and a violet and a brown dark enough for white
#: text, which a replaced baseline's bars carry); a grey tries :data:`GREYS` first. With them, a chart
#: of the baseline, the others and up to five palette colours always finds a replacement (a test).
EXTRA = ("#1b998b", "#f46036", "#2d3047", "#c5d86d", "#6a4c93", "#9c4a00")
#: Tried first for a grey (the others'), so that "everyone else" stays neutral: a lighter grey, a darker.
GREYS = ("#d5dae0", "#737b84", "#4f565d")


def stepped_away(primary: str, series: Iterable[str], house: Iterable[str], reserve: Iterable[str],
                 text_on) -> dict[str, str]:
    """``{house colour: its replacement}`` for each colour of ``series`` (a chart's series colours,
    lower-case ``#rrggbb``) that is one of ``house`` and within :data:`contrast.ALIKE` of ``primary``.
    ``text_on(colour)`` is the colour of text written on a bar of ``colour`` (``style.text_on``)."""
    primary = primary.lower()
    kept = list(dict.fromkeys(s.lower() for s in series))
    house = {c.lower() for c in house}
    clashing = [c for c in kept if c in house and _alike(c, primary)]
    if not clashing:
        return {}
    left = [c for c in kept if c not in clashing]
    moved: dict[str, str] = {}
    for colour in clashing:
        text = text_on(colour)
        allowed = [c.lower() for c in (*(GREYS if _grey(colour) else ()), *reserve)
                   if c.lower() not in kept and c.lower() not in moved.values() and not _alike(c, primary)
                   and contrast.ratio(contrast.rgb(c), _rgb(text)) >= contrast.TEXT]
        if _grey(colour) and any(_grey(c) for c in allowed):  # the others stay neutral
            allowed = [c for c in allowed if _grey(c)]
        if allowed:  # the one farthest from every series left (the first of equals)
            moved[colour] = max(allowed, key=lambda c: min((_difference(c, o) for o in left), default=100.0))
            left.append(moved[colour])
    return moved


def _difference(a: str, b: str) -> float:
    return contrast.difference(contrast.rgb(a), contrast.rgb(b))


def _grey(colour: str) -> bool:
    """A colour with almost no hue (CIE chroma under 10): the others' grey."""
    _, a, b = contrast.lab(contrast.rgb(colour))
    return (a * a + b * b) ** 0.5 < 10


def _alike(a: str, b: str) -> bool:
    return _difference(a, b) < contrast.ALIKE


def _rgb(colour: str) -> tuple[float, float, float]:
    """``#rrggbb``, ``white`` or ``black`` as (r, g, b) in 0..1 (the two text colours of ``text_on``)."""
    named = {"white": "#ffffff", "black": "#000000"}
    return contrast.rgb(named.get(colour, colour))
