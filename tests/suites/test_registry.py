"""The suite seam: a round id picks its suite, the suite's modules load on use, unknown suites are refused."""

from __future__ import annotations

import pytest

from mlperf_report import suites
from mlperf_report.cli.ingest import resolve_round
from mlperf_report.core.errors import UserError
from mlperf_report.core.rounds import RoundId, parse_round_id, round_from_tree_name


def test_round_ids_of_every_suite():
    assert parse_round_id("training-v1.0") == RoundId("training", 1, 0)
    assert parse_round_id("v4.1") == RoundId("training", 4, 1)
    assert parse_round_id("inference-v4.1").title == "MLPerf Inference v4.1"
    assert round_from_tree_name("x/inference_results_v5.0.zip") == RoundId("inference", 5, 0)
    assert round_from_tree_name("training_results_v1.0") == RoundId("training", 1, 0)
    with pytest.raises(ValueError, match="not of the form"):
        parse_round_id("hpc-v1.0")


def test_training_rounds_come_from_the_training_suite():
    suite = suites.suite_for("training-v1.0")
    assert suite.name == "training" and suite.item_notebook == "benchmark.ipynb"
    round_ = resolve_round(None, "../shared/mlperf/training_results_v1.0.zip")
    assert round_.id == "training-v1.0" and "resnet" in round_.benchmarks
    assert hasattr(suite.module("ingest"), "write_tables")


def test_a_suite_the_tool_lacks_is_refused_in_one_line(monkeypatch):
    monkeypatch.setattr(suites, "SUITES", {"training": suites.SUITES["training"]})
    with pytest.raises(UserError, match="MLPerf Inference is not supported yet"):
        resolve_round(None, "inference_results_v4.1.zip")
    with pytest.raises(UserError, match="pass --round"):
        resolve_round(None, "results.zip")
