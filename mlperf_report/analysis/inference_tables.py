"""What the Inference notebooks work on: one round's results.csv (and the previous round's where the
tables are present), the frames each chart shows, and the facts the narrative cites.

Only valid, scored results are ranked. Per-accelerator figures are derived (result ÷ accelerators,
throughput scenarios only) and always labelled so; MLCommons' primary metric is the result itself.
Like-for-like means same model, scenario, division and accelerator count.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlperf_report.suites.inference import models, power
from mlperf_report.suites.inference.metrics import LATENCY_SCENARIOS, SCENARIOS, higher_is_better
from mlperf_report.suites.inference.rounds import parse_round


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
    frame.loc[frame["metric"].str.contains("tokens_per_second") & (frame["unit"] != ""), "unit"] = "Tokens/s"
    return frame


def previous_results(data_dir: Path | str, round_id: str) -> tuple[str, pd.DataFrame | None]:
    """The previous round's id and its results, or None when its tables are not in ``data_dir``."""
    previous = parse_round(round_id).previous().id
    path = Path(data_dir) / previous / "results.csv"
    return previous, (load_results(data_dir, previous) if path.is_file() else None)


def scored(results: pd.DataFrame, *, model: str, division: str) -> pd.DataFrame:
    """Valid, scored results of one model in one division."""
    keep = (results["model"] == model) & (results["division"] == division) & results["valid"] & results["result"].notna()
    return results[keep].reset_index(drop=True)


def scenarios_of(frame: pd.DataFrame) -> list[str]:
    return [s for s in SCENARIOS if (frame["scenario"] == s).any()]


def ranked(frame: pd.DataFrame, scenario: str) -> pd.DataFrame:
    """One scenario's results, best first (higher throughput, or lower latency, is better)."""
    rows = frame[frame["scenario"] == scenario]
    return rows.sort_values(["result", "submitter", "system_id"], ascending=[not higher_is_better(scenario), True, True],
                            kind="mergesort").reset_index(drop=True)


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
                  model: str, division: str) -> pd.DataFrame:
    """Best valid result per scenario and submitter in this and the previous round (same model, division)."""
    frames = [(round_id, current)] + ([(previous_id, previous)] if previous is not None else [])
    rows = []
    for rid, results in frames:
        table = scored(results, model=model, division=division)
        for scenario in scenarios_of(table):
            top = ranked(table, scenario).drop_duplicates("submitter")
            rows += [{"round": rid, "scenario": scenario, "submitter": r.submitter, "result": r.result, "unit": r.unit}
                     for r in top.itertuples()]
    frame = pd.DataFrame(rows, columns=["round", "scenario", "submitter", "result", "unit"])
    units = frame.groupby("scenario")["unit"].nunique()
    return frame[frame["scenario"].map(units) == 1].reset_index(drop=True)  # same unit in both rounds only


def _is(frame: pd.DataFrame, focus: str | None) -> pd.Series:
    return frame["submitter"].str.lower() == (focus or "").lower()


def scenario_facts(frame: pd.DataFrame, scenario: str, focus: str | None) -> dict:
    """The facts of one model and scenario the narrative may cite (best result; the focus's best, its
    rank, and its rank among systems with the same accelerator count)."""
    table = ranked(frame, scenario)
    best = table.iloc[0]
    facts = {"scenario": scenario, "unit": best.unit, "higher_is_better": higher_is_better(scenario),
             "results": len(table), "best": _entry(best)}
    mine = table[_is(table, focus)]
    if focus and not mine.empty:
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
            "availability": row.availability}


def model_facts(results: pd.DataFrame, *, model: str, division: str, focus: str | None, round_id: str) -> dict:
    """Everything the narrative needs about one model (figures/<model>.json)."""
    table = scored(results, model=model, division=division)
    return {"suite": "inference", "round": round_id, "model": model, "division": division, "focus": focus,
            "title": {lang: models.title(model, lang) for lang in ("en", "zh-Hant")},
            "scenarios": [scenario_facts(table, s, focus) for s in scenarios_of(table)],
            "official_units": sorted(set(table.loc[table["unit"] != table["official_unit"], "official_unit"])),
            "invalid": int(((results["model"] == model) & ~results["valid"]).sum()),
            "with_power": int(((results["model"] == model) & (results["power_unit"] != "")).sum())}


def round_facts(results: pd.DataFrame, *, focus: str | None, round_id: str) -> dict:
    """The round at a glance (figures/summary.json)."""
    valid = results[results["valid"]]
    mine = valid[_is(valid, focus)]
    return {"suite": "inference", "round": round_id, "focus": focus,
            "results": len(valid), "submitters": int(valid["submitter"].nunique()),
            "models": sorted(valid["model"].unique()),
            "focus_results": len(mine), "focus_models": sorted(mine["model"].unique()),
            "focus_divisions": sorted(mine["division"].unique()),
            "focus_categories": sorted({c for cats in mine["category"] for c in str(cats).split(",") if c}),
            "focus_availability": sorted(mine["availability"].unique())}


def submissions(results: pd.DataFrame) -> pd.DataFrame:
    """Valid results per model and scenario (closed and open), for the summary table."""
    valid = results[results["valid"]]
    table = valid.pivot_table(index="model", columns="scenario", values="result", aggfunc="count", fill_value=0)
    return table.reindex(columns=[s for s in SCENARIOS if s in table.columns]).reset_index()


def result_places(values, scenario: str) -> int:
    """Decimals of one scenario's results in the table and on its bars: the same figures in both
    (three significant digits of the smallest, at least one decimal, three for latencies)."""
    from mlperf_report.i18n import formatting

    return formatting.places_for(values, 3 if scenario in LATENCY_SCENARIOS else 1)


def ranking_table(data: pd.DataFrame, *, lang: str) -> pd.DataFrame:
    """The ranked results of one scenario as a table (every one, not only the charted best)."""
    from mlperf_report.i18n import formatting
    from mlperf_report.i18n.labels import label

    places = result_places(data["result"], "SingleStream" if data.empty else data["scenario"].iloc[0])
    unit = "" if data.empty else f" ({data['unit'].iloc[0]})"

    def category(text: str) -> str:
        return ", ".join(label(f"inference.category.{c}", lang) for c in str(text).split(",") if c)

    return pd.DataFrame({
        label("inference.col.system", lang): data["system_name"].where(data["system_name"] != "", data["system_id"]),
        label("inference.col.submitter", lang): data["submitter"],
        label("inference.col.category", lang): data["category"].map(category),
        label("col.accelerators", lang): data["accelerators"].map(lambda n: "" if pd.isna(n) else str(int(n))),
        label("inference.col.result", lang) + unit: data["result"].map(lambda v: formatting.fixed(float(v), places, lang)),
    })


def submissions_table(results: pd.DataFrame, *, lang: str) -> pd.DataFrame:
    """Valid results per model and scenario, models by their catalogue names."""
    from mlperf_report.i18n.labels import label

    table = submissions(results)
    table["model"] = table["model"].map(lambda m: models.title(m, lang))
    return table.rename(columns={"model": label("inference.col.model", lang),
                                 **{s: label(f"inference.scenario.{s}", lang) for s in SCENARIOS}})
