"""`build.py report`: plan the round's notebooks, then execute them with papermill in parallel, cached.

Plan, then run: every check that can fail (tables present, benchmarks known, notebook parameters
matching what we pass, output folder writable) happens before any kernel starts. Each notebook is
re-executed only when a hash of everything it reads (parameters, data tables, prices and
configuration, the notebook, the package modules it imports) differs from the stamp stored beside the
executed notebook, so an unchanged rebuild costs a few file reads. Heavy imports (pandas, papermill)
happen only when a notebook must run, which keeps `--help` and the no-op rebuild instant.

Python API for the next stages: :func:`make_plan` → :func:`run_notebooks` → ``list[NotebookResult]``.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections import Counter
from pathlib import Path

from mlperf_report.core import paths
from mlperf_report.core.errors import InputError, UserError
from mlperf_report.analysis.jobs import NotebookJob, NotebookResult, Plan
from mlperf_report.analysis.runner import check_parameters, run_notebooks

__all__ = ["NotebookJob", "NotebookResult", "Plan", "check_parameters", "make_plan", "run_notebooks", "run"]

BENCHMARK_NOTEBOOK = paths.NOTEBOOKS / "benchmark.ipynb"
SUMMARY_NOTEBOOK = paths.NOTEBOOKS / "summary.ipynb"
#: The tables each notebook reads (its cache key covers exactly these).
BENCHMARK_TABLES = ("results.csv", "runs.csv")
SUMMARY_TABLES = ("results.csv",)


# --- plan -----------------------------------------------------------------------------------------

def scored_rows(results_csv: Path) -> list[dict]:
    """The scored rows of results.csv (read with csv: no pandas on the planning path)."""
    with results_csv.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = {"benchmark", "status"} - set(reader.fieldnames or ())
        if missing:
            raise InputError(f"{results_csv}: column(s) {', '.join(sorted(missing))} missing; re-run `python build.py ingest`")
        return [row for row in reader if row["status"] == "ok" and row.get("score_min")]


def scored_benchmarks(results_csv: Path) -> list[str]:
    """Benchmarks with at least one scored result."""
    return sorted({row["benchmark"] for row in scored_rows(results_csv)})


def _tally(values) -> str:
    counts = Counter(v for v in values if v)
    return ", ".join(f"{name} ({n})" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].lower())))


def check_focus(focus, rows: list[dict], round_id: str) -> None:
    """Stop before any kernel when the focus has no scored result in the round, listing the choices."""
    if focus.kind == "none" or any(focus.matches(r.get("submitter"), r.get("accelerator_model")) for r in rows):
        return
    how = ("choose with --focus NAME (or focus_submitter in data/report.yaml), --focus-accelerator MODEL, "
           "or --focus none for a neutral round overview")
    if focus.kind == "accelerator":
        raise UserError(f"--focus-accelerator {focus.name}: no scored result in {round_id} on an accelerator whose "
                        f"model name contains it; accelerators with scored results (results): "
                        f"{_tally(r.get('accelerator_model') for r in rows)}; {how}")
    raise UserError(f"--focus {focus.name}: no scored result of this submitter in {round_id}; submitters with scored "
                    f"results (results): {_tally(r.get('submitter') for r in rows)}; {how}")


def make_plan(*, round_id: str | None = None, benchmarks: list[str] | None = None, data_dir: Path = paths.DATA,
              output_dir: Path = paths.OUTPUT, prices_file: Path = paths.PRICES, config_file: Path = paths.REPORT_CONFIG,
              focus_submitter: str | None = None, division: str = "closed", languages: list[str] | None = None,
              jobs: int | None = None, force: bool = False, fresh_kernels: bool = False,
              focus_accelerator: str | None = None) -> Plan:
    """Resolve and check everything the notebooks need; raise a UserError naming the fix if anything is off."""
    from mlperf_report.core.config import DIVISIONS, load_config
    from mlperf_report.core.prices import load_prices

    config = load_config(config_file).with_overrides(round=round_id, focus_submitter=focus_submitter, languages=languages,
                                                     focus_accelerator=_accelerator_override(focus_submitter, focus_accelerator))
    load_prices(prices_file)  # validated now, not in six kernels at once
    if division not in DIVISIONS:
        raise UserError(f"--division must be one of {list(DIVISIONS)}, got {division!r}")
    data_dir, output_dir = Path(data_dir).resolve(), Path(output_dir).resolve()
    workers = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
    from mlperf_report.suites import suite_for

    if suite_for(config.round).name == "inference":
        from mlperf_report.cli.inference_report import make_inference_plan

        return make_inference_plan(config, models=benchmarks, data_dir=data_dir, output_dir=output_dir,
                                   config_file=config_file, division=division, workers=workers, force=force,
                                   fresh_kernels=fresh_kernels, check_writable=_check_writable)
    return _training_plan(config, benchmarks=benchmarks, data_dir=data_dir, output_dir=output_dir,
                          prices_file=prices_file, config_file=config_file, division=division, workers=workers,
                          force=force, fresh_kernels=fresh_kernels)


def _training_plan(config, *, benchmarks: list[str] | None, data_dir: Path, output_dir: Path, prices_file: Path,
                   config_file: Path, division: str, workers: int, force: bool, fresh_kernels: bool) -> Plan:
    """One benchmark notebook per scored benchmark (or those asked for), then the summary."""
    tables = data_dir / config.round
    for name in ("results.csv", "runs.csv"):
        if not (tables / name).is_file():
            raise InputError(f"{tables / name}: not found; run `python build.py ingest <training_results_{config.round.split('-v')[-1]} source>` first")
    rows = scored_rows(tables / "results.csv")
    available = sorted({row["benchmark"] for row in rows})
    if benchmarks:
        unknown = [b for b in benchmarks if b not in available]
        if unknown:
            raise UserError(f"--benchmarks: {', '.join(unknown)} has no scored result in {config.round}; "
                            f"must be among {', '.join(available) or '(none)'}")
        chosen = list(dict.fromkeys(benchmarks))
    else:
        chosen = available
    if not chosen:
        raise InputError(f"{tables / 'results.csv'}: no scored result in any benchmark; nothing to analyse")
    check_focus(config.focus, [r for r in rows if r["benchmark"] in chosen], config.round)
    round_out = output_dir / config.round
    _check_writable(round_out)

    common = {"round_id": config.round, "focus_submitter": config.focus_submitter,
              "focus_accelerator": config.focus_accelerator, "data_dir": str(data_dir),
              "prices_file": str(Path(prices_file).resolve()), "config_file": str(Path(config_file).resolve()),
              "output_dir": str(output_dir), "languages": list(config.languages), "division": division}
    shared_inputs = (Path(prices_file).resolve(), Path(config_file).resolve(), paths.ROOT / "requirements.txt")
    earlier = _earlier_results(data_dir, config.round)
    plan_jobs = [
        NotebookJob(name=benchmark, notebook=BENCHMARK_NOTEBOOK,
                    output=round_out / "notebooks" / f"{benchmark}.ipynb",
                    figures=round_out / "figures" / f"{benchmark}.json",
                    parameters={**common, "benchmark": benchmark,
                                "baseline_system": config.baseline.system_for(benchmark, config.round) or ""},
                    inputs=shared_inputs + tuple(tables / n for n in BENCHMARK_TABLES) + earlier)
        for benchmark in chosen
    ]
    plan_jobs.append(NotebookJob(name="summary", notebook=SUMMARY_NOTEBOOK,
                                 output=round_out / "notebooks" / "summary.ipynb",
                                 figures=round_out / "figures" / "summary.json",
                                 parameters=common, inputs=shared_inputs + tuple(tables / n for n in SUMMARY_TABLES)))
    return Plan(round_id=config.round, jobs=tuple(plan_jobs), workers=workers, force=force, output_dir=output_dir,
                fresh_kernels=fresh_kernels)


def _accelerator_override(focus_submitter: str | None, focus_accelerator: str | None) -> str | None:
    """``--focus NAME`` alone clears an accelerator focus set in report.yaml; None: not given."""
    if focus_accelerator is not None:
        return focus_accelerator.strip()
    return "" if focus_submitter else None


def _earlier_results(data_dir: Path, round_id: str) -> tuple[Path, ...]:
    """results.csv of every earlier round present (round-over-round chart and speed-up)."""
    from mlperf_report.suites.training.rounds import parse_round

    this = parse_round(round_id)
    found = []
    for folder in sorted(data_dir.iterdir()):
        try:
            other = parse_round(folder.name)
        except ValueError:
            continue
        if (other.major, other.minor) < (this.major, this.minor) and (folder / "results.csv").is_file():
            found.append(folder / "results.csv")
    return tuple(found)


def _check_writable(folder: Path) -> None:
    try:
        (folder / "notebooks").mkdir(parents=True, exist_ok=True)
        (folder / "figures").mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"{folder}: cannot create the output folders ({error.strerror}); pass --output-dir") from None
    if not os.access(folder / "notebooks", os.W_OK):
        raise UserError(f"{folder / 'notebooks'}: not writable; pass --output-dir")


# --- command line ---------------------------------------------------------------------------------

def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--round", dest="round_id", metavar="ROUND", help="round to report, e.g. training-v1.0 (default: report.yaml's)")
    parser.add_argument("--benchmarks", metavar="LIST", help="comma-separated benchmarks (default: every benchmark with a scored result)")
    parser.add_argument("--jobs", "-j", type=int, metavar="N", help="notebooks run at once (default: CPU count)")
    parser.add_argument("--force", action="store_true", help="re-run every notebook even when its inputs are unchanged")
    parser.add_argument("--fresh-kernels", action="store_true",
                        help="start a new kernel for every notebook (default: one kernel per worker, reset between notebooks)")
    parser.add_argument("--focus", dest="focus_submitter", metavar="SUBMITTER",
                        help="submitter whose story the report tells, or `none` for a neutral round overview (default: report.yaml's)")
    parser.add_argument("--focus-accelerator", metavar="PATTERN",
                        help="tell the story of an accelerator across every submitter's systems built on it "
                             "(text in the systems JSON's accelerator model name, case-insensitive, e.g. H100, TPU, Gaudi)")
    parser.add_argument("--division", default="closed", choices=("closed", "open"), help="division of scaling and round-over-round charts")
    parser.add_argument("--languages", metavar="LIST", help="comma-separated chart languages (default: report.yaml's, e.g. en,zh-Hant)")
    parser.add_argument("--data-dir", type=Path, default=paths.DATA, help="folder of the ingest tables (default: data/)")
    parser.add_argument("--output-dir", type=Path, default=paths.OUTPUT, help="folder for everything generated (default: output/)")
    parser.add_argument("--prices", type=Path, default=paths.PRICES, help="price catalogue (default: data/prices.yaml)")
    parser.add_argument("--config", type=Path, default=paths.REPORT_CONFIG, help="report configuration (default: data/report.yaml)")
    parser.add_argument("--no-assemble", action="store_true", help="run the notebooks only; no narrative, HTML or PDF")


def split_list(text: str | None) -> list[str] | None:
    """``"a, b"`` → ``["a", "b"]``; None when the option was not given."""
    return [part.strip() for part in text.split(",") if part.strip()] if text else None


def plan_from_args(args: argparse.Namespace) -> Plan:
    split = split_list
    return make_plan(round_id=getattr(args, "round_id", None), benchmarks=split(getattr(args, "benchmarks", None)),
                     data_dir=args.data_dir, output_dir=args.output_dir, prices_file=args.prices,
                     config_file=args.config, focus_submitter=getattr(args, "focus_submitter", None),
                     division=getattr(args, "division", "closed"), languages=split(getattr(args, "languages", None)),
                     jobs=getattr(args, "jobs", None), force=getattr(args, "force", False),
                     fresh_kernels=getattr(args, "fresh_kernels", False),
                     focus_accelerator=getattr(args, "focus_accelerator", None))


def summarize(results: list[NotebookResult], seconds: float) -> int:
    """Print the outcome; 0 when every notebook is ok or cached, 1 otherwise."""
    failed = [r for r in results if not r.ok]
    ran = sum(r.status == "ok" for r in results)
    cached = sum(r.status == "cached" for r in results)
    print(f"notebooks: {ran} executed, {cached} up to date, {len(failed)} failed ({seconds:.1f} s)", file=sys.stderr)
    for result in failed:
        print(f"error: {result.error}", file=sys.stderr)
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    plan = plan_from_args(args)
    print(f"report {plan.round_id}: {len(plan.jobs)} notebooks, {plan.workers} at a time", file=sys.stderr)
    results = run_notebooks(plan)
    status = summarize(results, time.perf_counter() - started)
    if status or getattr(args, "no_assemble", False):
        if status:
            print("reports: not assembled (a notebook failed); the previous reports are kept", file=sys.stderr)
        return status
    from mlperf_report.assemble.build import build_reports

    ordered = sorted(results, key=lambda r: r.name != "summary")  # the round at a glance first
    written = build_reports(plan, ordered, prices_file=args.prices, config_file=args.config,
                            languages=split_list(getattr(args, "languages", None)),
                            focus_submitter=getattr(args, "focus_submitter", None), force=args.force,
                            focus_accelerator=_accelerator_override(getattr(args, "focus_submitter", None),
                                                                    getattr(args, "focus_accelerator", None)))
    print(f"done in {time.perf_counter() - started:.1f} s; reports in {plan.output_dir / plan.round_id}:", file=sys.stderr)
    for path in written:
        print(f"  {path}")
    return 0
