"""How wide a chart's label prints, and a label cut to fit: plain text, no pandas or matplotlib.

``axes`` labels the charts with these; the press kit's bar names (``bar_labels``) use them in the
build's own process, which never imports pandas.
"""

from __future__ import annotations

#: Columns (a CJK character counts two) a system's name may take on one line of a chart; longer
#: names end in "…" there (tables keep them whole), so the bars keep most of the page's width.
LABEL_COLUMNS = 40


def columns(text: str) -> int:
    """Printed width in columns: a CJK (wide) character takes two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def short_label(text: str, width: int = LABEL_COLUMNS) -> str:
    """``text`` in at most ``width`` columns, cut at a word where it can, ending in "…"."""
    if columns(text) <= width:
        return text
    cut = ""
    for ch in text:
        if columns(cut + ch) > width - 1:
            break
        cut += ch
    head = cut.rsplit(" ", 1)[0] if " " in cut and columns(cut.rsplit(" ", 1)[0]) >= width * 0.6 else cut
    return head.rstrip(" ,;:-_(") + "…"
