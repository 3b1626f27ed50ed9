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


#: CIEDE2000 difference under which two colours of one chart read as the same colour: a brand's
#: primary this close to another series' colour (a yellow brand beside the house's mustard) is not
#: told apart at a glance. (The house's own focus red is 13.3 from its nearest palette colour.)
ALIKE = 15.0


def difference(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference of two (r, g, b) colours in 0..1 (sRGB, D65): 0 for the same
    colour, about 1 for the smallest difference an eye notices side by side, 100 for black to white."""
    return lab_difference(lab(a), lab(b))


def lab_difference(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """CIEDE2000 difference of two CIE L*a*b* colours (Sharma, Wu and Dalal's formulation)."""
    import math

    (l1, a1, b1), (l2, a2, b2) = first, second
    mean_chroma = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_chroma ** 7 / (mean_chroma ** 7 + 25 ** 7)))
    c1, c2 = math.hypot((1 + g) * a1, b1), math.hypot((1 + g) * a2, b2)
    h1 = math.degrees(math.atan2(b1, (1 + g) * a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, (1 + g) * a2)) % 360 if c2 else 0.0
    turn = h2 - h1 if abs(h2 - h1) <= 180 else h2 - h1 - 360 * math.copysign(1, h2 - h1)
    d_hue = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(turn / 2)) if c1 * c2 else 0.0
    mean_l, mean_c = (l1 + l2) / 2, (c1 + c2) / 2
    mean_h = h1 + h2 if not c1 * c2 else (h1 + h2) / 2 + (180 if abs(h1 - h2) > 180 else 0)
    t = (1 - 0.17 * math.cos(math.radians(mean_h - 30)) + 0.24 * math.cos(math.radians(2 * mean_h))
         + 0.32 * math.cos(math.radians(3 * mean_h + 6)) - 0.20 * math.cos(math.radians(4 * mean_h - 63)))
    s_l = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    s_c, s_h = 1 + 0.045 * mean_c, 1 + 0.015 * mean_c * t
    rotation = (-2 * math.sqrt(mean_c ** 7 / (mean_c ** 7 + 25 ** 7))
                * math.sin(math.radians(60 * math.exp(-(((mean_h % 360) - 275) / 25) ** 2))))
    dl, dc, dh = (l2 - l1) / s_l, (c2 - c1) / s_c, d_hue / s_h
    return math.sqrt(dl ** 2 + dc ** 2 + dh ** 2 + rotation * dc * dh)


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB (r, g, b) colour in 0..1."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))
