"""Inference ingest with MLCommons' summary_results.json at the tree's root: the result IDs land in
results.csv by Location, every valid result is compared, planted differences are named with their
cause, and a malformed summary is named and left out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mlperf_report.core.sources import open_source
from mlperf_report.ingest.official import official_line
from mlperf_report.suites.inference.ingest import RESULT_COLUMNS, ingest
from mlperf_report.suites.inference.rounds import parse_round
from tests.inference_trees import inference_tree

ROOT = Path(__file__).resolve().parents[3]
V41 = parse_round("inference-v4.1")


def entry(id_: str, location: str, value, units: str = "Samples/s") -> dict:
    division, submitter, _, system, model, scenario = location.split("/")
    return {"ID": id_, "Submitter": submitter, "Availability": "available", "Category": division,
            "Suite": "datacenter", "System": f"{submitter} {system}", "Platform": system, "Model": model,
            "Scenario": scenario, "Location": location, "Performance_Result": value,
            "Performance_Units": units, "has_power": False, "Power_Result": None, "Power_Units": "",
            "Accelerator": "Acme A1", "a#": 8, "Nodes": 1, "Details": "", "Code": ""}


SUMMARY = [
    entry("4.1-0001", "closed/Acme/results/x8/resnet50/Offline", 756960.0),                 # equal
    entry("4.1-0001", "closed/Acme/results/x8/resnet50/Server", 480000.0, "Queries/s"),     # differs
    entry("4.1-0001", "closed/Acme/results/x8/gptj-99/Offline", 9966.79, "Tokens/s"),       # equal
    entry("4.1-0001", "closed/Acme/results/x8/bert-99/Offline", 20.0),                      # invalid here
    entry("4.1-0002", "closed/Edgy/results/e1/resnet50/SingleStream", 0.332412, "Latency (ms)"),  # equal
    entry("4.1-0009", "closed/Gone/results/g1/resnet50/Offline", 100.0),                    # not in this copy
    entry("4.1-0100", "open/Open/results/o1/resnet50/offline", 756960),                     # equal
]


def run(top: Path):
    source, facts = open_source(str(top))
    try:
        return ingest(source, facts, V41)
    finally:
        source.close()


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    top = inference_tree(tmp_path_factory.mktemp("inf"))
    (top / "summary_results.json").write_text(json.dumps(SUMMARY, indent=2))
    return run(top)


def test_ids_land_in_results_by_location(checked):
    ids = {(r.system_id, r.model, r.scenario): r.mlcommons_id for r in checked.results.itertuples()}
    assert ids[("x8", "resnet50", "Offline")] == ids[("x8", "bert-99", "Offline")] == "4.1-0001"
    assert ids[("e1", "resnet50", "SingleStream")] == "4.1-0002" and ids[("o1", "resnet50", "Offline")] == "4.1-0100"
    assert ids[("x8", "llama2-70b-99", "Offline")] == "" and ids[("e1", "resnet50", "MultiStream")] == ""
    assert list(checked.results.columns) == RESULT_COLUMNS and RESULT_COLUMNS[-1] == "mlcommons_id"


def test_the_line_and_the_planted_differences(checked):
    assert official_line(checked.manifest) == \
        "official summary: 5 compared, 4 equal, 1 differ, 3 only here, 2 only there"
    check = checked.tables["official_check.csv"].set_index(["submitter", "system_id", "model", "scenario"])
    server = check.loc[("Acme", "x8", "resnet50", "Server")]
    assert (server.outcome, server.cause, server.here, server.official) == ("differ", "unknown", 480131.1, 480000.0)
    bert = check.loc[("Acme", "x8", "bert-99", "Offline")]
    assert (bert.outcome, bert.cause, bert.official) == ("only_there", "compliance_verdict", 20.0)
    assert "TEST05" in bert.cause_detail
    gone = check.loc[("Gone", "g1", "resnet50", "Offline")]
    assert (gone.outcome, gone.cause) == ("only_there", "runs_missing")
    here_only = check[check.outcome == "only_here"].index.tolist()
    assert sorted(here_only) == [("Acme", "x8", "llama2-70b-99", "Offline"), ("Acme", "x8", "llama2-70b-99", "Server"),
                                 ("Edgy", "e1", "resnet50", "MultiStream")]


def test_build_py_ingest_prints_the_line(tmp_path):
    top = inference_tree(tmp_path / "tree")
    (top / "summary_results.json").write_text(json.dumps(SUMMARY))
    done = subprocess.run([sys.executable, "build.py", "ingest", str(top), "--out", str(tmp_path / "out"), "--quiet"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "official summary: 5 compared, 4 equal, 1 differ, 3 only here, 2 only there\n" in done.stdout
    results = pd.read_csv(tmp_path / "out" / "results.csv", dtype={"mlcommons_id": str})
    assert results.mlcommons_id.notna().sum() == 6  # every entry but the one of a folder this copy lacks
    assert len(pd.read_csv(tmp_path / "out" / "official_check.csv")) == 6
    refused = subprocess.run([sys.executable, "build.py", "ingest", str(top), "--out", str(tmp_path / "out2"),
                              "--official", str(tmp_path / "ids.csv")], cwd=ROOT, capture_output=True, text=True)
    assert refused.returncode != 0 and "summary_results.json" in refused.stderr and not (tmp_path / "out2").exists()


@pytest.mark.parametrize("content, words", [
    (b"[{\"ID\": ", "not JSON"),
    (json.dumps({"ID": "4.1-0001"}).encode(), "not a JSON list of entries (a dict)"),
    (json.dumps([{"ID": "4.1-0001", "Performance_Result": 1.0}]).encode(), "entry 1 lacks 'Location'"),
    (json.dumps([entry("4.1-0001", "closed/Acme/results/x8/resnet50/Offline", 1.0) | {"Location": "closed/Acme/x8"}]
                ).encode(), "entry 1: Location 'closed/Acme/x8' is not <division>/<submitter>/results/"),
])
def test_a_malformed_summary_is_named_and_left_out(tmp_path, content, words):
    plain = run(inference_tree(tmp_path / "plain"))
    top = inference_tree(tmp_path / "tree")
    (top / "summary_results.json").write_bytes(content)
    result = run(top)
    problems = [p["problem"] for p in result.problems if p["file"] == "summary_results.json"]
    assert len(problems) == 1 and problems[0].startswith("MLCommons summary not used: ") and words in problems[0]
    assert official_line(result.manifest) is None and not result.tables
    pd.testing.assert_frame_equal(result.results, plain.results)
