"""`build.py report`: the round's suite plans its notebooks (every check before any kernel starts),
``analysis.runner`` executes the stale ones with papermill in parallel, ``assemble`` makes the reports.
Heavy imports happen only when a notebook must run: `--help` and a no-op rebuild stay instant.
Python API: :func:`make_plan` → :func:`run_notebooks` → ``list[NotebookResult]``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

from mlperf_report.core import paths
from mlperf_report.analysis.jobs import NotebookJob, NotebookResult, Plan
from mlperf_report.analysis.runner import check_parameters, run_notebooks, summarize
from mlperf_report.suites.planner import make_plan

__all__ = ["NotebookJob", "NotebookResult", "Plan", "check_parameters", "make_plan", "run_notebooks", "run"]


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
    parser.add_argument("--focus-each", metavar="KIND", help="one report per focus in one run: `submitters`, "
                        "`accelerators`, or a list (Dell,accelerator:H100); into output/<round>/focus/, with an index page")
    parser.add_argument("--division", default="closed", choices=("closed", "open"), help="division of scaling and round-over-round charts")
    parser.add_argument("--languages", metavar="LIST", help="comma-separated chart languages (default: report.yaml's, e.g. en,zh-Hant)")
    parser.add_argument("--data-dir", type=Path, default=paths.DATA, help="folder of the ingest tables (default: data/)")
    parser.add_argument("--output-dir", type=Path, default=paths.OUTPUT, help="folder for everything generated (default: output/)")
    parser.add_argument("--prices", type=Path, default=paths.PRICES, help="price catalogue (default: data/prices.yaml)")
    parser.add_argument("--config", type=Path, default=paths.REPORT_CONFIG, help="report configuration (default: data/report.yaml)")
    parser.add_argument("--brand", type=Path, metavar="FILE", help="brand.yml file: colours, logo and typefaces of "
                        "every deliverable (default: report.yaml's brand:, else _brand.yml beside it)")
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


def print_history(plan: Plan) -> None:
    """Say once which earlier rounds the story would compare with are not ingested, and how to add each."""
    from mlperf_report.analysis.planning import print_missing_history
    from mlperf_report.suites import suite_for

    print_missing_history(suite_for(plan.round_id), plan.round_id, plan.data_dir)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "focus_each", None):
        from mlperf_report.assemble.batch import run_from_args

        return run_from_args(args, split_list)
    started = time.perf_counter()
    plan = plan_from_args(args)
    print(f"report {plan.round_id}: {len(plan.jobs)} notebooks, {plan.workers} at a time", file=sys.stderr)
    print_history(plan)
    with contextlib.ExitStack() as stack:
        assemblers = []  # started with the notebooks, when any runs: see report_pools.warm_pool

        def start_assemblers() -> None:
            count = min(plan.workers, len(plan.jobs[0].parameters.get("languages") or ()))
            if count > 1 and not getattr(args, "no_assemble", False):
                from mlperf_report.assemble import report_pools

                assemblers.append(stack.enter_context(report_pools.warm_pool(count)))

        results = run_notebooks(plan, when_running=start_assemblers)
        status = summarize(results, time.perf_counter() - started)
        if status or getattr(args, "no_assemble", False):
            if status:
                print("reports: not assembled (a notebook failed); the previous reports are kept", file=sys.stderr)
            return status
        from mlperf_report.assemble.build import start_reports

        ordered = sorted(results, key=lambda r: r.name != "summary")  # the round at a glance first
        # the plan carries the configuration with the options applied (``Plan.config``)
        written = start_reports(plan, ordered, prices_file=args.prices, config_file=args.config,
                                force=args.force, pool=assemblers[0] if assemblers else None,
                                brand=getattr(args, "brand", None))()
    out = plan.output_dir / plan.round_id
    print(f"done in {time.perf_counter() - started:.1f} s; reports in {out}:", file=sys.stderr)
    folders: dict = {}
    for path in written:  # the chart cards are a folder of their own: one line for them
        if path.parent == out:
            print(f"  {path}")
        else:
            folders[path.parent] = folders.get(path.parent, 0) + 1
    for folder, count in folders.items():
        print(f"  {folder}/ ({count} files)")
    return 0
