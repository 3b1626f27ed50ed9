#!/usr/bin/env python3
"""Inference ingest speed: a whole round from its zip and from the unpacked folder, page cache warm
(one untimed run first). Prints wall time and peak memory; the figures go in docs/PERFORMANCE.md.

    .venv/bin/python bench/inference_ingest_speed.py [--version 4.1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mlperf_report.core import paths  # noqa: E402

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
started = time.perf_counter()
source, round_id = sys.argv[1:3]
from mlperf_report.core.sources import open_source
from mlperf_report.suites.inference.ingest import ingest
from mlperf_report.suites.inference.rounds import parse_round
src, facts = open_source(source)
result = ingest(src, facts, parse_round(round_id))
elapsed = time.perf_counter() - started
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"seconds": elapsed, "peak_mb": peak_kb / 1024, "results": len(result.results)}}))
"""


def measure(source: str, round_id: str, repeat: int) -> dict:
    runs = []
    for _ in range(repeat + 1):
        out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), source, round_id],
                             check=True, capture_output=True, text=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    best = min(runs[1:], key=lambda r: r["seconds"])
    return {**best, "peak_mb": max(r["peak_mb"] for r in runs[1:])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="4.1")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--archive", type=Path, help="default: ../shared/mlperf/inference_results_vX.Y.zip")
    args = parser.parse_args()
    archive = args.archive or paths.SHARED_MLPERF / f"inference_results_v{args.version}.zip"
    if not archive.exists():
        print(f"{archive} not found; nothing to measure", file=sys.stderr)
        return 1
    round_id = f"inference-v{args.version}"
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(tmp)
        folder = next(Path(tmp).iterdir())
        for label, source in (("zip", str(archive)), ("folder", str(folder))):
            r = measure(source, round_id, args.repeat)
            print(f"{round_id} from {label}: {r['results']} results in {r['seconds']:.2f} s, "
                  f"peak {r['peak_mb']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
