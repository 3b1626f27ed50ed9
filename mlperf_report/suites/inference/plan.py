"""The notebook plan of an Inference round: one ``notebooks/inference/model.ipynb`` per benchmark (every
folder spelling of it, as MLCommons' table files them) with a valid result in the division,
``notebooks/inference/summary.ipynb`` and, when the open division has variants, the focus-free
``exhibits.ipynb``. A focus report has a section for each benchmark the focus entered; the others are
one table in the summary. The same runner, cache and
assembler as Training use it."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from mlperf_report.analysis.figures import record_path
from mlperf_report.analysis.jobs import NotebookJob, Plan
from mlperf_report.analysis.planning import PlanRequest, check_focus, check_writable
from mlperf_report.core import paths
from mlperf_report.core.config import Focus
from mlperf_report.core.errors import InputError, UserError
from mlperf_report.core.rounds import rounds_up_to
from mlperf_report.suites.inference import models as catalogue
from mlperf_report.suites.inference.checker_rules import mlperf_model
from mlperf_report.suites.inference.rounds import parse_round

MODEL_NOTEBOOK = paths.NOTEBOOKS / "inference" / "model.ipynb"
SUMMARY_NOTEBOOK = paths.NOTEBOOKS / "inference" / "summary.ipynb"
EXHIBITS_NOTEBOOK = paths.NOTEBOOKS / "inference" / "exhibits.ipynb"


@dataclass
class Scored:
    """What the plan needs from results.csv: the benchmarks with a valid result in the division, those
    the focus entered, each folder spelling's benchmark, and whether open models differ from their benchmark."""

    benchmarks: set[str] = field(default_factory=set)
    entered: set[str] = field(default_factory=set)
    spellings: dict[str, str] = field(default_factory=dict)
    open_variants: bool = False
    focus_in_round: bool = False       # the focus has a valid result in some division
    entrants: list[dict] = field(default_factory=list)  # submitter and accelerator of each valid result


def scored_benchmarks(results_csv: Path, division: str, focus: Focus | None = None, round_id: str = "") -> Scored:
    """Read results.csv (csv module: no pandas here); tables from before the ``benchmark`` column get it
    from the checker's mapping of the round."""
    found = Scored()
    with results_csv.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = {"model", "valid", "result", "division"} - set(reader.fieldnames or ())
        if missing:
            raise InputError(f"{results_csv}: column(s) {', '.join(sorted(missing))} missing; "
                             "re-run `python build.py ingest`")
        rules = parse_round(round_id).rules if round_id else None
        for row in reader:
            if row["valid"] != "True" or not row["result"]:
                continue
            benchmark = row.get("benchmark") or (mlperf_model(row["model"], rules) if rules else row["model"])
            mine = focus is not None and focus.matches(row["submitter"], row.get("accelerator_model"))
            found.entrants.append({"submitter": row["submitter"], "accelerator_model": row.get("accelerator_model", ""),
                                   "benchmark": benchmark})
            found.focus_in_round |= mine
            listed = rules is None or benchmark in rules.models
            if row["division"] == "open":
                spelled = catalogue.canonical(row["model"]) != catalogue.canonical(benchmark)
                found.open_variants |= spelled or not listed
                if not listed:  # an open model the checker files under no benchmark: in the exhibits only
                    continue
            if row["division"] != division:
                continue
            found.benchmarks.add(benchmark)
            found.spellings.setdefault(row["model"], benchmark)
            if mine:
                found.entered.add(benchmark)
    return found


def _chosen(asked: list[str] | None, scored: Scored, focus: Focus, config) -> list[str]:
    """``--benchmarks`` (a benchmark or any folder spelling of one), else what the focus entered, else all
    (also for a focus absent from the round, whose narrative says so over the round's overview)."""
    available = sorted(scored.benchmarks)
    if asked:
        unknown = [m for m in asked if m not in scored.benchmarks and m not in scored.spellings]
        if unknown:
            raise UserError(f"--benchmarks: {', '.join(unknown)} has no valid result in {config.round}; "
                            f"must be among {', '.join(available) or '(none)'}")
        return list(dict.fromkeys(m if m in scored.benchmarks else scored.spellings[m] for m in asked))
    return sorted(scored.entered) if focus.kind != "none" and scored.focus_in_round else available


def make_plan(config, request: PlanRequest) -> Plan:
    """Every check that can fail happens here, before any kernel starts; a focus with no valid result
    in the round is refused with the round's submitters listed."""
    data_dir, output_dir, division = request.data_dir, request.output_dir, request.division
    tables = data_dir / config.round
    if not (tables / "results.csv").is_file():
        raise InputError(f"{tables / 'results.csv'}: not found; run `python build.py ingest "
                         f"<inference_results_{parse_round(config.round).version} source>` first")
    focus = config.focus
    scored = scored_benchmarks(tables / "results.csv", division, focus, config.round)
    if not scored.benchmarks:
        raise InputError(f"{tables / 'results.csv'}: no valid result in the {division} division; nothing to analyse")
    check_focus(config.focus, scored.entrants, config.round, what="valid result")
    chosen = _chosen(list(request.items) or None, scored, focus, config)
    round_out = output_dir / config.round
    check_writable(round_out)
    common = {"round_id": config.round, "focus_submitter": focus.submitter or "",
              "focus_accelerator": focus.name if focus.kind == "accelerator" else "", "data_dir": str(data_dir),
              "output_dir": str(output_dir), "languages": list(config.languages), "division": division}
    inputs = (Path(request.config_file).resolve(), paths.ROOT / "requirements.txt", tables / "results.csv",
              *(data_dir / r / "results.csv" for r in rounds_up_to(config.round, data_dir) if r != config.round))
    jobs = [NotebookJob(name=name, notebook=MODEL_NOTEBOOK, output=round_out / "notebooks" / f"{name}.ipynb",
                        figures=round_out / "figures" / f"{name}.json", parameters={**common, "benchmark": name},
                        inputs=inputs) for name in chosen]
    jobs.append(NotebookJob(name="summary", notebook=SUMMARY_NOTEBOOK, output=round_out / "notebooks" / "summary.ipynb",
                            figures=round_out / "figures" / "summary.json",
                            parameters={**common, "config_file": str(Path(request.config_file).resolve())}, inputs=inputs))
    if scored.open_variants:  # focus-free: a batch of focuses runs it once
        parameters = {key: common[key] for key in ("round_id", "data_dir", "output_dir", "languages")}
        jobs.append(NotebookJob(name="exhibits", notebook=EXHIBITS_NOTEBOOK,
                                output=round_out / "notebooks" / "exhibits.ipynb",
                                figures=record_path(output_dir, config.round, "exhibits"), parameters=parameters,
                                inputs=(paths.ROOT / "requirements.txt", tables / "results.csv"), shared=True))
    return Plan(round_id=config.round, jobs=tuple(jobs), workers=request.workers, force=request.force,
                output_dir=output_dir, fresh_kernels=request.fresh_kernels, data_dir=request.data_dir)
