"""WCAG 2's contrast of two colours: what decides whether text in a colour can be read on another.

Used for charts' labels (``analysis.style``) and for a brand's colours on the page (``core.brand``):
a light brand colour (a yellow) is fine for a bar or a rule and unreadable as text on white.
"""

from __future__ import annotations

#: WCAG 2's contrast for normal text (AA); large text needs 3:1.
TEXT = 4.5


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2's relative luminance of an (r, g, b) colour in 0..1: 0 for black, 1 for white."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG 2's contrast ratio of two (r, g, b) colours, from 1 (the same) to 21 (black on white)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def rgb(hexed: str) -> tuple[float, float, float]:
    """``#rrggbb`` as (r, g, b) in 0..1."""
    return tuple(int(hexed[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
