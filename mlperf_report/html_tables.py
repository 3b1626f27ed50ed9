"""Tables of the report as DataFrames with translated headings, and their deterministic HTML.

The results table lists every entry of a benchmark, scored or not: an incomplete or unconverged
result is shown with the reason (``status_detail``) instead of being dropped.
"""

from __future__ import annotations

import html

import pandas as pd

from mlperf_report import formatting
from mlperf_report.labels import label


def _count(value) -> str:
    return "" if pd.isna(value) else str(int(value))


def _runs(row) -> str:
    return f"{_count(row['runs_converged'])} / {_count(row['runs_found'])} / {_count(row['runs_required'])}"


def _minutes(value) -> str:
    return "" if pd.isna(value) else formatting.minutes(float(value), places=formatting.TABLE_PLACES)


def results_table(results: pd.DataFrame, *, lang: str = "en") -> pd.DataFrame:
    """Every entry of one benchmark: scored ones fastest first per division, then the unscored."""
    df = results.assign(_ok=(results["status"] == "ok"))
    df = df.sort_values(["division", "_ok", "score_min", "submitter", "system_id"],
                        ascending=[True, False, True, True, True], kind="mergesort", na_position="last")
    return pd.DataFrame({
        label("col.division", lang): [label(f"division.{d}", lang) if d in ("closed", "open") else d for d in df["division"]],
        label("col.submitter", lang): df["submitter"].astype(str),
        label("col.system", lang): df["display_name"].astype(str),
        label("col.accelerators", lang): [_count(v) for v in df["accelerators"]],
        label("col.framework", lang): df["framework"].fillna("").astype(str),
        label("col.minutes", lang): [_minutes(v) for v in df["score_min"]],
        label("col.runs", lang): [_runs(row) for _, row in df.iterrows()],
        label("col.status", lang): [label("status.ok", lang) if ok else str(detail or status)
                                    for ok, detail, status in zip(df["_ok"], df["status_detail"].fillna(""), df["status"])],
    })


def no_price_table(perf: pd.DataFrame, *, lang: str = "en") -> pd.DataFrame:
    """Systems of the perf/$ chart's division that have no price in the catalogue."""
    df = perf[perf["price_amount"].isna()]
    return pd.DataFrame({
        label("col.submitter", lang): df["submitter"].astype(str),
        label("col.system", lang): df["display_name"].astype(str),
        label("col.minutes", lang): [_minutes(v) for v in df["score_min"]],
        label("col.price", lang): label("no_price", lang),
    })


def to_html(df: pd.DataFrame, *, table_class: str = "mlperf-table") -> str:
    """Plain, escaped HTML (no inline style, no ids) so the assembler's CSS decides the look."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>\n"
                   for row in df.itertuples(index=False))
    return f'<table class="{table_class}">\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n'
