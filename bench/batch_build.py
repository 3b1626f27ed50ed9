#!/usr/bin/env python3
"""The cost of round day's batch: one cold `build.py report --focus-each` of a round (every focus's
notebooks in one runner call, each focus's reports in en + zh-Hant, HTML + PDF, and the index page),
with its wall time, CPU time and peak memory (the process tree's RSS summed and the largest process),
as ``inference_build`` measures a single report. The machine's load average is printed beside them.

    .venv/bin/python bench/batch_build.py [--round training-v4.1] [--each submitters] [--jobs N]

Targets (issue 23): every submitter of Training v4.1 (17 focuses) within 2 minutes on 2 cores, an
Inference round with 25 submitters within 4 minutes, each process within 300 MB.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from inference_build import ROOT, measured_build  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", default="training-v4.1")
    parser.add_argument("--each", default="submitters")
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        shutil.rmtree(ROOT / ".cache" / "assemble", ignore_errors=True)
        shutil.rmtree(ROOT / ".cache" / "charts", ignore_errors=True)  # cold: no chart drawn before
        argv = [sys.executable, "build.py", "report", "--round", args.round, "--focus-each", args.each,
                "--output-dir", out, *(["--jobs", str(args.jobs)] if args.jobs else [])]
        load = os.getloadavg()
        figures = measured_build(argv)
        focus_folders = sorted((Path(out) / args.round / "focus").iterdir())
        notebooks = sum(len(list((f / args.round / "notebooks").glob("*.ipynb"))) for f in focus_folders)
    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, Python "
          f"{platform.python_version()}; load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, "
          f"after {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"{args.round} --focus-each {args.each}: {len(focus_folders)} focuses, {notebooks} notebooks, cold "
          f"{figures['wall']:.1f} s wall ({figures['wall'] / max(len(focus_folders), 1):.1f} s per focus), "
          f"{figures['cpu']:.1f} s CPU; notebooks {figures['notebooks']:.1f} s, assembly and index "
          f"{figures['wall'] - figures['notebooks']:.1f} s")
    print(f"peak memory: {figures['peak_sum'] / 2**20:.0f} MB build + kernels together, "
          f"{figures['peak_one'] / 2**20:.0f} MB largest process ({figures['peak_one_kind']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
