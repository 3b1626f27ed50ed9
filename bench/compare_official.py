#!/usr/bin/env python3
"""Cross-check our scores against MLCommons' own result_summarizer (mlperf-logging) on one round.

Runs the summarizer (the round's ruleset, compliance checker included) on a temporary copy of each
round and compares its scores and energies (``<benchmark>:Energy`` of its detailed table) with our
``data/<round>/results.csv``: prints the counts that agree and every score or energy that differs
(there should be none; exit status 1 if any). It takes minutes per round: a check for people, not a test.

    .venv/bin/python bench/compare_official.py [--round 1.0 --round 4.1]
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


SHARED = [paths.SHARED_MLPERF]


def official_tables(round_, tmp: str) -> tuple[pd.DataFrame, pd.DataFrame] | str:
    """The summarizer's scores and detailed (energy) tables for one round, or why there are none."""
    archive = SHARED[0] / f"training_results_v{round_.version}.zip"
    with zipfile.ZipFile(archive) as zf:
        zf.extractall(tmp)
    tree = Path(tmp) / f"training_results_v{round_.version}"
    csv = Path(tmp) / "official.csv"
    done = subprocess.run([sys.executable, "-m", "mlperf_logging.result_summarizer", f"{tree}/{{*}}",
                           "training", round_.ruleset, "--csv", str(csv)], cwd=tmp, capture_output=True,
                          text=True, check=False)
    if not csv.exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        return f"the summarizer wrote no table (exit {done.returncode}): {' | '.join(tail)}"
    detailed = csv.with_name("official_detailed.csv")
    return pd.read_csv(csv), (pd.read_csv(detailed) if detailed.exists() else pd.DataFrame())


def _long(table: pd.DataFrame, columns: dict[str, str], name: str) -> pd.DataFrame:
    """system_id, benchmark, ``name`` from the summarizer's wide table (column -> benchmark)."""
    if table.empty or not columns:
        return pd.DataFrame(columns=["system_id", "benchmark", name])
    table = table.assign(system_id=table["details_url"].str.rsplit("/", n=1).str[-1].str.removesuffix(".json"))
    long = table.melt(id_vars=["system_id"], value_vars=list(columns), var_name="column", value_name=name)
    return long.assign(benchmark=long["column"].map(columns)).dropna(subset=[name])[["system_id", "benchmark", name]]


def compare(round_) -> int:
    """Print how many scores and energies agree with the summarizer's, and every one that differs."""
    ours = pd.read_csv(paths.round_data(round_.id) / "results.csv")
    if "energy_j" not in ours.columns:
        ours["energy_j"] = float("nan")
    with tempfile.TemporaryDirectory() as tmp:
        tables = official_tables(round_, tmp)
    if isinstance(tables, str):
        print(f"{round_.id}: {tables}")
        return 1
    scores, detailed = tables
    scores_long = _long(scores, {b: b for b in round_.benchmarks if b in scores.columns}, "official")
    energy_long = _long(detailed, {f"{b}:Energy": b for b in round_.benchmarks if f"{b}:Energy" in detailed.columns},
                        "official_energy_j")
    joined = (scores_long.merge(energy_long, on=["system_id", "benchmark"], how="outer")
              .merge(ours[["system_id", "benchmark", "score_min", "energy_j", "runs_absent", "status_detail"]],
                     on=["system_id", "benchmark"], how="outer"))
    # a set with result files missing from this cut-down copy (ABSENT.txt) is incomplete for us and
    # scored from the files it has by the summarizer: not comparable on this copy, counted apart
    cut = joined["runs_absent"].fillna(0).gt(0) & joined["score_min"].isna()
    if cut.any():
        print(f"{round_.id}: {int(cut.sum())} set(s) with files absent from this copy not compared: "
              + ", ".join(joined.loc[cut, "system_id"] + "/" + joined.loc[cut, "benchmark"]))
    joined = joined[~cut]
    # the summarizer does not check a set's run count; we never score a set with fewer result files
    # than the benchmark requires (status incomplete): a rule difference, listed apart
    short = joined["status_detail"].fillna("").str.startswith("incomplete") & joined["score_min"].isna()
    if short.any():
        print(f"{round_.id}: {int(short.sum())} set(s) the summarizer scores from fewer result files than required "
              "(ours: incomplete): " + ", ".join(joined.loc[short, "system_id"] + "/" + joined.loc[short, "benchmark"]
                                                + " (" + joined.loc[short, "status_detail"] + ")"))
    joined = joined[~short]
    same = _agree(joined["official"], joined["score_min"], 2)
    same_energy = _agree(joined["official_energy_j"], joined["energy_j"], 0)
    print(f"{round_.id}: {len(scores_long)} scores and {len(energy_long)} energies from mlperf-logging's summarizer; "
          f"{int((same & joined['official'].notna()).sum())} scores and "
          f"{int((same_energy & joined['official_energy_j'].notna()).sum())} energies equal to ours")
    differ = joined[~(same & same_energy)]
    if len(differ):
        print("differences (official = the summarizer's):")
        print(differ.to_string(index=False))
    return 1 if len(differ) else 0


def _agree(official: pd.Series, ours: pd.Series, decimals: int) -> pd.Series:
    both_missing = official.isna() & ours.isna()
    return both_missing | (official.round(decimals) == ours.round(decimals))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--round", action="append", help="round version (repeatable; default: 1.0, 1.1 and 4.1)")
    parser.add_argument("--shared", type=Path, default=paths.SHARED_MLPERF, help="folder of the round zips")
    args = parser.parse_args()
    SHARED[0] = args.shared
    status = 0
    for version in args.round or ["1.0", "1.1", "4.1"]:
        round_ = rounds.parse_round(version)
        if not (args.shared / f"training_results_v{round_.version}.zip").exists():
            print(f"{round_.id}: skipped, no training_results_v{round_.version}.zip in {args.shared}")
            continue
        status |= compare(round_)
    return status


if __name__ == "__main__":
    sys.exit(main())
