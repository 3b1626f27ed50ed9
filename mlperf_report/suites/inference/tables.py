"""What the Inference notebooks work on: one round's results.csv (and the previous round's where the
tables are present), the frames each chart shows, and the facts the narrative cites.

Results are grouped by benchmark, the name MLCommons' table files them under (``benchmark``: the
checker's name of the model folder), never by folder spelling. Only valid, scored results are
ranked. Per-accelerator figures are derived (result ÷ accelerators, throughput scenarios only) and
always labelled so; MLCommons' primary metric is the result itself. Like-for-like means same
benchmark, scenario, division and accelerator count.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from mlperf_report.suites.inference import story_inputs
from mlperf_report.core.config import Focus, focus_of
from mlperf_report.suites.inference import models, power
from mlperf_report.suites.inference.checker_rules import mlperf_model
from mlperf_report.suites.inference.metrics import LATENCY_SCENARIOS, SCENARIOS, higher_is_better
from mlperf_report.suites.inference.rounds import parse_round

#: Results a ranking shows in full (the best ones); the focus's best results further down (at most
#: FOCUS_BELOW) are added with their rank.
TOP = 5
FOCUS_BELOW = 3


def load_results(data_dir: Path | str, round_id: str) -> pd.DataFrame:
    """A round's results.csv, with empty text cells as ''. A tokens-per-second result the official table
    labels in queries or samples per second (v5.0's Llama 3.1 405B, Whisper) is shown in Tokens/s; its
    official label stays in ``official_unit`` and the notes say so."""
    path = Path(data_dir) / round_id / "results.csv"
    frame = pd.read_csv(path, keep_default_na=False, na_values={"result": [""], "accelerators": [""],
                                                                 "accuracy": [""], "power_result": [""]})
    frame["accelerators"] = pd.to_numeric(frame["accelerators"], errors="coerce").astype("Int64")
    frame["valid"] = frame["valid"].astype(str).str.lower() == "true"
    frame["official_unit"] = frame["unit"]
    if "benchmark" not in frame:  # tables of an ingest before the column existed
        rules = parse_round(round_id).rules
        frame.insert(frame.columns.get_loc("model") + 1, "benchmark", [mlperf_model(m, rules) for m in frame["model"]])
    frame.loc[frame["metric"].str.contains("tokens_per_second") & (frame["unit"] != ""), "unit"] = "Tokens/s"
    return frame


def previous_results(data_dir: Path | str, round_id: str) -> tuple[str, pd.DataFrame | None]:
    """The previous round's id and its results, or None when its tables are not in ``data_dir``."""
    previous = parse_round(round_id).previous().id
    path = Path(data_dir) / previous / "results.csv"
    return previous, (load_results(data_dir, previous) if path.is_file() else None)


def scored(results: pd.DataFrame, *, benchmark: str, division: str) -> pd.DataFrame:
    """Valid, scored results of one benchmark (every folder spelling of it) in one division."""
    keep = ((results["benchmark"] == benchmark) & (results["division"] == division) & results["valid"]
            & results["result"].notna())
    return results[keep].reset_index(drop=True)


def scenarios_of(frame: pd.DataFrame) -> list[str]:
    return [s for s in SCENARIOS if (frame["scenario"] == s).any()]


def ranked(frame: pd.DataFrame, scenario: str) -> pd.DataFrame:
    """One scenario's results, best first (higher throughput, or lower latency, is better)."""
    rows = frame[frame["scenario"] == scenario]
    rows = rows.sort_values(["result", "submitter", "system_id"], ascending=[not higher_is_better(scenario), True, True],
                            kind="mergesort").reset_index(drop=True)
    return rows.assign(rank=range(1, len(rows) + 1))


def leading(ranked_rows: pd.DataFrame, focus: Focus | str | None, top: int = TOP, below: int = FOCUS_BELOW) -> pd.DataFrame:
    """The best ``top`` of a ranking and the focus's best ``below`` results under them (their ``rank``
    kept), so a chart and its table stay short and still show where the focus stands."""
    under = ranked_rows[(ranked_rows["rank"] > top) & focus_rows(ranked_rows, focus)].head(below)
    keep = (ranked_rows["rank"] <= top) | ranked_rows.index.isin(under.index)
    return ranked_rows[keep].reset_index(drop=True)


def chart_rows(shown: pd.DataFrame, top: int = TOP) -> pd.DataFrame:
    """Rows for a ranking chart: a result below the best ``top`` says its rank in its label."""
    names = shown["system_name"].where(shown["system_name"] != "", shown["system_id"])
    below = shown["rank"] > top
    return shown.assign(system_name=names.where(~below, "#" + shown["rank"].astype(str) + " " + names))


def per_accelerator(frame: pd.DataFrame, scenario: str) -> pd.DataFrame:
    """Derived: throughput ÷ accelerator count, best first (throughput scenarios with a known count)."""
    if scenario in LATENCY_SCENARIOS:
        return frame.iloc[0:0].assign(per_accelerator=pd.Series(dtype=float))
    rows = frame[(frame["scenario"] == scenario) & (frame["accelerators"].fillna(0) > 0)].copy()
    rows["per_accelerator"] = rows["result"] / rows["accelerators"].astype(float)
    return rows.sort_values(["per_accelerator", "submitter", "system_id"], ascending=[False, True, True],
                            kind="mergesort").reset_index(drop=True)


def with_power(frame: pd.DataFrame, scenario: str) -> pd.DataFrame:
    """Results of one scenario whose power result was computed, most efficient first."""
    rows = frame[(frame["scenario"] == scenario) & frame["power_result"].notna()]
    rows = rows.assign(per_joule=[power.efficiency(scenario, r, p) for r, p in zip(rows["result"], rows["power_result"])])
    return rows.sort_values(["per_joule", "submitter", "system_id"], ascending=[False, True, True],
                            kind="mergesort").reset_index(drop=True)


def measured_with_power(frame: pd.DataFrame) -> dict[str, int]:
    """Scenario -> how many of these results were measured with power (computed or not), scenarios in order."""
    measured = frame[frame["power_unit"].fillna("") != ""]
    return {s: int((measured["scenario"] == s).sum()) for s in scenarios_of(measured)}


def best_by_round(current: pd.DataFrame, previous: pd.DataFrame | None, *, round_id: str, previous_id: str,
                  benchmark: str, division: str) -> pd.DataFrame:
    """Best valid result per scenario and submitter in this and the previous round (same benchmark, division)."""
    frames = [(round_id, current)] + ([(previous_id, previous)] if previous is not None else [])
    rows = []
    for rid, results in frames:
        table = scored(results, benchmark=benchmark, division=division)
        for scenario in scenarios_of(table):
            top = ranked(table, scenario).drop_duplicates("submitter")
            rows += [{"round": rid, "scenario": scenario, "submitter": r.submitter, "result": r.result, "unit": r.unit}
                     for r in top.itertuples()]
    frame = pd.DataFrame(rows, columns=["round", "scenario", "submitter", "result", "unit"])
    units = frame.groupby("scenario")["unit"].nunique()
    return frame[frame["scenario"].map(units) == 1].reset_index(drop=True)  # same unit in both rounds only


def as_focus(focus: Focus | str | None) -> Focus:
    """The focus of a report: a ``Focus`` (submitter, accelerator or none), or a submitter's name ("" or
    None: none)."""
    return focus if isinstance(focus, Focus) else focus_of(focus or "")


def focus_name(focus: Focus | str | None) -> str | None:
    """What the text calls the focus: the submitter or the accelerator; None for a neutral overview."""
    focus = as_focus(focus)
    return focus.name if focus.kind != "none" else None


def focus_rows(frame: pd.DataFrame, focus: Focus | str | None) -> pd.Series:
    """Rows of the focus's results (a submitter's, or those of every system built on an accelerator)."""
    focus = as_focus(focus)
    accelerators = frame["accelerator_model"] if "accelerator_model" in frame else pd.Series("", index=frame.index)
    return pd.Series([focus.matches(s, a) for s, a in zip(frame["submitter"], accelerators)], index=frame.index,
                     dtype=bool)


def scenario_facts(frame: pd.DataFrame, scenario: str, focus: Focus | str | None) -> dict:
    """The facts of one benchmark and scenario the narrative may cite (best result; the focus's best, its
    rank, and its rank among systems with the same accelerator count)."""
    table = ranked(frame, scenario)
    best = table.iloc[0]
    facts = {"scenario": scenario, "unit": best.unit, "higher_is_better": higher_is_better(scenario),
             "results": len(table), "best": _entry(best)}
    mine = table[focus_rows(table, focus)]
    if not mine.empty:
        top = mine.iloc[0]
        facts["focus"] = {**_entry(top), "rank": int(mine.index[0]) + 1}
        if pd.notna(top.accelerators):  # a system without its systems JSON has no size to compare by
            same = table[table["accelerators"] == top.accelerators]
            facts["focus"].update({"like_rank": int((same.index < mine.index[0]).sum()) + 1,
                                   "like_count": len(same), "like_best": _entry(same.iloc[0])})
    return facts


def _entry(row) -> dict:
    accelerators = row.accelerators
    return {"submitter": row.submitter, "system_id": row.system_id, "system_name": row.system_name,
            "result": float(row.result), "accelerators": None if pd.isna(accelerators) else int(accelerators),
            "accelerator_model": row.accelerator_model, "category": row.category,
            "availability": row.availability, "mlcommons_id": _mlcommons_id(row)}


def _mlcommons_id(row) -> str | None:
    """MLCommons' result ID of a row (``5.1-0061``), None where the table has none (or no such column)."""
    value = row.get("mlcommons_id") if hasattr(row, "get") else None
    return value.strip() if isinstance(value, str) and value.strip() else None


def benchmark_facts(results: pd.DataFrame, *, benchmark: str, division: str, focus: Focus | str | None,
                    round_id: str) -> dict:
    """Everything the narrative needs about one benchmark (figures/<benchmark>.json); ``models``: the
    folder spellings its results were submitted under."""
    table = scored(results, benchmark=benchmark, division=division)
    mine = results["benchmark"] == benchmark
    return {"suite": "inference", "round": round_id, "benchmark": benchmark, "division": division,
            "focus": focus_name(focus),
            "models": sorted(table["model"].unique()),
            "title": {lang: models.title(benchmark, lang) for lang in ("en", "zh-Hant")},
            "scenarios": [scenario_facts(table, s, focus) for s in scenarios_of(table)],
            "official_units": sorted(set(table.loc[table["unit"] != table["official_unit"], "official_unit"])),
            "invalid": int((mine & ~results["valid"]).sum()),
            "with_power": int((mine & (results["power_unit"] != "")).sum())}


def round_facts(results: pd.DataFrame, *, focus: Focus | str | None, round_id: str) -> dict:
    """The round at a glance (figures/summary.json). Benchmarks are counted as the round lists them: an
    open model the checker files under none of them is a result, not a benchmark."""
    valid = results[results["valid"]]
    mine = valid[focus_rows(valid, focus)]
    listed = set(parse_round(round_id).rules.models)

    def benchmarks(frame: pd.DataFrame) -> list[str]:
        return sorted(frame.loc[(frame["division"] != "open") | frame["benchmark"].isin(listed), "benchmark"].unique())

    return {"suite": "inference", "round": round_id, "focus": focus_name(focus),
            "results": len(valid), "submitters": int(valid["submitter"].nunique()),
            "benchmarks": benchmarks(valid),
            "focus_results": len(mine), "focus_benchmarks": benchmarks(mine),
            "focus_pairs": int(len(mine.loc[mine["benchmark"].isin(benchmarks(mine)), ["benchmark", "scenario"]]
                                   .drop_duplicates())),
            "focus_divisions": sorted(mine["division"].unique()),
            "focus_categories": sorted({c for cats in mine["category"] for c in str(cats).split(",") if c}),
            "focus_availability": sorted(mine["availability"].unique())}


def story(results: pd.DataFrame, *, data_dir: Path | str, round_id: str, focus: Focus | str | None,
          settings: Any = None) -> dict:
    """The story engine's ranked claims for ``focus`` (summary.json's ``story``), with the previous
    round's tables where ``data_dir`` holds them; ``settings``: report.yaml's ``story`` (order, skip,
    scaling efficiency), its defaults when None."""
    previous_id, previous = previous_results(data_dir, round_id)
    options = {} if settings is None else {"order": settings.order, "skip": settings.skip,
                                           "scaling_efficiency": settings.scaling_efficiency}
    return story_inputs.inference_story(results, round_id, as_focus(focus), previous_id=previous_id, previous=previous,
                                        seen=story_inputs.seen_chips(data_dir, round_id), **options)


def _category(text: str, lang: str) -> str:
    from mlperf_report.i18n.labels import label

    return ", ".join(label(f"inference.category.{c}", lang) for c in str(text).split(",") if c)


def result_places(values, scenario: str) -> int:
    """Decimals of one scenario's results in the table and on its bars: the same figures in both
    (three significant digits of the smallest, at least one decimal, three for latencies)."""
    from mlperf_report.i18n import formatting

    return formatting.places_for(values, 3 if scenario in LATENCY_SCENARIOS else 1)


def ranking_table(data: pd.DataFrame, *, lang: str) -> pd.DataFrame:
    """Ranked results of one scenario as a table with their rank (``leading``'s rows), the model as
    submitted in the open division, the category where the rows differ in it, and the derived figure
    per accelerator for throughput scenarios."""
    from mlperf_report.i18n import formatting
    from mlperf_report.i18n.labels import label

    latency = not data.empty and data["scenario"].iloc[0] in LATENCY_SCENARIOS
    places = result_places(data["result"], "SingleStream" if data.empty else data["scenario"].iloc[0])
    unit = "" if data.empty else f" ({data['unit'].iloc[0]})"
    columns = {label("inference.col.rank", lang): data["rank"].astype(str) if "rank" in data else "",
               label("inference.col.system", lang): data["system_name"].where(data["system_name"] != "", data["system_id"]),
               label("inference.col.submitter", lang): data["submitter"]}
    if (data["division"] == "open").any():
        columns[label("inference.col.submitted_model", lang)] = data["model"]
    if data["category"].nunique() > 1:  # one category for all says nothing row by row
        columns[label("inference.col.category", lang)] = data["category"].map(lambda c: _category(c, lang))
    columns.update({
        label("col.accelerators", lang): data["accelerators"].map(lambda n: "" if pd.isna(n) else str(int(n))),
        label("inference.col.result", lang) + unit: data["result"].map(lambda v: formatting.fixed(float(v), places, lang)),
    })
    if not data.empty and not latency:
        derived = [None if pd.isna(n) or not n else float(r) / int(n) for r, n in zip(data["result"], data["accelerators"])]
        each = formatting.places_for([d for d in derived if d is not None], 1)
        columns[label("inference.col.per_accelerator", lang)] = [
            "" if d is None else formatting.fixed(d, each, lang) for d in derived]
    return pd.DataFrame(columns)


def ranking_note(ranked_rows: pd.DataFrame, shown: pd.DataFrame, *, focus: Focus | str | None, lang: str) -> str:
    """The sentence under a shortened ranking: how many results there are and which are shown."""
    from mlperf_report.i18n.labels import counted, label

    if len(shown) >= len(ranked_rows):
        return ""
    results = counted("inference.count.valid_results", lang, len(ranked_rows))
    below = focus_name(focus) and (shown["rank"] > TOP).any()
    return label("inference.rank.shown_focus" if below else "inference.rank.shown", lang, top=TOP, results=results,
                 focus=focus_name(focus) or "", below=FOCUS_BELOW)


#: A scenario's power results are charted from this many on; fewer are rows of one table per benchmark.
POWER_CHART_MIN = 3


def power_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """The computed power results of the scenarios that have too few to chart, scenario by scenario."""
    parts = [rows for rows in (with_power(frame, s) for s in scenarios_of(frame)) if 0 < len(rows) < POWER_CHART_MIN]
    return pd.concat(parts, ignore_index=True) if parts else frame.iloc[0:0].assign(per_joule=pd.Series(dtype=float))


def power_table(data: pd.DataFrame, *, lang: str) -> pd.DataFrame:
    """``power_rows`` as a table: the result, the power result and the derived efficiency, each with its unit."""
    from mlperf_report.i18n import formatting
    from mlperf_report.i18n.labels import label

    def number(value: float, minimum: int) -> str:
        return formatting.fixed(value, formatting.places_for([value], minimum), lang)

    return pd.DataFrame({
        label("inference.col.scenario", lang): [label(f"inference.scenario.{s}", lang) for s in data["scenario"]],
        label("inference.col.system", lang): data["system_name"].where(data["system_name"] != "", data["system_id"]),
        label("inference.col.submitter", lang): data["submitter"],
        label("inference.col.result", lang): [f"{number(v, 3 if s in LATENCY_SCENARIOS else 1)} {u}"
                                              for v, s, u in zip(data["result"], data["scenario"], data["unit"])],
        label("inference.col.power", lang): [f"{number(v, 1)} {u}" for v, u in zip(data["power_result"], data["power_unit"])],
        label("inference.col.efficiency", lang): [
            f"{number(e, 2)} {power.efficiency_unit(s, u)}" for e, s, u in zip(data["per_joule"], data["scenario"], data["unit"])],
    })


def power_heading(*, benchmark: str, lang: str) -> str:
    from mlperf_report.i18n.labels import label

    return label("inference.power.table", lang, model=models.title(benchmark, lang))


def power_none(*, scenario: str, count: int, lang: str) -> str:
    """Why a scenario measured with power has no power figure (the files the checker needs are not in the copy)."""
    from mlperf_report.i18n.labels import label

    return f"{label(f'inference.scenario.{scenario}', lang)}: {label('inference.power.none', lang, count=count)}"
