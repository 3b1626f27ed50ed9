"""A DataFrame as plain, deterministic HTML: the one table writer of every suite's notebooks."""

from __future__ import annotations

import html

import pandas as pd


def to_html(df: pd.DataFrame, *, table_class: str = "mlperf-table") -> str:
    """Plain, escaped HTML (no inline style, no ids) so the assembler's CSS decides the look."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>\n"
                   for row in df.itertuples(index=False))
    return f'<table class="{table_class}">\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n'
