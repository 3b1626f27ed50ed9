"""What each suite hands the story engine: its scored results as one comparable frame.

Training: one row per scored system × benchmark, time to train in minutes (lower is better), energy to
train where the round has MLPerf Training Power results. Inference: one row per valid result folder,
the primary metric in its unit (throughput higher, latency lower is better), the power result where it
was measured. Both in ``story.COLUMNS``; the engine never looks at anything else.
"""

from __future__ import annotations

import pandas as pd

from mlperf_report.analysis import story
from mlperf_report.core.accelerators import load as load_generations
from mlperf_report.core.config import Focus
from mlperf_report.suites.inference.models import split_variant
from mlperf_report.suites.training.rounds import previous_round_id

#: Inference scenarios whose primary metric is a latency (lower is better).
_LATENCY = ("SingleStream", "MultiStream")


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
        "energy_unit": "J",
    }, index=ok.index)
    frame["result_id"] = [f"{round_id}/{d}/{s}/{i}/{b}" for d, s, i, b in
                          zip(frame["division"], frame["submitter"], frame["system_id"], frame["benchmark"])]
    return frame.reset_index(drop=True).loc[:, list(story.COLUMNS)]


def _one_run_per_target(results: pd.DataFrame) -> pd.DataFrame:
    """One row where a submitter filed the same run under both accuracy targets of a model
    (``llama2-70b-99`` and ``-99.9`` with the same value): the stricter target's, so the story does
    not tell one result twice. Different values under the two targets stay two results."""
    base = results["model"].map(lambda m: split_variant(m)[0])
    variant = results["model"].map(lambda m: split_variant(m)[1])
    key = pd.DataFrame({"d": results["division"], "s": results["submitter"], "i": results["system_id"], "b": base,
                        "c": results["scenario"], "v": results["result"]}, index=results.index)
    strict = variant.map(lambda v: float(v) if v.replace(".", "", 1).isdigit() else 0.0)
    order = key.assign(strict=strict).sort_values(["d", "s", "i", "b", "c", "v", "strict"], ascending=[True] * 6 + [False])
    keep = ~order.duplicated(["d", "s", "i", "b", "c", "v"])
    return results.loc[order.index[keep]].sort_index()


def inference(results: pd.DataFrame, round_id: str) -> pd.DataFrame:
    """Valid Inference results (``inference_tables.load_results`` output) as a comparable frame."""
    ok = _one_run_per_target(results[results["valid"] & results["result"].notna()])
    benchmark = ok["benchmark"] if "benchmark" in ok else ok["model"]
    latency = ok["scenario"].isin(_LATENCY)
    power = pd.to_numeric(ok["power_result"], errors="coerce") if "power_result" in ok else pd.Series(float("nan"), index=ok.index)
    frame = pd.DataFrame({
        "round": round_id, "benchmark": benchmark.astype(str), "scenario": ok["scenario"].astype(str),
        "division": ok["division"].astype(str), "availability": ok["availability"].astype(str),
        "submitter": ok["submitter"].astype(str), "system_id": ok["system_id"].astype(str),
        "system": ok["system_name"].where(ok["system_name"] != "", ok["system_id"]).astype(str),
        "accelerator_model": ok["accelerator_model"].astype(str),
        "accelerators": pd.to_numeric(ok["accelerators"], errors="coerce").astype(float),
        "value": ok["result"].astype(float), "unit": ok["unit"].astype(str), "higher_is_better": ~latency,
        "measure": latency.map({True: "latency", False: "throughput"}), "energy": power,
        "energy_unit": ok["power_unit"].astype(str) if "power_unit" in ok else "",
    }, index=ok.index)
    frame["result_id"] = [f"{round_id}/{d}/{s}/{i}/{m}/{c}" for d, s, i, m, c in
                          zip(frame["division"], frame["submitter"], frame["system_id"], ok["model"], frame["scenario"])]
    return frame.reset_index(drop=True).loc[:, list(story.COLUMNS)]


def story_focus(focus: Focus) -> story.Focus:
    """The configuration's focus as the engine's (a predicate over submitter and accelerator model)."""
    return story.Focus(focus.kind, focus.name, focus.matches)


def _system_row(result: dict, benchmark: str, round_id: str) -> dict:
    """A figures.json SYSTEM_RESULT as a comparable row (what the story's price claims cite)."""
    return {"round": round_id, "benchmark": benchmark, "scenario": "", "division": result.get("division") or "",
            "availability": result.get("availability") or "", "submitter": result.get("submitter") or "",
            "system_id": result.get("system_id") or "", "system": result.get("display_name") or result.get("system_name") or "",
            "accelerator_model": result.get("accelerator_model") or "", "accelerators": result.get("accelerators"),
            "value": float(result["minutes"]), "unit": "minutes", "higher_is_better": False, "measure": "time",
            "energy": None, "energy_unit": "J", "result_id": result.get("result_id") or ""}


def price_entries(perf_per_dollar: list[dict], round_id: str) -> list[dict]:
    """summary.json's perf/$ entries in the form ``story.price`` takes."""
    return [{"benchmark": e["benchmark"], "division": e["division"], "ratio": e["ratio"],
             "system": _system_row(e["system"], e["benchmark"], round_id),
             "baseline": _system_row(e["baseline"], e["benchmark"], round_id),
             "price": e["price"], "baseline_price": e["baseline_price"]}
            for e in perf_per_dollar if e.get("baseline")]


def training_story(rounds: dict[str, pd.DataFrame], round_id: str, focus: Focus, *, perf_per_dollar: list[dict] = (),
                   order=None, skip=()) -> dict:
    """The ranked claims of a Training round for ``focus``, as summary.json's ``story``."""
    before_id = previous_round_id(round_id)  # the round just before, or no progress claim at all
    previous = training(rounds[before_id], before_id) if before_id in rounds else None
    claims = story.find_claims(training(rounds[round_id], round_id), story_focus(focus), load_generations(), previous,
                               price_entries(list(perf_per_dollar), round_id))
    return story.tell(claims, story_focus(focus), order=order, skip=skip).as_dict()


def inference_story(results: pd.DataFrame, round_id: str, focus: Focus, *, previous_id: str | None = None,
                    previous: pd.DataFrame | None = None, order=None, skip=()) -> dict:
    """The ranked claims of an Inference round for ``focus``, as summary.json's ``story``."""
    before = inference(previous, previous_id) if previous is not None and previous_id else None
    claims = story.find_claims(inference(results, round_id), story_focus(focus), load_generations(), before)
    return story.tell(claims, story_focus(focus), order=order, skip=skip).as_dict()
