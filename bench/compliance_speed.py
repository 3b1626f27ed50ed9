#!/usr/bin/env python3
"""Compliance verdicts' cost, side by side in one run on one round (default v4.1, from its zip):
MLCommons' result_summarizer (compliance checker included, on an unpacked copy), our cold ingest with
verdicts (empty verdict cache), our warm re-ingest (cache filled by the cold one) and our
``--no-compliance`` ingest. Prints wall time and peak memory (max RSS of a process and its workers).

    .venv/bin/python bench/compliance_speed.py [--round 4.1] [--shared ../shared/mlperf]
"""

from __future__ import annotations

import argparse
import json
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
from pathlib import Path
sys.path.insert(0, {root!r})
started = time.perf_counter()
source, round_id, cache, check = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "check"
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import ingest
from mlperf_report.core.sources import open_source
src, facts = open_source(source)
result = ingest(src, facts, rounds.parse_round(round_id), compliance=check, cache_dir=Path(cache))
elapsed = time.perf_counter() - started
peak_kb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps({{"seconds": elapsed, "peak_mb": peak_kb / 1024}}))
"""

SUMMARIZER = r"""
import json, resource, runpy, sys, time
started = time.perf_counter()
sys.argv = ["result_summarizer"] + sys.argv[1:]
try:
    runpy.run_module("mlperf_logging.result_summarizer", run_name="__main__")
finally:
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": time.perf_counter() - started, "peak_mb": peak_kb / 1024}))
"""


def ours(source: str, round_id: str, cache: Path, check: bool) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), source, round_id, str(cache),
                          "check" if check else "fast"], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def summarizer(folder: Path, ruleset: str, tmp: str) -> dict:
    out = subprocess.run([sys.executable, "-c", SUMMARIZER, f"{folder}/{{*}}", "training", ruleset,
                          "--csv", str(Path(tmp) / "official.csv")], cwd=tmp, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--round", default="4.1")
    parser.add_argument("--shared", type=Path, default=paths.SHARED_MLPERF)
    args = parser.parse_args()
    archive = args.shared / f"training_results_v{args.round}.zip"
    if not archive.exists():
        print(f"skip: {archive} not found", file=sys.stderr)
        return 0
    round_id = f"training-v{args.round}"
    from mlperf_report.suites.training import rounds

    ruleset = rounds.parse_round(round_id).ruleset
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(tmp)
        figures = {"MLCommons' result_summarizer, folder": summarizer(Path(tmp) / f"training_results_v{args.round}",
                                                                     ruleset, tmp)}
        cache = Path(tmp) / "cache"
        figures["our ingest, cold (verdicts computed), zip"] = ours(str(archive), round_id, cache, True)
        warm = [ours(str(archive), round_id, cache, True) for _ in range(3)]  # best of 3: shared machine
        fast = [ours(str(archive), round_id, cache, False) for _ in range(3)]
        figures["our ingest, warm (verdicts from the cache), zip"] = min(warm, key=lambda r: r["seconds"])
        figures["our ingest --no-compliance, zip"] = min(fast, key=lambda r: r["seconds"])
    base = figures["MLCommons' result_summarizer, folder"]["seconds"]
    print(f"{round_id}, {time.strftime('%Y-%m-%d')}:")
    for name, figure in figures.items():
        print(f"  {name:<52} {figure['seconds']:7.2f} s  {figure['peak_mb']:6.0f} MB  "
              f"({base / figure['seconds']:.1f}x the summarizer's speed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
