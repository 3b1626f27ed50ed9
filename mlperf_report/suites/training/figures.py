"""The figures.json sidecars (see ARCHITECTURE.md, "Contract: figures.json"), built from DataFrames.

The narrative reads these instead of scraping cell output. Minutes stay unrounded floats; a missing
fact is ``null`` or an empty list, never a guess. Building is pure (frames in, dict out);
``analysis.figures`` writes them (byte-stable JSON).
"""

from __future__ import annotations

import math

import pandas as pd

from mlperf_report.analysis import comparisons
from mlperf_report.suites.training import metrics
from mlperf_report.core.config import DIVISIONS, Baseline, Focus
from mlperf_report.core.prices import Catalogue
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.official_time import official_factor
from mlperf_report.suites.training.rounds import benchmark_model, benchmark_title

#: SYSTEM_RESULT fields in contract order; ``minutes`` is the results table's ``score_min``; ``mlcommons_id``
#: MLCommons' result ID (``5.1-0002``), null where the table has none.
_SYSTEM_FIELDS = ("submitter", "system_id", "system_name", "display_name", "division", "availability", "minutes",
                  "accelerators", "accelerator_model", "host_processors", "host_processor_model", "nodes", "framework",
                  "energy_j", "mlcommons_id")
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
        if value is not None and name in ("minutes", "energy_j"):
            value = float(value)
        elif value is not None and name in _COUNT_FIELDS:
            value = int(value)
        out[name] = value
    out["official_factor"] = official_factor(row.get("status_detail"), row.get("scaling_factor"))
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


def perf_per_dollar_entries(perf: pd.DataFrame, *, submitter: Focus | str, round_id: str) -> list[dict]:
    """perf/$ of each priced system of the focus against the baseline, best ratio first."""
    base = perf[perf["is_baseline"]]
    if base.empty or _price(base.iloc[0]) is None:
        return []
    base_row = base.iloc[0]
    mine = perf[comparisons.focus_mask(perf, metrics.as_focus(submitter)) & perf["ratio"].notna() & ~perf["is_baseline"]]
    return [{"system": system_result(row, round_id=round_id), "price": _price(row),
             "baseline": system_result(base_row, round_id=round_id),
             "baseline_price": _price(base_row), "ratio": float(row["ratio"]),
             "perf_per_dollar": float(row["perf_per_dollar"]), "baseline_perf_per_dollar": float(base_row["perf_per_dollar"]),
             "division": str(row["division"])} for _, row in mine.iterrows()]


def _unscored(results: pd.DataFrame, benchmark: str) -> list[dict]:
    df = metrics.unscored(results, benchmark=benchmark)
    return [{"submitter": _plain(r["submitter"]), "system_id": _plain(r["system_id"]), "division": _plain(r["division"]),
             "status": _plain(r["status"]), "status_detail": _plain(r.get("status_detail"))} for _, r in df.iterrows()]


def scale_entries(results: pd.DataFrame, *, benchmark: str, focus: Focus, round_id: str) -> list[dict]:
    """Closed results per accelerator count: how many systems, the fastest, and the focus's best and
    its position there, so a result is quoted against systems of its own size."""
    closed = metrics.scored(results, benchmark=benchmark, division="closed")
    mine = closed[comparisons.focus_mask(closed, focus)] if len(closed) else closed
    common = comparisons.common_scale(closed)
    out = []
    for count in comparisons.scale_classes(closed):
        same = comparisons.scale_class(closed, count)
        best = comparisons.scale_class(mine, count)
        position = comparisons.position_in_class(closed, best.iloc[0]) if len(best) else None
        out.append({"accelerators": count, "systems": len(same), "common": count == common,
                    "submitters": int(same["submitter"].nunique()),
                    "fastest": system_result(same.iloc[0], round_id=round_id),
                    "focus_best": system_result(best.iloc[0], round_id=round_id) if len(best) else None,
                    "focus_position": position[0] if position else None})
    return out


def _previous(results, previous_results, *, round_id, previous_round_id, benchmark, focus, division) -> dict | None:
    """The focus's (or, with no focus, the round's) best result now and in the previous round, when
    the previous round present is the one just before (an older round may have had another model)."""
    if previous_round_id is None or previous_results is None:
        return None
    if rounds.previous_round_id(round_id) not in (None, previous_round_id):
        return None
    before = metrics.best_of(previous_results, benchmark=benchmark, submitter=focus, division=division)
    after = metrics.best_of(results, benchmark=benchmark, submitter=focus, division=division)
    return {"round": previous_round_id, "division": division,
            "focus_best": system_result(before, round_id=previous_round_id),
            "this_best": system_result(after, round_id=round_id), "speedup": metrics.speedup(before, after)}


def _equal_scale(results: pd.DataFrame, base_row: pd.Series | None, *, benchmark: str, focus: Focus,
                 round_id: str) -> dict | None:
    """The focus's fastest closed result at the baseline's accelerator count, beside the baseline."""
    if base_row is None or pd.isna(base_row.get("accelerators")):
        return None
    closed = metrics.scored(results, benchmark=benchmark, division="closed")
    mine = comparisons.scale_class(closed[comparisons.focus_mask(closed, focus)], int(base_row["accelerators"]))
    if mine.empty:
        return None
    return {"accelerators": int(base_row["accelerators"]), "focus": system_result(mine.iloc[0], round_id=round_id),
            "baseline": system_result(base_row, round_id=round_id),
            "speedup": metrics.speedup(base_row, mine.iloc[0])}


def benchmark_figures(results: pd.DataFrame, *, round_id: str, benchmark: str, focus_submitter: Focus | str,
                      baseline: Baseline, catalogue: Catalogue, baseline_system: str | None = None,
                      previous_results: pd.DataFrame | None = None, previous_round_id: str | None = None,
                      division: str = "closed") -> dict:
    """figures.json of one benchmark; ``results`` prepared by ``metrics.prepare_results``.

    ``focus_submitter`` is the focus (a Focus, or a submitter name / ``none``). ``division`` is the one
    the round-over-round speed-up compares (closed by default: open results are not comparable across
    rounds either).
    """
    focus = metrics.as_focus(focus_submitter)
    base_row, rule = metrics.choose_baseline(results, benchmark=benchmark, baseline=baseline, focus=focus,
                                             round_id=round_id, system_id=baseline_system)
    perf = metrics.perf_per_dollar(results, benchmark=benchmark, baseline_row=base_row, catalogue=catalogue, round_id=round_id)
    fastest = metrics.fastest(results, benchmark=benchmark)
    mine = metrics.focus_results(results, benchmark=benchmark, submitter=focus)
    entries = perf_per_dollar_entries(perf, submitter=focus, round_id=round_id)
    return {
        "round": round_id,
        "benchmark": benchmark,
        "benchmark_title": benchmark_title(benchmark, round_id),
        "benchmark_model": benchmark_model(benchmark, round_id),
        "focus_submitter": focus.key,
        "focus_kind": focus.kind,
        "focus_name": focus.name,
        "fastest": {d: system_result(fastest[d], round_id=round_id) for d in DIVISIONS},
        "focus": {d: [system_result(r, round_id=round_id) for _, r in mine[d].iterrows()] for d in DIVISIONS},
        "baseline": system_result(base_row, round_id=round_id),
        "baseline_rule": rule,
        "perf_per_dollar": entries,
        "equal_scale": None if entries else _equal_scale(results, base_row, benchmark=benchmark, focus=focus, round_id=round_id),
        "scales": scale_entries(results, benchmark=benchmark, focus=focus, round_id=round_id),
        "previous_round": _previous(results, previous_results, round_id=round_id, previous_round_id=previous_round_id,
                                    benchmark=benchmark, focus=focus, division=division),
        "unscored": _unscored(results, benchmark),
        "official_times": _official_times(results, benchmark, round_id),
    }


def _official_times(results: pd.DataFrame, benchmark: str, round_id: str) -> list[dict]:
    """The benchmark's scored results whose time is MLCommons' published one (an RCP scaling factor the
    tree lacks), fastest first: the report's notes name each."""
    if "status_detail" not in results:
        return []
    rows = results[(results["benchmark"] == benchmark) & results["score_min"].notna()]
    rows = rows[[official_factor(d, f) is not None for d, f in zip(rows["status_detail"], rows["scaling_factor"])]]
    return [system_result(row, round_id=round_id) for _, row in rows.sort_values("score_min", kind="stable").iterrows()]


def summary_figures(results: pd.DataFrame, *, round_id: str, focus_submitter: Focus | str, baseline: Baseline,
                    catalogue: Catalogue, division: str = "closed") -> dict:
    """summary.json: who submitted what, the focus's position (in its scale class) and perf/$ per benchmark."""
    focus = metrics.as_focus(focus_submitter)
    benchmarks = sorted(metrics.scored(results)["benchmark"].dropna().unique())
    counts = metrics.submissions(results)
    positions = metrics.focus_positions(results, submitter=focus, division=division)
    perf_entries = []
    for benchmark in benchmarks:
        base_row = metrics.resolve_baseline(results, benchmark=benchmark, baseline=baseline, focus=focus, round_id=round_id)
        perf = metrics.perf_per_dollar(results, benchmark=benchmark, baseline_row=base_row, catalogue=catalogue, round_id=round_id)
        for entry in perf_per_dollar_entries(perf, submitter=focus, round_id=round_id):
            perf_entries.append({"benchmark": benchmark, **entry})
    return {
        "round": round_id,
        "focus_submitter": focus.key,
        "focus_kind": focus.kind,
        "focus_name": focus.name,
        "benchmarks": [str(b) for b in benchmarks],
        "submissions": [{"submitter": str(s), "scored": {str(b): int(n) for b, n in row.items()}}
                        for s, row in counts.iterrows()],
        "positions": [{k: _plain(v) for k, v in row.items()} for _, row in positions.iterrows()],
        "perf_per_dollar": perf_entries,
    }


