"""The notebook plan of an Inference round: one ``inference_model.ipynb`` per model with a valid
result in the division, and ``inference_summary.ipynb``; the same runner, cache and assembler as
Training use it."""

from __future__ import annotations

import csv
from pathlib import Path

from mlperf_report.analysis.jobs import NotebookJob, Plan
from mlperf_report.core import paths
from mlperf_report.core.errors import InputError, UserError

MODEL_NOTEBOOK = paths.NOTEBOOKS / "inference_model.ipynb"
SUMMARY_NOTEBOOK = paths.NOTEBOOKS / "inference_summary.ipynb"


def scored_models(results_csv: Path, division: str) -> list[str]:
    """Models with at least one valid, scored result in ``division`` (csv module: no pandas here)."""
    with results_csv.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = {"model", "valid", "result", "division"} - set(reader.fieldnames or ())
        if missing:
            raise InputError(f"{results_csv}: column(s) {', '.join(sorted(missing))} missing; "
                             "re-run `python build.py ingest`")
        return sorted({r["model"] for r in reader
                       if r["valid"] == "True" and r["result"] and r["division"] == division})


def make_inference_plan(config, *, models: list[str] | None, data_dir: Path, output_dir: Path, config_file: Path,
                        division: str, workers: int, force: bool, fresh_kernels: bool, check_writable) -> Plan:
    tables = data_dir / config.round
    if not (tables / "results.csv").is_file():
        version = config.round.split("-v")[-1]
        raise InputError(f"{tables / 'results.csv'}: not found; run `python build.py ingest "
                         f"<inference_results_{version} source>` first")
    available = scored_models(tables / "results.csv", division)
    unknown = [m for m in models or () if m not in available]
    if unknown:
        raise UserError(f"--benchmarks: {', '.join(unknown)} has no valid result in {config.round} ({division}); "
                        f"must be among {', '.join(available) or '(none)'}")
    chosen = list(dict.fromkeys(models)) if models else available
    if not chosen:
        raise InputError(f"{tables / 'results.csv'}: no valid result in the {division} division; nothing to analyse")
    round_out = output_dir / config.round
    check_writable(round_out)
    common = {"round_id": config.round, "focus_submitter": config.focus_submitter or "", "data_dir": str(data_dir),
              "output_dir": str(output_dir), "languages": list(config.languages), "division": division}
    inputs = (Path(config_file).resolve(), paths.ROOT / "requirements.txt", tables / "results.csv",
              *sorted(p for p in data_dir.glob("inference-v*/results.csv") if p.parent.name != config.round))
    jobs = [NotebookJob(name=model, notebook=MODEL_NOTEBOOK, output=round_out / "notebooks" / f"{model}.ipynb",
                        figures=round_out / "figures" / f"{model}.json", parameters={**common, "model": model},
                        inputs=inputs) for model in chosen]
    jobs.append(NotebookJob(name="summary", notebook=SUMMARY_NOTEBOOK, output=round_out / "notebooks" / "summary.ipynb",
                            figures=round_out / "figures" / "summary.json", parameters=common, inputs=inputs))
    return Plan(round_id=config.round, jobs=tuple(jobs), workers=workers, force=force, output_dir=output_dir,
                fresh_kernels=fresh_kernels)
