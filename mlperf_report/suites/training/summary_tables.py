"""Tables of the round summary, from results and the summary figures (translated headings)."""

from __future__ import annotations

import pandas as pd

from mlperf_report.i18n import formatting
from mlperf_report.suites.training import metrics
from mlperf_report.i18n.labels import label
from mlperf_report.suites.training.rounds import benchmark_model


def _minutes(value) -> str:
    return formatting.minutes(value, places=formatting.TABLE_PLACES)


def _round_of(results: pd.DataFrame) -> str | None:
    """The round of a results table (its ``round`` column), for round-aware benchmark names."""
    if "round" not in results.columns or results.empty:
        return None
    return str(results["round"].iloc[0])


def submissions_table(results: pd.DataFrame, *, lang: str = "en") -> pd.DataFrame:
    """Submitter × benchmark: how many scored systems each submitter has."""
    counts = metrics.submissions(results)
    round_id = _round_of(results)
    table = counts.rename(columns=lambda b: benchmark_model(b, round_id, lang)).reset_index()
    return table.rename(columns={"submitter": label("col.submitter", lang)})


def focus_label(summary: dict, lang: str) -> str:
    """How tables name the focus: the submitter, or "B200 systems" for an accelerator focus."""
    if summary.get("focus_kind") == "accelerator":
        return label("focus.accelerator", lang, name=summary.get("focus_name", ""))
    return str(summary.get("focus_name") or summary["focus_submitter"])


def positions_table(summary: dict, *, lang: str = "en") -> pd.DataFrame:
    """Per benchmark: the focus's best and its position among closed systems with the same accelerator
    count (never a rank against clusters a hundred times larger), and the fastest result overall.
    With no focus: how many systems and submitters, and the fastest."""
    rows = []
    for p in summary["positions"]:
        row = {label("col.benchmark", lang): benchmark_model(p["benchmark"], summary.get("round"), lang)}
        if summary.get("focus_kind") == "none":
            row[label("col.systems", lang)] = str(p["systems"])
            row[label("col.submitters", lang)] = str(p["submitters"])
        else:
            position = "" if p.get("class_position") is None else label(
                "position_class", lang, position=p["class_position"], total=p["class_systems"],
                count=formatting.count(p["accelerators"]))
            row[label("col.focus_minutes", lang, focus=focus_label(summary, lang))] = (
                "" if p["focus_minutes"] is None else _minutes(p["focus_minutes"]))
            row[label("col.class_position", lang)] = position
        row[label("col.fastest_submitter", lang)] = p["fastest_submitter"]
        row[label("col.fastest", lang)] = _minutes(p["fastest_minutes"])
        rows.append(row)
    return pd.DataFrame(rows)


def perf_per_dollar_frame(summary: dict, *, lang: str = "en") -> pd.DataFrame:
    """One row per priced focus system and benchmark: the ratio against the baseline."""
    rows = [{"benchmark": e["benchmark"], "benchmark_model": benchmark_model(e["benchmark"], summary.get("round"), lang),
             "submitter": e["system"]["submitter"], "system_id": e["system"]["system_id"],
             "display_name": e["system"]["display_name"], "ratio": e["ratio"], "minutes": e["system"]["minutes"],
             "price": e["price"]["amount"], "currency": e["price"]["currency"],
             "baseline_price": e["baseline_price"]["amount"]} for e in summary["perf_per_dollar"]]
    return pd.DataFrame(rows, columns=["benchmark", "benchmark_model", "submitter", "system_id", "display_name",
                                       "ratio", "minutes", "price", "currency", "baseline_price"])


def perf_per_dollar_table(summary: dict, *, lang: str = "en") -> pd.DataFrame:
    df = perf_per_dollar_frame(summary, lang=lang)
    return pd.DataFrame({
        label("col.benchmark", lang): df["benchmark_model"],
        label("col.system", lang): df["display_name"],
        label("col.minutes", lang): [_minutes(m) for m in df["minutes"]],
        label("col.price", lang): [formatting.money(p, c, lang) for p, c in zip(df["price"], df["currency"])],
        label("col.baseline_price", lang): [formatting.money(p, c, lang) for p, c in zip(df["baseline_price"], df["currency"])],
        label("col.ratio", lang): [formatting.ratio(r, places=2) for r in df["ratio"]],
    })
