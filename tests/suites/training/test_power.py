"""Energy to train from power logs (Training v4.0 on), on trees the tests build: a set with power
logs scored as MLCommons' summarizer does, a set whose power logs are incomplete, older rounds."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from mlperf_report.core.sources import open_source
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import ingest

from trees import T0, mllog, run_log, system_json, write

V41 = rounds.parse_round("training-v4.1")
MINUTES = [30.0, 31.0, 29.0, 35.0, 28.0]
# each run draws its own power, so ordering the runs by energy instead of time to train keeps other runs:
# by time the 28- and 35-minute runs go; by energy the 35-minute (9,800 W min) and 29-minute ones would
WATTS = [1000.0, 500.0, 2000.0, 100.0, 1500.0]
NODE_WATTS, EFFICIENCY, SWITCH_WATTS = 1000.0, 0.9, 100.0


def node_log(seconds: int, watts: float = NODE_WATTS) -> str:
    """One node's readings: ``watts`` every second over a ``seconds`` window."""
    start = T0 + 5_000
    lines = [mllog("power_measurement_start", start), mllog("conversion_eff", start, EFFICIENCY)]
    lines += [mllog("power_reading", start + i * 1000, watts, host="0") for i in range(seconds + 1)]
    lines.append(mllog("power_measurement_stop", start + seconds * 1000))
    return "\n".join(lines) + "\n"


def switch_log() -> str:
    return "\n".join([mllog("conversion_eff", T0, 1.0), mllog("interconnect_power_est", T0, SWITCH_WATTS)]) + "\n"


def power_tree(root: Path, skip_nodes_of: int | None = None) -> Path:
    write(root, "Acme/systems/x1.json", system_json())
    folder = "Acme/results/x1/resnet"
    for i, minutes in enumerate(MINUTES):
        write(root, f"{folder}/result_{i}.txt", run_log(minutes, seed=i))
        if i != skip_nodes_of:
            for node in range(2):
                write(root, f"{folder}/power/result_{i}/node_{node}.txt", node_log(60 + 7 * i, WATTS[i]))
        write(root, f"{folder}/power/result_{i}/sw_0.txt", switch_log())
    write(root, "Acme/results/x1/bert/result_0.txt", run_log(20.0))  # a set without power logs
    return root


def run_ingest(tree: Path, round_=V41):
    source, facts = open_source(str(tree))
    try:
        return ingest(source, facts, round_, jobs=1, compliance=False)
    finally:
        source.close()


def row(res, benchmark: str) -> pd.Series:
    return res.results.set_index("benchmark").loc[benchmark]


def test_energy_to_train_as_the_summarizer_scores_it(tmp_path):
    res = run_ingest(power_tree(tmp_path / "t"))
    # each run: two nodes at its wattage (x 0.9 conversion) and a 100 W switch estimate, over its time to
    # train; olympic average ordered by time: the 28- and 35-minute runs are dropped, runs 0, 1 and 2 remain
    per_run = [(2 * w * EFFICIENCY + SWITCH_WATTS) * m * 60 for w, m in zip(WATTS, MINUTES)]
    assert per_run[:3] == pytest.approx([1900 * 30 * 60, 1000 * 31 * 60, 3700 * 29 * 60])  # the arithmetic, by hand
    assert row(res, "resnet").energy_j == pytest.approx((1900 * 30 + 1000 * 31 + 3700 * 29) * 60 / 3)
    assert row(res, "resnet").energy_j == pytest.approx(3_906_000.0)
    assert pd.isna(row(res, "bert").energy_j)
    assert res.manifest["counts"]["power_files"] == 15
    assert not any("/power/" in item["file"] for item in res.manifest["ignored"])


def test_incomplete_power_logs_leave_energy_empty_and_say_why(tmp_path):
    res = run_ingest(power_tree(tmp_path / "t", skip_nodes_of=3))
    resnet = row(res, "resnet")
    assert pd.isna(resnet.energy_j) and resnet.score_min == pytest.approx(30.0)  # the time score stands
    assert "power logs incomplete" in resnet.status_detail and "result_3" in resnet.status_detail


def test_rounds_before_power_have_no_energy(tmp_path):
    res = run_ingest(power_tree(tmp_path / "t"), rounds.parse_round("training-v1.0"))
    assert res.results["energy_j"].isna().all()


def test_results_table_shows_energy_and_runs_excluded_by_the_checker():
    from mlperf_report.suites.training.tables import results_table

    base = dict(division="closed", submitter="Acme", display_name="Acme X1", accelerators=8, framework="PyTorch",
                benchmark="llama2_70b_lora", runs_found=10, runs_required=10, status="ok")
    rows = pd.DataFrame([
        {**base, "system_id": "a", "score_min": 5.05, "runs_converged": 10, "runs_noncompliant": 0,
         "energy_j": 16_384_267.95, "status_detail": "ok"},
        {**base, "system_id": "b", "score_min": 8.22, "runs_converged": 9, "runs_noncompliant": 1,
         "energy_j": None, "status_detail": "ok (1 converged run(s) failed MLCommons' compliance checker ...)"},
    ])
    table = results_table(rows, lang="en")
    energy = [c for c in table.columns if "Energy" in c]
    assert energy and table[energy[0]].tolist() == ["16.38", ""]
    assert "compliance checker" in table.iloc[1, -1]
    chinese = results_table(rows, lang="zh-Hant")
    assert "合規" in chinese.iloc[1, -1]
    assert not any("Energy" in c for c in results_table(rows.drop(columns="energy_j")).columns)
