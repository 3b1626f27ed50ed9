"""The notebook plan of a Training round: one ``notebooks/training/benchmark.ipynb`` per scored
benchmark (or those asked for), then ``notebooks/training/summary.ipynb``, then the focus-free
``notebooks/training/exhibits.ipynb`` (every benchmark's results table; shared by a batch's focuses). Read with the csv module:
no pandas on the planning path."""

from __future__ import annotations

import csv
from pathlib import Path

from mlperf_report.analysis.figures import record_path
from mlperf_report.analysis.jobs import NotebookJob, Plan
from mlperf_report.analysis.planning import PlanRequest, check_focus, check_writable
from mlperf_report.core import paths
from mlperf_report.core.errors import InputError, UserError
from mlperf_report.core.rounds import rounds_up_to
from mlperf_report.suites.training.rounds import parse_round

BENCHMARK_NOTEBOOK = paths.NOTEBOOKS / "training" / "benchmark.ipynb"
SUMMARY_NOTEBOOK = paths.NOTEBOOKS / "training" / "summary.ipynb"
EXHIBITS_NOTEBOOK = paths.NOTEBOOKS / "training" / "exhibits.ipynb"
#: The tables each notebook reads (its cache key covers exactly these).
BENCHMARK_TABLES = ("results.csv", "runs.csv")
SUMMARY_TABLES = ("results.csv",)


def scored_rows(results_csv: Path) -> list[dict]:
    """The scored rows of results.csv."""
    with results_csv.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = {"benchmark", "status"} - set(reader.fieldnames or ())
        if missing:
            raise InputError(f"{results_csv}: column(s) {', '.join(sorted(missing))} missing; re-run `python build.py ingest`")
        return [row for row in reader if row["status"] == "ok" and row.get("score_min")]


def _chosen(asked: tuple[str, ...], available: list[str], round_id: str) -> list[str]:
    if not asked:
        return available
    unknown = [b for b in asked if b not in available]
    if unknown:
        raise UserError(f"--benchmarks: {', '.join(unknown)} has no scored result in {round_id}; "
                        f"must be among {', '.join(available) or '(none)'}")
    return list(dict.fromkeys(asked))


def make_plan(config, request: PlanRequest) -> Plan:
    """Every check that can fail happens here, before any kernel starts."""
    tables = request.data_dir / config.round
    for name in ("results.csv", "runs.csv"):
        if not (tables / name).is_file():
            version = parse_round(config.round).version
            raise InputError(f"{tables / name}: not found; run `python build.py ingest <training_results_{version} source>` first")
    rows = scored_rows(tables / "results.csv")
    chosen = _chosen(request.items, sorted({row["benchmark"] for row in rows}), config.round)
    if not chosen:
        raise InputError(f"{tables / 'results.csv'}: no scored result in any benchmark; nothing to analyse")
    check_focus(config.focus, [r for r in rows if r["benchmark"] in chosen], config.round)
    round_out = request.output_dir / config.round
    check_writable(round_out)
    prices, config_file = Path(request.prices_file).resolve(), Path(request.config_file).resolve()
    common = {"round_id": config.round, "focus_submitter": config.focus_submitter,
              "focus_accelerator": config.focus_accelerator, "data_dir": str(request.data_dir),
              "prices_file": str(prices), "config_file": str(config_file),
              "output_dir": str(request.output_dir), "languages": list(config.languages), "division": request.division}
    shared_inputs = (prices, config_file, paths.ROOT / "requirements.txt")
    earlier = _earlier_results(request.data_dir, config.round)
    jobs = [NotebookJob(name=benchmark, notebook=BENCHMARK_NOTEBOOK, output=round_out / "notebooks" / f"{benchmark}.ipynb",
                        figures=round_out / "figures" / f"{benchmark}.json",
                        parameters={**common, "benchmark": benchmark,
                                    "baseline_system": config.baseline.system_for(benchmark, config.round) or ""},
                        inputs=shared_inputs + tuple(tables / n for n in BENCHMARK_TABLES) + earlier)
            for benchmark in chosen]
    jobs.append(NotebookJob(name="summary", notebook=SUMMARY_NOTEBOOK, output=round_out / "notebooks" / "summary.ipynb",
                            figures=round_out / "figures" / "summary.json", parameters=common,
                            inputs=shared_inputs + tuple(tables / n for n in SUMMARY_TABLES) + earlier))
    jobs.append(_exhibits_job(common, chosen, round_out, tables, prices))
    return Plan(round_id=config.round, jobs=tuple(jobs), workers=request.workers, force=request.force,
                output_dir=request.output_dir, fresh_kernels=request.fresh_kernels, data_dir=request.data_dir)


def _exhibits_job(common: dict, chosen: list[str], round_out: Path, tables: Path, prices: Path) -> NotebookJob:
    """The focus-free exhibits: parameters with no focus (nor configuration), so one execution serves
    every focus of a batch."""
    parameters = {key: common[key] for key in ("round_id", "data_dir", "prices_file", "output_dir", "languages")}
    return NotebookJob(name="exhibits", notebook=EXHIBITS_NOTEBOOK, output=round_out / "notebooks" / "exhibits.ipynb",
                       figures=record_path(common["output_dir"], common["round_id"], "exhibits"), parameters={**parameters, "benchmarks": chosen},
                       inputs=(prices, paths.ROOT / "requirements.txt", tables / "results.csv"), shared=True)


def _earlier_results(data_dir: Path, round_id: str) -> tuple[Path, ...]:
    """results.csv of every earlier Training round present (round-over-round chart and speed-up)."""
    return tuple(data_dir / r / "results.csv" for r in rounds_up_to(round_id, data_dir) if r != round_id)
