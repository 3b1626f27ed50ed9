#!/usr/bin/env python3
"""Notebook speed: a whole round's notebooks through our parallel runner against the same notebooks
executed one after another with the papermill CLI, side by side in one run, and the no-op rebuild.

Both sides run the very same jobs (notebook, parameters) that ``build.py report`` plans; every run
starts from an empty output folder (so nothing is cached), except the no-op rebuild, which is
``build.py report`` run as a fresh process over the parallel run's output. The runner is measured as
``build.py report`` runs it (one kernel per worker, reset between notebooks) and with
``--fresh-kernels`` (a new kernel per notebook), to show what each part of the speed-up is worth. The figures go in
docs/PERFORMANCE.md.

    .venv/bin/python bench/notebooks_speed.py [--round training-v1.0] [--jobs N] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mlperf_report.cli import report as pipeline  # noqa: E402
from mlperf_report.core import paths
from mlperf_report.analysis.jobs import KERNEL  # noqa: E402

PAPERMILL = Path(sys.executable).with_name("papermill")


def sequential_cli(plan: pipeline.Plan, out: Path) -> float:
    """Each notebook with `papermill in out -y <parameters>`, one after another."""
    import yaml

    started = time.perf_counter()
    for job in plan.jobs:
        target = out / f"{job.name}.ipynb"
        cmd = [str(PAPERMILL), str(job.notebook), str(target), "-y", yaml.safe_dump(job.parameters),
               "-k", KERNEL, "--cwd", str(paths.ROOT), "--no-progress-bar"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"papermill CLI failed on {job.name}:\n{done.stderr[-2000:]}")
    return time.perf_counter() - started


def parallel_runner(plan: pipeline.Plan) -> float:
    started = time.perf_counter()
    results = pipeline.run_notebooks(plan, progress=lambda line: None)
    failed = [r for r in results if not r.ok]
    if failed:
        raise SystemExit("\n".join(r.error for r in failed))
    return time.perf_counter() - started


def noop_rebuild(round_id: str, output_dir: Path, jobs: int | None) -> float:
    cmd = [sys.executable, "build.py", "report", "--round", round_id, "--output-dir", str(output_dir)]
    cmd += ["--jobs", str(jobs)] if jobs else []
    # untimed first: brings the output up to date if the tree changed since the timed runs (others may
    # be editing the package meanwhile), so the timed run below measures the no-op and nothing else
    subprocess.run(cmd, cwd=paths.ROOT, capture_output=True, text=True)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=paths.ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or " 0 executed" not in done.stderr:
        raise SystemExit(f"no-op rebuild was not a no-op:\n{done.stderr}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", default="training-v1.0")
    parser.add_argument("--jobs", type=int, default=None, help="workers of the parallel runner (default: CPU count)")
    parser.add_argument("--repeat", type=int, default=1, help="repeat both sides and report the median")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="notebooks-speed-"))
    try:
        seq_times, par_times, fresh_times, noop_times = [], [], [], []
        for i in range(args.repeat):
            seq_out, par_out, fresh_out = scratch / f"seq{i}", scratch / f"par{i}", scratch / f"fresh{i}"
            seq_plan = pipeline.make_plan(round_id=args.round, output_dir=seq_out, jobs=1, force=True)
            par_plan = pipeline.make_plan(round_id=args.round, output_dir=par_out, jobs=args.jobs, force=True)
            fresh_plan = pipeline.make_plan(round_id=args.round, output_dir=fresh_out, jobs=args.jobs, force=True,
                                            fresh_kernels=True)
            seq_times.append(sequential_cli(seq_plan, seq_out))
            par_times.append(parallel_runner(par_plan))
            fresh_times.append(parallel_runner(fresh_plan))
            noop_times.append(noop_rebuild(args.round, par_out, args.jobs))
        seq, par, fresh, noop = (statistics.median(t) for t in (seq_times, par_times, fresh_times, noop_times))
        names = ", ".join(job.name for job in par_plan.jobs)
        print(f"round {args.round}: {len(par_plan.jobs)} notebooks ({names})")
        print(f"machine: {os.cpu_count()} CPUs, {platform.system()} {platform.machine()}, Python {platform.python_version()}")
        print(f"{'papermill CLI, one after another':<44}{seq:8.1f} s")
        print(f"{f'parallel runner ({par_plan.workers} workers)':<44}{par:8.1f} s   {seq / par:.2f}x faster")
        print(f"{'  same, --fresh-kernels (new kernel each)':<44}{fresh:8.1f} s   {seq / fresh:.2f}x faster")
        print(f"{'no-op rebuild (build.py report, unchanged)':<44}{noop:8.2f} s")
        if args.repeat > 1:
            rounded = lambda times: ", ".join(f"{t:.1f}" for t in times)  # noqa: E731
            print(f"(median of {args.repeat}; CLI {rounded(seq_times)}; runner {rounded(par_times)}; "
                  f"fresh kernels {rounded(fresh_times)})")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
