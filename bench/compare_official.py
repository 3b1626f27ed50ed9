#!/usr/bin/env python3
"""Cross-check our scores against MLCommons' own result_summarizer (mlperf-logging) on one round.

The summarizer edits the folder it reads and takes minutes, so it runs on a temporary copy; it is a
check for people, not a test. Its current version applies later rounds' rules (scaling.json, newer
compliance checks), so disagreements are listed for a person to judge, not treated as our errors.

    .venv/bin/python bench/compare_official.py [--round 1.0]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mlperf_report.suites.training import rounds  # noqa: E402
from mlperf_report.core import paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--round", default="1.0")
    args = parser.parse_args()
    round_ = rounds.parse_round(args.round)
    archive = paths.SHARED_MLPERF / f"training_results_v{round_.version}.zip"
    ours = pd.read_csv(paths.round_data(round_.id) / "results.csv")
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(tmp)
        tree = Path(tmp) / f"training_results_v{round_.version}"
        csv = Path(tmp) / "official.csv"
        done = subprocess.run([sys.executable, "-m", "mlperf_logging.result_summarizer", f"{tree}/{{*}}",
                               "training", round_.ruleset, "--csv", str(csv)], cwd=tmp, capture_output=True,
                              text=True, check=False)
        if not csv.exists():
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            print(f"{round_.id}: the summarizer wrote no table (exit {done.returncode}): {' | '.join(tail)}")
            return 1
        official = pd.read_csv(csv)
    official["system_id"] = official["details_url"].str.rsplit("/", n=1).str[-1].str.removesuffix(".json")
    benchmarks = [b for b in round_.benchmarks if b in official.columns]
    long = official.melt(id_vars=["system_id"], value_vars=benchmarks, var_name="benchmark",
                         value_name="official").dropna()
    joined = long.merge(ours[["system_id", "benchmark", "score_min", "status_detail"]],
                        on=["system_id", "benchmark"], how="outer")
    same = joined["official"].round(2) == joined["score_min"].round(2)
    print(f"{round_.id}: {len(long)} scores from mlperf-logging's summarizer, {int(same.sum())} equal to ours "
          f"to 2 decimals; {int(ours['score_min'].notna().sum())} scored by us")
    differ = joined[~same & (joined["official"].notna() | joined["score_min"].notna())]
    if len(differ):
        print("differences (official = the summarizer's current version):")
        print(differ.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
