"""What Inference hands the story engine: one row per valid result folder, the primary metric in its
unit (throughput higher, latency lower is better), the power result where it was measured, the
model folder as submitted (the engine compares open results only within one submitter's model) and
the host processors, in ``story.COLUMNS``; and the chips of every other round present (for debuts)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlperf_report.analysis import story
from mlperf_report.analysis.story import story_focus
from mlperf_report.core.accelerators import load as load_generations
from mlperf_report.core.config import Focus
from mlperf_report.core.rounds import rounds_up_to
from mlperf_report.suites.inference.models import split_variant

#: Inference scenarios whose primary metric is a latency (lower is better).
_LATENCY = ("SingleStream", "MultiStream")


def _one_run_per_target(results: pd.DataFrame, only: pd.Series | None = None) -> pd.DataFrame:
    """One row where a submitter filed the same run under both accuracy targets of a model
    (``llama2-70b-99`` and ``-99.9`` with the same value): the stricter target's, so the story does
    not tell one result twice. Different values under the two targets stay two results. ``only``:
    the rows that may be dropped (the focus's); every other submitter keeps both, so a rival's run
    filed under the looser target still competes there (without it, HPE's Llama 2 70B (99 %) result
    read as the fastest of Inference v4.1: NVIDIA's faster run had been dropped as a duplicate)."""
    base = results["model"].map(lambda m: split_variant(m)[0])
    variant = results["model"].map(lambda m: split_variant(m)[1])
    key = pd.DataFrame({"d": results["division"], "s": results["submitter"], "i": results["system_id"], "b": base,
                        "c": results["scenario"], "v": results["result"]}, index=results.index)
    strict = variant.map(lambda v: float(v) if v.replace(".", "", 1).isdigit() else 0.0)
    order = key.assign(strict=strict).sort_values(["d", "s", "i", "b", "c", "v", "strict"], ascending=[True] * 6 + [False])
    keep = ~order.duplicated(["d", "s", "i", "b", "c", "v"])
    if only is not None:
        keep |= ~only.reindex(order.index).fillna(False).astype(bool).to_numpy()
    return results.loc[order.index[keep]].sort_index()


def inference(results: pd.DataFrame, round_id: str, focus: Focus | None = None) -> pd.DataFrame:
    """Valid Inference results (``inference_tables.load_results`` output) as a comparable frame; with
    ``focus``, only the focus's runs filed under two accuracy targets are told once."""
    valid = results[results["valid"] & results["result"].notna()]
    only = None if focus is None else pd.Series([focus.matches(s, m) for s, m in zip(valid["submitter"],
                                                 valid["accelerator_model"])], index=valid.index)
    ok = _one_run_per_target(valid, only)
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
        "energy_unit": ok["power_unit"].astype(str) if "power_unit" in ok else "", "model": ok["model"].astype(str),
        "host_processor_model": ok["host_processor_model"].fillna("").astype(str) if "host_processor_model" in ok else "",
        "host_processors": pd.to_numeric(ok["host_processors"], errors="coerce") if "host_processors" in ok else None,
    }, index=ok.index)
    frame["result_id"] = [f"{round_id}/{d}/{s}/{i}/{m}/{c}" for d, s, i, m, c in
                          zip(frame["division"], frame["submitter"], frame["system_id"], ok["model"], frame["scenario"])]
    return frame.reset_index(drop=True).loc[:, list(story.COLUMNS)]


def mlcommons_ids(results: pd.DataFrame | None, round_id: str | None) -> dict[str, str]:
    """Story result id -> MLCommons result ID of each result folder whose table row carries one (the
    ``mlcommons_id`` column, from the tree's ``summary_results.json``)."""
    if results is None or not round_id or "mlcommons_id" not in results:
        return {}
    keys = [f"{round_id}/{d}/{s}/{i}/{m}/{c}" for d, s, i, m, c in
            zip(results["division"], results["submitter"], results["system_id"], results["model"], results["scenario"])]
    return story.mlcommons_ids(pd.DataFrame({"result_id": keys}), results["mlcommons_id"].tolist())


def seen_chips(data_dir: Path | str, round_id: str) -> dict[str, set[str]]:
    """Every accelerator and host processor model name of each earlier round of the suite present in
    ``data_dir``, by round id (only the two columns are read)."""
    seen = {}
    for other in rounds_up_to(round_id, data_dir):
        if other != round_id:
            table = pd.read_csv(Path(data_dir) / other / "results.csv", dtype=str, keep_default_na=False,
                                usecols=lambda c: c in ("accelerator_model", "host_processor_model"))
            seen[other] = {m for c in table.columns for m in table[c].unique() if m}
    return seen


def inference_story(results: pd.DataFrame, round_id: str, focus: Focus, *, previous_id: str | None = None,
                    previous: pd.DataFrame | None = None, seen: dict[str, set[str]] | None = None, order=None, skip=(),
                    scaling_efficiency: float = story.SCALING_EFFICIENCY) -> dict:
    """The ranked claims of an Inference round for ``focus``, as summary.json's ``story``."""
    before = inference(previous, previous_id) if previous is not None and previous_id else None
    claims = story.find_claims(inference(results, round_id, focus), story_focus(focus), load_generations(), before,
                               seen=seen)
    told = story.tell(claims, story_focus(focus), order=order, skip=skip, scaling_efficiency=scaling_efficiency)
    ids = {**mlcommons_ids(previous, previous_id), **mlcommons_ids(results, round_id)}
    return story.with_cite_ids(told.as_dict(), ids)
