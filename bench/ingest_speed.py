#!/usr/bin/env python3
"""Ingest speed: a whole round from a folder and from its zip, against a plain line-by-line scorer.

Prints wall time and peak memory (max RSS of the process and its workers) for each, page cache warm
(every variant runs once untimed first). The figures go in docs/PERFORMANCE.md.

    .venv/bin/python bench/ingest_speed.py [--round 1.0] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mlperf_report.core import paths  # noqa: E402

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
started = time.perf_counter()
kind, source, round_id = sys.argv[1:4]
if kind == "plain":
    from bench.plain_scorer import score_tree
    count = score_tree(source)
else:
    from mlperf_report.suites.training import rounds
    from mlperf_report.suites.training.ingest import ingest
    from mlperf_report.core.sources import open_source
    src, facts = open_source(source)
    result = ingest(src, facts, rounds.parse_round(round_id))
    count = int(result.manifest["counts"]["scored"])
elapsed = time.perf_counter() - started
peak_kb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps({{"seconds": elapsed, "peak_mb": peak_kb / 1024, "scored": count}}))
"""


def measure(kind: str, source: str, round_id: str, repeat: int) -> dict:
    code = CHILD.format(root=str(ROOT))
    runs = []
    for _ in range(repeat + 1):  # the first run warms the page cache and is not counted
        out = subprocess.run([sys.executable, "-c", code, kind, source, round_id], check=True,
                             capture_output=True, text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    best = min(runs[1:], key=lambda r: r["seconds"])
    return {**best, "peak_mb": max(r["peak_mb"] for r in runs[1:])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--round", default="1.0", help="round version of ../shared/mlperf/training_results_vX.Y.zip")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    archive = paths.SHARED_MLPERF / f"training_results_v{args.round}.zip"
    if not archive.exists():
        print(f"skip: {archive} not found", file=sys.stderr)
        return 0
    round_id = f"training-v{args.round}"
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(tmp)
        folder = str(Path(tmp) / f"training_results_v{args.round}")
        logs_mb = sum(f.stat().st_size for f in Path(folder).rglob("result_*.txt")) / 1e6
        figures = {
            "ingest, folder": measure("ingest", folder, round_id, args.repeat),
            "ingest, zip": measure("ingest", str(archive), round_id, args.repeat),
            "plain line-by-line scorer, folder": measure("plain", folder, round_id, args.repeat),
        }
    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), platform.processor())
    print(f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}")
    print(f"round: {round_id}, {logs_mb:.0f} MB of result logs; best of {args.repeat}, page cache warm")
    print(f"{'variant':40} {'seconds':>8} {'peak MB':>8} {'scored':>7}")
    for name, fig in figures.items():
        print(f"{name:40} {fig['seconds']:8.2f} {fig['peak_mb']:8.0f} {fig['scored']:7d}")
    plain = figures["plain line-by-line scorer, folder"]["seconds"]
    print(f"speed-up over the plain scorer: folder {plain / figures['ingest, folder']['seconds']:.1f}x, "
          f"zip {plain / figures['ingest, zip']['seconds']:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
