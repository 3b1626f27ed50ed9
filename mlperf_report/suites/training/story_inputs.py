"""What Training hands the story engine: one row per scored system × benchmark, time to train in
minutes (lower is better), energy to train where the round has MLPerf Training Power results, in
``story.COLUMNS``, and the chips of every other round present (for debuts); the engine never looks
at anything else. Training results carry no model name: the engine compares an open result only
with the same submitter's.
"""

from __future__ import annotations

import pandas as pd

from mlperf_report.analysis import story
from mlperf_report.analysis.story import story_focus
from mlperf_report.core.accelerators import load as load_generations
from mlperf_report.core.config import Focus
from mlperf_report.suites.training.rounds import previous_round_id


def _column(frame: pd.DataFrame, name: str) -> pd.Series:
    return frame[name] if name in frame else pd.Series(None, index=frame.index, dtype=object)


def seen_chips(rounds: dict[str, pd.DataFrame]) -> dict[str, set[str]]:
    """Every accelerator and host processor model name of each round's results, by round id."""
    return {r: {str(m) for c in ("accelerator_model", "host_processor_model") if c in t
                for m in t[c].dropna().unique()} for r, t in rounds.items()}


def training(results: pd.DataFrame, round_id: str) -> pd.DataFrame:
    """Scored Training results (``metrics.prepare_results`` output) as a comparable frame."""
    ok = results[(results["status"] == "ok") & results["score_min"].notna()]
    name = ok["display_name"] if "display_name" in ok else ok["system_name"]
    energy = pd.to_numeric(ok["energy_j"], errors="coerce") if "energy_j" in ok else pd.Series(float("nan"), index=ok.index)
    frame = pd.DataFrame({
        "round": round_id, "benchmark": ok["benchmark"].astype(str), "scenario": "",
        "division": ok["division"].astype(str), "availability": ok["availability"].fillna("").astype(str),
        "submitter": ok["submitter"].astype(str), "system_id": ok["system_id"].astype(str),
        "system": name.fillna(ok["system_id"]).astype(str), "accelerator_model": ok["accelerator_model"].fillna("").astype(str),
        "accelerators": pd.to_numeric(ok["accelerators"], errors="coerce"), "value": ok["score_min"].astype(float),
        "unit": "minutes", "higher_is_better": False, "measure": "time", "energy": energy,
        "energy_unit": "J", "model": "",
        "host_processor_model": _column(ok, "host_processor_model").fillna("").astype(str),
        "host_processors": pd.to_numeric(_column(ok, "host_processors"), errors="coerce"),
    }, index=ok.index)
    frame["result_id"] = [f"{round_id}/{d}/{s}/{i}/{b}" for d, s, i, b in
                          zip(frame["division"], frame["submitter"], frame["system_id"], frame["benchmark"])]
    return frame.reset_index(drop=True).loc[:, list(story.COLUMNS)]


def mlcommons_ids(results: pd.DataFrame, round_id: str) -> dict[str, str]:
    """Story result id -> MLCommons result ID of each result whose table row carries one (the
    ``mlcommons_id`` column; none in tables ingested without MLCommons' results table)."""
    if "mlcommons_id" not in results:
        return {}
    keys = [f"{round_id}/{d}/{s}/{i}/{b}" for d, s, i, b in
            zip(results["division"], results["submitter"], results["system_id"], results["benchmark"])]
    return story.mlcommons_ids(pd.DataFrame({"result_id": keys}), results["mlcommons_id"].tolist())


def _system_row(result: dict, benchmark: str, round_id: str) -> dict:
    """A figures.json SYSTEM_RESULT as a comparable row (what the story's price claims cite)."""
    return {"round": round_id, "benchmark": benchmark, "scenario": "", "division": result.get("division") or "",
            "availability": result.get("availability") or "", "submitter": result.get("submitter") or "",
            "system_id": result.get("system_id") or "", "system": result.get("display_name") or result.get("system_name") or "",
            "accelerator_model": result.get("accelerator_model") or "", "accelerators": result.get("accelerators"),
            "value": float(result["minutes"]), "unit": "minutes", "higher_is_better": False, "measure": "time",
            "energy": None, "energy_unit": "J", "result_id": result.get("result_id") or "", "model": "",
            "host_processor_model": result.get("host_processor_model") or "", "host_processors": result.get("host_processors")}


def price_entries(perf_per_dollar: list[dict], round_id: str) -> list[dict]:
    """summary.json's perf/$ entries in the form ``story.price`` takes."""
    return [{"benchmark": e["benchmark"], "division": e["division"], "ratio": e["ratio"],
             "system": _system_row(e["system"], e["benchmark"], round_id),
             "baseline": _system_row(e["baseline"], e["benchmark"], round_id),
             "price": e["price"], "baseline_price": e["baseline_price"]}
            for e in perf_per_dollar if e.get("baseline")]


def training_story(rounds: dict[str, pd.DataFrame], round_id: str, focus: Focus, *, perf_per_dollar: list[dict] = (),
                   order=None, skip=(), scaling_efficiency: float = story.SCALING_EFFICIENCY) -> dict:
    """The ranked claims of a Training round for ``focus``, as summary.json's ``story``; ``rounds``
    holds the round and every earlier one present."""
    before_id = previous_round_id(round_id)  # the round just before, or no progress claim at all
    previous = training(rounds[before_id], before_id) if before_id in rounds else None
    claims = story.find_claims(training(rounds[round_id], round_id), story_focus(focus), load_generations(), previous,
                               price_entries(list(perf_per_dollar), round_id),
                               seen=seen_chips({r: t for r, t in rounds.items() if r != round_id}))
    told = story.tell(claims, story_focus(focus), order=order, skip=skip, scaling_efficiency=scaling_efficiency)
    ids = {k: v for r in (before_id, round_id) if r in rounds for k, v in mlcommons_ids(rounds[r], r).items()}
    return story.with_cite_ids(told.as_dict(), ids)


