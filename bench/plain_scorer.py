"""The obvious way to score a round, for comparison: read every log line by line, parse each MLLOG
line as JSON, take run_start/run_stop, olympic-average per result set. Same rules, no tricks."""

from __future__ import annotations

import json
import os
from collections import defaultdict

from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.scoring import olympic_average


def score_tree(root: str) -> int:
    """Score every result set under ``root``; return how many got a score."""
    sets = defaultdict(list)
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            if name.startswith("result_") and name.endswith(".txt"):
                sets[dirpath].append(os.path.join(dirpath, name))
    scored = 0
    for folder, files in sets.items():
        benchmark = rounds.canonical_benchmark(os.path.basename(folder))
        minutes, failed = [], 0
        for path in files:
            start = stop = status = None
            with open(path, encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    at = line.find(":::MLLOG")
                    if at == -1:
                        continue
                    try:
                        record = json.loads(line[at + 8:])
                    except ValueError:
                        continue
                    if record.get("key") == "run_start" and start is None:
                        start = record["time_ms"]
                    elif record.get("key") == "run_stop" and stop is None:
                        stop = record["time_ms"]
                        status = (record.get("metadata") or {}).get("status")
            if start is not None and stop is not None and status == "success":
                minutes.append((stop - start) / 60 / 1000)
            else:
                failed += 1
        required = rounds.required_runs(benchmark)
        if required and len(files) >= required and failed <= rounds.dropped_each_side(benchmark):
            if olympic_average(minutes, failed, rounds.dropped_each_side(benchmark)) is not None:
                scored += 1
    return scored
