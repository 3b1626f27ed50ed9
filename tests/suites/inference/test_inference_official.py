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


def _row_by_row(source, names, top, results, strip):
    """The comparison as it was before the rows were made records once: one ``iloc`` Series per row
    (1.5 to 2.6 s of a 17k-row round). The oracle the faster loop must equal."""
    from mlperf_report.ingest import official as shared
    from mlperf_report.suites.inference import official as inference

    results = results.assign(mlcommons_id="")
    name = f"{top}/{inference.NAME}" if top else inference.NAME
    located = inference._by_location(shared.json_list(shared.read_capped(source, name), inference._REQUIRED))
    check = shared.Check(inference.KEY, files=[strip(name)])
    rows = {inference._key(r.division, r.submitter, r.system_id, r.model, r.scenario): i
            for i, r in enumerate(results.itertuples(index=False))}
    results = results.reset_index(drop=True)
    ids = [""] * len(results)
    for key in sorted(set(rows) | set(located)):
        index, entry = rows.get(key), located.get(key)
        row = results.iloc[index] if index is not None else None
        if entry is not None and index is not None:
            ids[index] = str(entry["ID"])
        inference._compare_one(check, row, entry, key, strip(name), str(results["round"].iloc[0]))
    return results.assign(mlcommons_id=ids), shared.official_tables(check), {"official_summary": check.manifest(inference.TOLERANCE)}


def test_the_comparison_made_from_records_equals_the_row_by_row_one(tmp_path):
    """Every outcome at once (equal, differ, only here, only there from an invalid row, a row without
    a result and a folder missing), on a frame whose index is not 0..n-1 (the rows are found by position)."""
    from mlperf_report.suites.inference import official as inference

    kinds = [("Offline", True, 100.0, 100.0), ("Server", True, 50.0, 75.0), ("SingleStream", True, 0.25, None),
             ("Offline", False, 20.0, 20.0), ("Server", False, float("nan"), 9.0), ("Offline", True, 7.5, "7.50")]
    rows, summary = [], []
    for n in range(60):
        scenario, valid, result, theirs = kinds[n % len(kinds)]
        system = f"s{n}"
        rows.append({"round": "inference-v4.1", "division": "closed" if n % 4 else "open", "submitter": f"Org{n % 5}",
                     "system_id": system, "model": "resnet50", "scenario": scenario, "valid": valid, "result": result,
                     "unit": "Samples/s", "status_detail": "" if valid else "accuracy not met"})
        if n % 13:  # every 13th result has no entry in the summary
            summary.append(entry(f"4.1-{n:04d}", f"{rows[-1]['division']}/Org{n % 5}/results/{system}/resnet50/{scenario}",
                                 theirs))
    summary.append(entry("4.1-0999", "closed/Gone/results/g1/resnet50/Offline", 1.0))
    (tmp_path / "summary_results.json").write_text(json.dumps(summary))
    frame = pd.DataFrame(rows, index=range(100, 160))
    source, _ = open_source(str(tmp_path))
    try:
        now = inference.check_round(source, ["summary_results.json"], "", frame, [], str)
        before = _row_by_row(source, ["summary_results.json"], "", frame, str)
    finally:
        source.close()
    pd.testing.assert_frame_equal(now[0], before[0])
    pd.testing.assert_frame_equal(now[1]["official_check.csv"], before[1]["official_check.csv"])
    assert now[2] == before[2]
    assert set(now[1]["official_check.csv"]["outcome"]) == {"differ", "only_here", "only_there"}
    assert now[2]["official_summary"]["equal"] > 0  # the equal ones are counted, not listed
