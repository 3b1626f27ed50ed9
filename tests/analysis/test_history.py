"""Round day: the previous round is usually not ingested yet. `report` says which earlier round the
story would compare with is missing, what is left out without it, and the one command that adds it."""

from pathlib import Path

import pytest

from mlperf_report.analysis.jobs import Plan
from mlperf_report.analysis.planning import missing_history
from mlperf_report.cli.report import print_history
from mlperf_report.suites import suite_for


def _round(data: Path, round_id: str) -> None:
    (data / round_id).mkdir(parents=True)
    (data / round_id / "results.csv").write_text("round\n")


@pytest.mark.parametrize("round_id, previous, url", [
    ("training-v4.1", "MLPerf Training v4.0", "https://github.com/mlcommons/training_results_v4.0"),
    ("training-v6.0", "MLPerf Training v5.1", "https://github.com/mlcommons/training_results_v5.1"),
    ("training-v5.0", "MLPerf Training v4.1", "https://github.com/mlcommons/training_results_v4.1"),
    ("inference-v6.1", "MLPerf Inference v6.0", "https://github.com/mlcommons/inference_results_v6.0"),
    ("inference-v5.0", "MLPerf Inference v4.1", "https://github.com/mlcommons/inference_results_v4.1"),
])
def test_an_absent_previous_round_is_named_with_the_command_that_ingests_it(tmp_path, round_id, previous, url):
    _round(tmp_path, round_id)
    lines = missing_history(suite_for(round_id), round_id, tmp_path)
    assert len(lines) == 1
    assert previous in lines[0] and "progress" in lines[0] and "generation" in lines[0]
    assert f"python build.py ingest {url} --out {tmp_path}/" in lines[0]


def test_nothing_is_said_once_the_previous_round_is_ingested(tmp_path):
    _round(tmp_path, "training-v4.1")
    _round(tmp_path, "training-v4.0")
    _round(tmp_path, "inference-v4.1")
    assert missing_history(suite_for("training-v4.1"), "training-v4.1", tmp_path) == []
    assert missing_history(suite_for("inference-v5.0"), "inference-v5.0", tmp_path) == []


def test_the_embedded_data_needs_no_command_for_the_default_round_and_one_for_v4_1():
    data = Path(__file__).resolve().parents[2] / "data"
    assert missing_history(suite_for("training-v1.0"), "training-v1.0", data) == []
    lines = missing_history(suite_for("training-v4.1"), "training-v4.1", data)
    assert [line.split("to add it: ")[1] for line in lines] == [
        "python build.py ingest https://github.com/mlcommons/training_results_v4.0"]


def test_a_suite_without_history_is_told_nothing(tmp_path):
    class Bare:
        name = "toy"
    assert missing_history(Bare(), "toy-v1.0", tmp_path) == []


def test_report_prints_the_line_once(tmp_path, capsys):
    _round(tmp_path, "inference-v4.1")
    print_history(Plan(round_id="inference-v4.1", jobs=(), workers=1, data_dir=tmp_path))
    err = capsys.readouterr().err
    assert err.count("history: MLPerf Inference v4.0 is not in") == 1
