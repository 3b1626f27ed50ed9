"""Inference's comparison with MLCommons' summary on a synthetic 17,000-row round (the size of a
full Inference round): ``python -m bench.inference_official_speed``. Every outcome occurs (equal,
differ, only here, only there); prints the best of 3 of ``official.check_round`` alone."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import pandas as pd

from mlperf_report.core.sources import open_source
from mlperf_report.suites.inference import official

ROWS = 17_000


def frame(n: int = ROWS) -> pd.DataFrame:
    rows = [{"round": "inference-v4.1", "division": "closed" if i % 3 else "open", "submitter": f"S{i % 40}",
             "system_id": f"sys{i}", "model": f"m{i % 50}", "scenario": ("Offline", "Server", "SingleStream")[i % 3],
             "valid": i % 10 != 0, "result": float("nan") if i % 20 == 1 else (i % 9973) / 100 + 1,
             "status_detail": "" if i % 10 else "compliance failed", "unit": "Samples/s"} for i in range(n)]
    return pd.DataFrame(rows)


def summary(table: pd.DataFrame) -> list[dict]:
    out = [{"ID": f"4.1-{i:05d}", "Location": f"{r.division}/{r.submitter}/results/{r.system_id}/{r.model}/{r.scenario}",
            "Performance_Result": None if pd.isna(r.result) else r.result * (1.5 if i % 11 == 0 else 1),
            "Performance_Units": "Samples/s", "Scenario": r.scenario}
           for i, r in enumerate(table.itertuples(index=False)) if i % 17]
    return out + [{"ID": "4.1-99999", "Location": "closed/Gone/results/g/m/Offline", "Performance_Result": 1.0}]


def main() -> None:
    table = frame()
    top = Path(tempfile.mkdtemp())
    (top / official.NAME).write_text(json.dumps(summary(table)))
    source, _ = open_source(str(top))
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        official.check_round(source, [official.NAME], "", table, [], str)
        best = min(best, time.perf_counter() - started)
    source.close()
    print(f"{len(table)} rows: {best:.2f} s (best of 3)")


if __name__ == "__main__":
    main()
