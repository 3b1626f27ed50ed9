"""The figures.json sidecars (see ARCHITECTURE.md, "Contract: figures.json"), built from DataFrames.

The narrative reads these instead of scraping cell output. Minutes stay unrounded floats; a missing
fact is ``null`` or an empty list, never a guess. Building is pure (frames in, dict out);
:func:`write` at the bottom is the only file access, and :func:`to_json` is byte-stable.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from mlperf_report.analysis import metrics
from mlperf_report.core.config import DIVISIONS, Baseline
from mlperf_report.core.prices import Catalogue
from mlperf_report.suites.training.rounds import benchmark_model, benchmark_title

#: SYSTEM_RESULT fields in contract order; ``minutes`` is the results table's ``score_min``.
_SYSTEM_FIELDS = ("submitter", "system_id", "system_name", "display_name", "division", "availability", "minutes",
                  "accelerators", "accelerator_model", "host_processors", "host_processor_model", "nodes", "framework")
_COUNT_FIELDS = ("accelerators", "host_processors", "nodes")


def _plain(value):
    """numpy / pandas scalars and missing values as JSON-ready Python values."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):
        return _plain(value.item())
    return value


def system_result(row: pd.Series | None, *, round_id: str) -> dict | None:
    """The SYSTEM_RESULT object of one results row; ``result_id`` is round/division/submitter/system/benchmark."""
    if row is None:
        return None
    out = {}
    for name in _SYSTEM_FIELDS:
        value = _plain(row.get("score_min" if name == "minutes" else name))
        if value is not None and name == "minutes":
            value = float(value)
        elif value is not None and name in _COUNT_FIELDS:
            value = int(value)
        out[name] = value
    key = (round_id, *(_plain(row.get(k)) for k in ("division", "submitter", "system_id", "benchmark")))
    out["result_id"] = "/".join(str(part) for part in key)
    return out


def _price(row: pd.Series) -> dict | None:
    if _plain(row.get("price_amount")) is None:
        return None
    amount = float(row["price_amount"])
    price = {"amount": int(amount) if amount.is_integer() else amount, "currency": str(row["price_currency"]),
             "source": str(row["price_source"]), "date": str(row["price_date"])}
    by_lang = row.get("price_source_by_lang")
    if isinstance(by_lang, dict) and by_lang:
        price["source_by_lang"] = dict(sorted(by_lang.items()))
    return price


def perf_per_dollar_entries(perf: pd.DataFrame, *, submitter: str, round_id: str) -> list[dict]:
    """perf/$ of each priced system of ``submitter`` against the baseline, best ratio first."""
    base = perf[perf["is_baseline"]]
    if base.empty or _price(base.iloc[0]) is None:
        return []
    base_row = base.iloc[0]
    mine = perf[(perf["submitter"].str.lower() == submitter.lower()) & perf["ratio"].notna() & ~perf["is_baseline"]]
    return [{"system": system_result(row, round_id=round_id), "price": _price(row),
             "baseline_price": _price(base_row), "ratio": float(row["ratio"]),
             "perf_per_dollar": float(row["perf_per_dollar"]), "baseline_perf_per_dollar": float(base_row["perf_per_dollar"]),
             "division": str(row["division"])} for _, row in mine.iterrows()]


def _unscored(results: pd.DataFrame, benchmark: str) -> list[dict]:
    df = metrics.unscored(results, benchmark=benchmark)
    return [{"submitter": _plain(r["submitter"]), "system_id": _plain(r["system_id"]), "division": _plain(r["division"]),
             "status": _plain(r["status"]), "status_detail": _plain(r.get("status_detail"))} for _, r in df.iterrows()]


def benchmark_figures(results: pd.DataFrame, *, round_id: str, benchmark: str, focus_submitter: str,
                      baseline: Baseline, catalogue: Catalogue, baseline_system: str | None = None,
                      previous_results: pd.DataFrame | None = None, previous_round_id: str | None = None,
                      division: str = "closed") -> dict:
    """figures.json of one benchmark; ``results`` prepared by ``metrics.prepare_results``.

    ``division`` is the one the round-over-round speed-up compares (closed by default: open results
    are not comparable across rounds either).
    """
    base_row = metrics.resolve_baseline(results, benchmark=benchmark, baseline=baseline, system_id=baseline_system)
    perf = metrics.perf_per_dollar(results, benchmark=benchmark, baseline_row=base_row, catalogue=catalogue, round_id=round_id)
    fastest = metrics.fastest(results, benchmark=benchmark)
    focus = metrics.focus_results(results, benchmark=benchmark, submitter=focus_submitter)
    previous = None
    if previous_round_id is not None and previous_results is not None:
        before = metrics.best_of(previous_results, benchmark=benchmark, submitter=focus_submitter, division=division)
        after = metrics.best_of(results, benchmark=benchmark, submitter=focus_submitter, division=division)
        previous = {"round": previous_round_id, "division": division,
                    "focus_best": system_result(before, round_id=previous_round_id),
                    "this_best": system_result(after, round_id=round_id),
                    "speedup": metrics.speedup(before, after)}
    return {
        "round": round_id,
        "benchmark": benchmark,
        "benchmark_title": benchmark_title(benchmark),
        "benchmark_model": benchmark_model(benchmark),
        "focus_submitter": focus_submitter,
        "fastest": {d: system_result(fastest[d], round_id=round_id) for d in DIVISIONS},
        "focus": {d: [system_result(r, round_id=round_id) for _, r in focus[d].iterrows()] for d in DIVISIONS},
        "baseline": system_result(base_row, round_id=round_id),
        "baseline_rule": metrics.baseline_rule(base_row, benchmark=benchmark, baseline=baseline, system_id=baseline_system),
        "perf_per_dollar": perf_per_dollar_entries(perf, submitter=focus_submitter, round_id=round_id),
        "previous_round": previous,
        "unscored": _unscored(results, benchmark),
    }


def summary_figures(results: pd.DataFrame, *, round_id: str, focus_submitter: str, baseline: Baseline,
                    catalogue: Catalogue, division: str = "closed") -> dict:
    """summary.json: who submitted what, the focus submitter's position and perf/$ per benchmark."""
    benchmarks = sorted(metrics.scored(results)["benchmark"].dropna().unique())
    counts = metrics.submissions(results)
    positions = metrics.focus_positions(results, submitter=focus_submitter, division=division)
    perf_entries = []
    for benchmark in benchmarks:
        base_row = metrics.resolve_baseline(results, benchmark=benchmark, baseline=baseline)
        perf = metrics.perf_per_dollar(results, benchmark=benchmark, baseline_row=base_row, catalogue=catalogue, round_id=round_id)
        for entry in perf_per_dollar_entries(perf, submitter=focus_submitter, round_id=round_id):
            perf_entries.append({"benchmark": benchmark, **entry})
    return {
        "round": round_id,
        "focus_submitter": focus_submitter,
        "benchmarks": [str(b) for b in benchmarks],
        "submissions": [{"submitter": str(s), "scored": {str(b): int(n) for b, n in row.items()}}
                        for s, row in counts.iterrows()],
        "positions": [{k: _plain(v) for k, v in row.items()} for _, row in positions.iterrows()],
        "perf_per_dollar": perf_entries,
    }


def to_json(figures: dict) -> str:
    """Byte-stable JSON text (fixed key order, UTF-8, no NaN)."""
    return json.dumps(figures, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write(path: Path | str, figures: dict) -> Path:
    """Write a figures file atomically."""
    from mlperf_report.core.atomic import write_text

    return write_text(path, to_json(figures))
