#!/usr/bin/env python3
"""Ingest speed of this checkout against a baseline checkout (default: main at the branch point of the
official-summary work, a2a342b, as a scratch git worktree under /tmp), side by side in one run on the
same rounds: the largest Training round (v4.1) and the Inference round (v4.1), each from its zip.

Both checkouts run with the same Python and one shared compliance-verdict cache, warmed by an untimed
run of each (the everyday, warm figures, as bench/ingest_speed.py measures them); the timed runs
alternate baseline / this checkout, so a busy machine slows both alike. The figures go in
docs/PERFORMANCE.md.

    .venv/bin/python bench/official_speed.py [--repeat 5] [--baseline DIR] [--commit a2a342b]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "mlperf"
ROUNDS = {"training-v4.1": "training_results_v4.1.zip", "inference-v4.1": "inference_results_v4.1.zip"}

CHILD = r"""
import json, sys, time
sys.path.insert(0, {root!r})
started = time.perf_counter()
source, round_id, absent_file = sys.argv[1:4]
from mlperf_report.core.sources import open_source
from mlperf_report.suites import suite_for
suite = suite_for(round_id)
src, facts = open_source(source)
absent = open(absent_file).read().splitlines() if absent_file else []
result = suite.ingest(src, facts, suite.parse_round(round_id), absent=absent)
src.close()
print(json.dumps({{"seconds": time.perf_counter() - started, "scored": int(result.manifest["counts"]["scored"])}}))
"""


def once(root: Path, archive: Path, round_id: str, cache: str) -> dict:
    absent = SHARED / "ABSENT.txt"
    out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(root)), str(archive), round_id,
                          str(absent) if absent.exists() else ""], cwd=root, check=True, capture_output=True,
                         text=True, env={**os.environ, "MLPERF_REPORT_CACHE": cache}).stdout
    return json.loads(out.strip().splitlines()[-1])


def baseline_checkout(commit: str) -> Path:
    """A scratch worktree of ``commit`` under /tmp (made once, reused)."""
    folder = Path(tempfile.gettempdir()) / f"mlperf-report-baseline-{commit}"
    if not (folder / "mlperf_report").is_dir():
        subprocess.run(["git", "worktree", "add", "--detach", str(folder), commit], cwd=ROOT, check=True,
                       capture_output=True)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="a checkout to compare with (default: a worktree of --commit)")
    parser.add_argument("--commit", default="a2a342b")
    args = parser.parse_args()
    baseline = args.baseline or baseline_checkout(args.commit)
    sides = {"baseline": baseline, "this checkout": ROOT}
    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), platform.processor())
    print(f"machine: {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}; load {os.getloadavg()[0]:.1f}")
    print(f"baseline: {baseline}; best and median of {args.repeat}, alternating, verdict cache warm")
    with tempfile.TemporaryDirectory() as cache:
        for round_id, name in ROUNDS.items():
            archive = SHARED / name
            if not archive.exists():
                print(f"{round_id}: {archive} not found; skipped")
                continue
            for root in sides.values():  # untimed: fills the verdict cache and the page cache
                once(root, archive, round_id, cache)
            times: dict[str, list[float]] = {side: [] for side in sides}
            for _ in range(args.repeat):
                for side, root in sides.items():
                    times[side].append(once(root, archive, round_id, cache)["seconds"])
            best = {side: min(t) for side, t in times.items()}
            for side, t in times.items():
                print(f"{round_id:15} {side:14} best {best[side]:6.2f} s  median {statistics.median(t):6.2f} s")
            print(f"{round_id:15} ratio (this / baseline, best): {best['this checkout'] / best['baseline']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
