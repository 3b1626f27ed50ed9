"""The suite seam: a round id picks its suite from the registry, suites load on use, a suite plugs in
by entry point or at run time, unknown suites are refused in one line."""

from __future__ import annotations

import sys
import types
from importlib import metadata

import pytest

from mlperf_report import suites
from mlperf_report.cli.ingest import resolve_round
from mlperf_report.core.errors import UserError
from mlperf_report.core.rounds import RoundId, parse_round_id, round_from_tree_name


def test_round_ids_of_every_suite():
    assert parse_round_id("training-v1.0") == RoundId("training", 1, 0)
    assert parse_round_id("v4.1") == RoundId("training", 4, 1)
    assert parse_round_id("inference-v4.1").title == "MLPerf Inference v4.1"
    assert parse_round_id("hpc-v3.0") == RoundId("hpc", 3, 0)  # naming only: the registry decides support
    assert round_from_tree_name("x/inference_results_v5.0.zip") == RoundId("inference", 5, 0)
    assert round_from_tree_name("training_results_v1.0") == RoundId("training", 1, 0)
    for bad in ("v1", "../x", "training-v1.0/.."):
        with pytest.raises(ValueError, match="not of the form"):
            parse_round_id(bad)


def test_built_in_suites_implement_the_protocol():
    for name in ("training", "inference"):
        suite = suites.get(name)
        assert isinstance(suite, suites.Suite) and suite.name == name
        assert suite.default_title("en") == f"MLPerf {name.capitalize()} results"
        assert "測試結果" in suite.default_title("zh-Hant")
    assert suites.names()[:2] == ["training", "inference"]


def test_training_rounds_come_from_the_training_suite():
    suite = suites.suite_for("training-v1.0")
    assert suite.name == "training"
    round_ = resolve_round(None, "../shared/mlperf/training_results_v1.0.zip")
    assert round_.id == "training-v1.0" and "resnet" in round_.benchmarks


def test_a_suite_the_tool_lacks_is_refused_in_one_line():
    with pytest.raises(UserError, match="MLPerf Hpc is not supported; this tool reports MLPerf Training, "
                                        "MLPerf Inference"):
        suites.suite_for("hpc-v3.0")
    with pytest.raises(UserError, match="MLPerf Hpc is not supported"):
        resolve_round(None, "hpc_results_v3.0.zip")
    with pytest.raises(UserError, match="pass --round"):
        resolve_round(None, "results.zip")


def test_a_registered_object_must_be_a_suite():
    with pytest.raises(TypeError, match="lacks .*plan"):
        suites.register(types.SimpleNamespace(name="half", parse_round=lambda r: r))


def test_a_suite_installed_as_its_own_package_plugs_in_by_entry_point(monkeypatch):
    module = types.ModuleType("plugged_suite")
    module.SUITE = types.SimpleNamespace(name="plugged")
    monkeypatch.setitem(sys.modules, "plugged_suite", module)
    point = metadata.EntryPoint("plugged", "plugged_suite:SUITE", suites.ENTRY_POINT_GROUP)
    monkeypatch.setattr(suites, "entry_points", lambda group: [point] if group == suites.ENTRY_POINT_GROUP else [])
    try:
        assert "plugged" in suites.names()
        assert suites.suite_for("plugged-v1.0") is module.SUITE
    finally:
        suites.unregister("plugged")
