"""Submitters' text made safe to draw: every character drawable, no markup, a bounded length.

Names in a results tree are third-party text. In a chart they must never stop the report nor change
its meaning: matplotlib's mathtext is switched off in the house style (``text.parse_math``), so
``$…$`` is drawn as written; here each character the chart fonts lack (the fallback chain DejaVu Sans
→ Noto Sans CJK TC, which covers Latin, Greek, Cyrillic and CJK) becomes U+FFFD, control characters
become spaces, and a name longer than :data:`~mlperf_report.core.limits.MAX_LABEL_CHARS` is shortened
with "…". Only the drawing is affected: tables and CSVs keep the full text.
"""

from __future__ import annotations

import functools
import unicodedata

import pandas as pd

from mlperf_report.core import limits

REPLACEMENT = "\ufffd"


@functools.cache
def drawable():
    """Code points the chart fonts (DejaVu Sans, plus Noto Sans CJK TC when installed) can draw."""
    from mlperf_report.i18n import fonts

    return fonts.chart_code_points()


@functools.lru_cache(maxsize=65536)
def chart_text(text: str, max_chars: int = limits.MAX_LABEL_CHARS) -> str:
    """``text`` as a chart may draw it: shortened, control characters as spaces, missing glyphs as U+FFFD."""
    if len(text) > max_chars:
        text = text[: max_chars - 1].rstrip() + "…"
    codes = drawable()
    out = []
    for char in text:
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif ord(char) in codes:
            out.append(char)
        else:
            out.append(REPLACEMENT)
    return "".join(out)


def chart_value(value):
    """Strings through :func:`chart_text`; frames (their text cells), tuples and lists element-wise."""
    if isinstance(value, str):
        return chart_text(value)
    if isinstance(value, pd.DataFrame):
        return chart_frame(value)
    if isinstance(value, (tuple, list)):
        return type(value)(chart_value(v) for v in value)
    return value


def chart_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells are drawable (numbers untouched)."""
    text_columns = [c for c in frame.columns if frame[c].dtype == object or pd.api.types.is_string_dtype(frame[c])]
    if not text_columns:
        return frame
    frame = frame.copy()
    for column in text_columns:
        frame[column] = frame[column].map(lambda v: chart_text(v) if isinstance(v, str) else v)
    return frame
