"""Training ingest against MLCommons' own numbers on trees the tests build: each submitter's
summary.json (the result summarizer's detailed output) with planted differences, the results table of
``--official`` in both layouts, and every kind of malformed summary or table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import Workbook

from mlperf_report.core.sources import open_source
from mlperf_report.ingest.official import official_line
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import RESULT_COLUMNS, ingest, write_tables

from trees import good_tree, result_set, system_json, write

ROOT = Path(__file__).resolve().parents[3]
V10 = rounds.parse_round("training-v1.0")
URL = "https://github.com/mlcommons/training_results_v1.0/blob/main/{org}/systems/{system}.json"


def entry(org: str, system: str, name: str, **times) -> dict:
    """One system of a summary.json as the summarizer's detailed output has it."""
    row = {"division": "closed", "availability": "Available on-premise", "submitter": org, "system": name,
           "number_of_nodes": "1", "host_processor_model_name": "AMD EPYC 7742", "host_processors_count": 2,
           "accelerator_model_name": "Acme A1", "accelerators_count": 8, "framework": "PyTorch", "notes": "",
           "private_id": ""}
    for bench in ("bert", "resnet"):
        time, factor = times.get(bench, (None, None))
        row |= {f"{bench}:time_to_train": time, f"{bench}:Energy": None, f"{bench}:GBS": 256.0,
                f"{bench}:samples_to_converge": None, f"{bench}:RCP": "Pass" if time else "",
                f"{bench}:rcp_scaling_factor": factor}
    return row | {"details_url": URL.format(org=org, system=system),
                  "code_url": f"https://github.com/mlcommons/training_results_v1.0/blob/master/{org}/benchmarks"}


def planted_tree(root: Path) -> Path:
    """good_tree plus: Acme x3 (resnet 10.0 min, the summary applies RCP factor 1.0347 the tree lacks),
    Acme x4 (two runs did not converge); Acme's summary also names x2, which the tree lacks, and has no
    time for x1's bert; Beta's time differs."""
    good_tree(root)
    write(root, "Acme/systems/x3.json", system_json(name="Acme X3"))
    result_set(root, "Acme", "x3", "resnet", [10.0] * 5)
    write(root, "Acme/systems/x4.json", system_json(name="Acme X4"))
    result_set(root, "Acme", "x4", "resnet", [10.0] * 5, statuses=["success"] * 3 + ["aborted"] * 2)
    write(root, "Acme/summary.json", json.dumps([
        entry("Acme", "x1", "Acme X1", resnet=(30.0, 1.0)),
        entry("Acme", "x2", "Acme X2", resnet=(40.0, 1.0)),
        entry("Acme", "x3", "Acme X3", resnet=(10.347, 1.0347)),
        entry("Acme", "x4", "Acme X4", resnet=(11.0, 1.0)),
    ], indent=2))
    write(root, "Beta/summary.json", json.dumps([entry("Beta", "b64", "Beta 64", resnet=(12.5, 1.0))]))
    return root


def run(root: Path, **options):
    source, facts = open_source(str(root))
    try:
        return ingest(source, facts, V10, jobs=1, compliance=False, **options)
    finally:
        source.close()


def row(result, system: str, benchmark: str):
    rows = result.results[(result.results.system_id == system) & (result.results.benchmark == benchmark)]
    assert len(rows) == 1
    return rows.iloc[0]


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    return run(planted_tree(tmp_path_factory.mktemp("tree")))


def test_the_line_counts_every_planted_difference(planted):
    assert official_line(planted.manifest) == \
        "official summary: 3 compared, 1 equal, 2 differ, 1 only here, 2 only there"
    assert planted.manifest["official_summary"]["files"] == ["Acme/summary.json", "Beta/summary.json"]


def test_each_difference_is_a_row_with_both_values_and_its_cause(planted):
    check = planted.tables["official_check.csv"].set_index(["system_id", "benchmark"])
    assert sorted(check.index) == [("b64", "resnet"), ("x1", "bert"), ("x2", "resnet"), ("x3", "resnet"),
                                   ("x4", "resnet")]
    expect = {("b64", "resnet"): ("differ", "unknown", 12.0, 12.5),
              ("x1", "bert"): ("only_here", "unknown", row(planted, "x1", "bert").score_min, None),
              ("x2", "resnet"): ("only_there", "runs_missing", None, 40.0),
              ("x3", "resnet"): ("differ", "rcp_scaling_factor", 10.0, 10.347),
              ("x4", "resnet"): ("only_there", "compliance_verdict", None, 11.0)}
    for key, (outcome, cause, here, official) in expect.items():
        got = check.loc[key]
        assert (got.outcome, got.cause) == (outcome, cause), key
        assert (pd.isna(got.here) and here is None) or got.here == pytest.approx(here), key
        assert (pd.isna(got.official) and official is None) or got.official == pytest.approx(official), key
    assert check.loc[("x4", "resnet")].cause_detail.startswith("not_converged: 2 of 5 runs failed")
    assert check.loc[("b64", "resnet")].cause_detail == ("the tree's 5 runs score it by the round's rules (status ok); "
                                                         "no known cause")
    assert check.loc[("x2", "resnet")].summary_file == "Acme/summary.json"


def test_an_rcp_factor_the_tree_lacks_gives_the_official_time_and_says_so(planted):
    x3 = row(planted, "x3", "resnet")
    assert x3.score_min == 10.347 and x3.scaling_factor == 1.0347
    assert "MLCommons' summary Acme/summary.json" in x3.status_detail and "no scaling.json" in x3.status_detail
    assert planted.manifest["official_summary"]["official_times_used"] == [{
        "submitter": "Acme", "system_id": "x3", "benchmark": "resnet", "computed_min": 10.0,
        "official_min": 10.347, "rcp_scaling_factor": 1.0347, "file": "Acme/summary.json"}]
    assert row(planted, "b64", "resnet").score_min == 12.0  # a difference with no known cause keeps the tree's time


def test_summaries_are_read_not_ignored(planted):
    assert not [i for i in planted.manifest["ignored"] if i["file"].endswith("summary.json")]


def test_build_py_ingest_prints_the_line_and_writes_official_check_csv(tmp_path):
    tree = planted_tree(tmp_path / "tree")
    done = subprocess.run([sys.executable, "build.py", "ingest", str(tree), "--round", "training-v1.0",
                           "--no-compliance", "--out", str(tmp_path / "out"), "--quiet"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "official summary: 3 compared, 1 equal, 2 differ, 1 only here, 2 only there\n" in done.stdout
    summary = [line for line in done.stdout.splitlines() if line.startswith("training-v1.0: ")]
    assert len(summary) == 1 and "official_check.csv" in summary[0]
    check = pd.read_csv(tmp_path / "out" / "official_check.csv")
    assert len(check) == 5 and set(check.outcome) == {"differ", "only_here", "only_there"}
    results = pd.read_csv(tmp_path / "out" / "results.csv")
    assert list(results.columns) == RESULT_COLUMNS and RESULT_COLUMNS[-1] == "mlcommons_id"


def test_a_tree_without_summaries_prints_nothing_new_and_writes_no_check(tmp_path):
    result = run(good_tree(tmp_path / "tree"))
    assert official_line(result.manifest) is None and "official_summary" not in result.manifest
    written = write_tables(result, tmp_path / "out")
    assert not (tmp_path / "out" / "official_check.csv").exists() and len(written) == 4
    assert (result.results["mlcommons_id"] == "").all()


# --- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("content, words", [
    (b"{not json", "not JSON"),
    (json.dumps({"system": "Acme X1"}).encode(), "not a JSON list of entries"),
    (json.dumps(["Acme X1"]).encode(), "entry 1 is not an object"),
    (json.dumps([{"system": "Acme X1", "resnet:time_to_train": 30.0}]).encode(), "entry 1 lacks 'details_url'"),
    (json.dumps([{"system": "Acme X1", "details_url": "https://example.org/x1"}]).encode(),
     "names no .../systems/<system_id>.json"),
])
def test_a_malformed_summary_is_named_and_left_out(tmp_path, content, words):
    plain = run(good_tree(tmp_path / "plain"))
    tree = good_tree(tmp_path / "tree")
    write(tree, "Acme/summary.json", content)
    result = run(tree)
    problems = [p["problem"] for p in result.problems if p["file"] == "Acme/summary.json"]
    assert len(problems) == 1 and problems[0].startswith("MLCommons summary not used: ") and words in problems[0]
    assert official_line(result.manifest) is None and not result.tables
    pd.testing.assert_frame_equal(result.results, plain.results)


# --- the results table (--official) --------------------------------------------------------------

def summarizer_xlsx(path: Path, sheets: dict[str, list[tuple]]) -> Path:
    """The result summarizer's xlsx layout (``_summaries_to_xlsx``): per division a sheet with four
    header rows (the column names in the last, ``ID`` over the first column), an availability title row,
    then one row per system, its ID first."""
    book = Workbook()
    book.remove(book.active)
    for title, systems in sheets.items():
        sheet = book.create_sheet(title)
        for level in range(3):
            sheet.append([None, " ", " ", " ", " ", "Benchmark results (minutes)"])
        sheet.append(["ID", "division", "availability", "submitter", "system", "resnet"])
        sheet.append(["Available on-premise"])
        for system in systems:
            sheet.append(list(system))
    book.save(path)
    return path


def test_the_summarizer_xlsx_gives_each_system_its_id(tmp_path):
    table = summarizer_xlsx(tmp_path / "results.xlsx", {
        "closed": [("1.0-0001", "closed", "Available on-premise", "Acme", "Acme X1", 30.0),
                   ("1.0-0002", "closed", "Available on-premise", "Acme", "Acme Z9", 31.0)],
        "open": [("1.0-0003", "open", "Available on-premise", "Beta", "b64", 12.0)]})  # by system id
    result = run(good_tree(tmp_path / "tree"), official=table)
    ids = dict(zip(result.results.system_id, result.results.mlcommons_id))
    assert ids == {"x1": "1.0-0001", "b64": "1.0-0003"}
    assert result.manifest["official_ids"] == {"file": str(table), "rows": 3, "matched": 2,
                                               "unmatched": ["closed row 7: 1.0-0002 Acme / Acme Z9"]}


def test_a_csv_table_and_the_printed_line(tmp_path):
    table = write(tmp_path, "ids.csv", "id,submitter,system\n1.0-0007,acme,Acme X1\n1.0-0008,Gamma,G1\n")
    done = subprocess.run([sys.executable, "build.py", "ingest", str(good_tree(tmp_path / "tree")), "--round",
                           "training-v1.0", "--no-compliance", "--out", str(tmp_path / "out"), "--quiet",
                           "--official", str(table)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (f"MLCommons results table {table}: 1 of 2 rows matched a system; not matched: line 3: 1.0-0008 Gamma / G1"
            in done.stdout)
    results = pd.read_csv(tmp_path / "out" / "results.csv", dtype={"mlcommons_id": str})
    assert results.set_index("system_id").loc["x1"].mlcommons_id.tolist() == ["1.0-0007", "1.0-0007"]
    assert pd.isna(results.set_index("system_id").loc["b64"].mlcommons_id)  # empty: the table does not name it


@pytest.mark.parametrize("name, make, words", [
    ("ids.csv", lambda p: p.write_text("submitter,system\nAcme,Acme X1\n"), "without the column(s) id"),
    ("ids.xlsx", lambda p: p.write_bytes(b"not a workbook"), "not an xlsx workbook"),
    ("ids.xlsx", lambda p: _wrong_sheet(p), "sheet 'Notes' has no header row"),
    ("missing.csv", lambda p: None, "cannot read it"),
])
def test_a_malformed_table_is_named_and_left_out(tmp_path, name, make, words):
    table = tmp_path / name
    make(table)
    plain = run(good_tree(tmp_path / "plain"))
    result = run(good_tree(tmp_path / "tree"), official=table)
    problems = [p["problem"] for p in result.problems if p["file"] == str(table)]
    assert len(problems) == 1 and words in problems[0], problems
    assert "official_ids" not in result.manifest and (result.results["mlcommons_id"] == "").all()
    pd.testing.assert_frame_equal(result.results, plain.results)


def _wrong_sheet(path: Path) -> None:
    book = Workbook()
    book.active.title = "Notes"
    book.active.append(["These results are preliminary"])
    book.save(path)


def test_the_figures_and_the_notes_say_which_times_are_mlcommons_published_ones(planted):
    """The result the summary gives an RCP factor the tree lacks is named in the benchmark's figures,
    in its own footnote and in a note of the report, in both languages."""
    import copy

    import yaml

    from mlperf_report.core import paths
    from mlperf_report.narrative import rendering
    from mlperf_report.suites.training import figures, narrative

    results = planted.results.assign(display_name=planted.results["system_name"])
    found = figures._official_times(results, "resnet", "training-v1.0")
    assert [(r["system_id"], r["minutes"], r["official_factor"]) for r in found] == [("x3", 10.347, 1.0347)]
    assert figures._official_times(results, "bert", "training-v1.0") == []
    plain = results[results["system_id"] != "x3"]
    assert all(figures.system_result(r, round_id="training-v1.0")["official_factor"] is None for _, r in plain.iterrows())

    fixtures = Path(__file__).parents[2] / "fixtures" / "figures" / "graphcore"
    figs = copy.deepcopy(rendering.load_figures(fixtures)[0])
    resnet = figs["resnet"]
    resnet["official_times"] = found
    resnet["focus"]["closed"][0]["official_factor"] = 1.0347
    config = yaml.safe_load((paths.DATA / "report.yaml").read_text(encoding="utf-8"))
    en = narrative.render(figs, None, config, "en", "text").notes
    zh = narrative.render(figs, None, config, "zh-Hant", "text").notes
    assert "The time to train is MLCommons' published one: its summary applies an RCP scaling factor of 1.0347" in en
    assert "Times to train from MLCommons' own summary: for Acme X3 (Acme, " in en and "10.35 minutes" in en
    assert "此訓練時間採用 MLCommons 公布的數值：其摘要套用 RCP 縮放係數 1.0347" in zh
    assert "採用 MLCommons 摘要的訓練時間：Acme X3（Acme，" in zh
    del resnet["official_times"], resnet["focus"]["closed"][0]["official_factor"]
    assert "MLCommons' published" not in narrative.render(figs, None, config, "en", "text").notes
