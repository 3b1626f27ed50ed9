"""The input limits of ``core.limits`` that no real round reaches, each met on purpose: the per-round
byte limit, the scaling.json size limit, the longest path, the largest file given to the compliance
checker. The real values are far above a small tree, so most tests lower one limit for the test
(monkeypatch; the ingest runs in process for trees this small) and check what a user then sees."""

from __future__ import annotations

import json
import math
import tarfile
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from mlperf_report.core import limits
from mlperf_report.core.sources import open_source
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import ingest
from trees import good_tree, write

V10 = rounds.parse_round("training-v1.0")
V20 = rounds.parse_round("training-v2.0")


def run_ingest(source_path, round_=V10, **kwargs):
    source, facts = open_source(str(source_path))
    try:
        return ingest(source, facts, round_, jobs=1, **{"compliance": False, **kwargs})
    finally:
        source.close()


def row(res, system, benchmark):
    rows = res.results[(res.results.system_id == system) & (res.results.benchmark == benchmark)]
    assert len(rows) == 1, (system, benchmark)
    return rows.iloc[0]


def problems_naming(res, limit):
    return sorted(p["file"] for p in res.problems if f"limit {limit}" in p["problem"])


# --- MAX_ROUND_BYTES: the result files of one round together ------------------------------------------

def test_the_round_byte_limit_stops_reading_exactly_past_it(tmp_path, monkeypatch):
    tree = good_tree(tmp_path / "training_results_v1.0")
    total = sum(p.stat().st_size for p in tree.rglob("result_*.txt"))
    monkeypatch.setattr(limits, "MAX_ROUND_BYTES", total)  # exactly what the round holds: all read
    res = run_ingest(tree)
    assert problems_naming(res, "MAX_ROUND_BYTES") == []
    assert [row(res, *key).status for key in [("x1", "resnet"), ("x1", "bert"), ("b64", "resnet")]] == ["ok"] * 3

    monkeypatch.setattr(limits, "MAX_ROUND_BYTES", total - 1)  # one byte less: the last file is not read
    res = run_ingest(tree)
    [skipped] = problems_naming(res, "MAX_ROUND_BYTES")
    assert "not read: the round's result files hold more than" in next(
        p["problem"] for p in res.problems if p["file"] == skipped)
    unread = res.runs.set_index("file").loc[skipped]
    assert not unread.converged and pd.isna(unread.time_to_train_min) and pd.isna(unread.run_start_ms)
    system, benchmark = Path(skipped).parts[2:4]
    # the unread file counts as a run that did not converge (as an unreadable one does), never as a time
    counted = row(res, system, benchmark)
    assert (counted.runs_found, counted.runs_converged) == (5, 4)


def test_the_round_byte_limit_holds_for_inference_too(tmp_path, monkeypatch):
    """The shared reader's limit is every suite's: an Inference round past it lists the result folders
    it did not read, by their summary file, and still tables the rest."""
    from mlperf_report.suites.inference.ingest import ingest as ingest_inference
    from mlperf_report.suites.inference.rounds import parse_round
    from tests.inference_trees import inference_tree

    tree = inference_tree(tmp_path / "tree")
    source, facts = open_source(str(tree))
    try:
        everything = ingest_inference(source, facts, parse_round("inference-v4.1"))
        monkeypatch.setattr(limits, "MAX_ROUND_BYTES", 1)
        none = ingest_inference(source, facts, parse_round("inference-v4.1"))
    finally:
        source.close()
    assert problems_naming(everything, "MAX_ROUND_BYTES") == [] and len(everything.results) > 1
    unread = problems_naming(none, "MAX_ROUND_BYTES")
    assert len(unread) == len(everything.results) and all(name.endswith("mlperf_log_summary.txt") or
                                                          name.endswith(".json") for name in unread)
    assert none.results.empty


# --- scaling.json: at most MAX_JSON_BYTES, and an unusable one never scales a score silently -----------

def test_a_scaling_json_over_the_size_limit_leaves_its_set_unscored_where_scaling_applies(tmp_path):
    tree = good_tree(tmp_path / "tree")
    write(tree, "Acme/results/x1/resnet/scaling.json",
          json.dumps({"scaling_factor": 1.1, "notes": " " * limits.MAX_JSON_BYTES}))
    write(tree, "Beta/results/b64/resnet/scaling.json", json.dumps({"scaling_factor": 1.1}))
    for source in (tree, _zip(tree, tmp_path / "tree.zip"), _tar(tree, tmp_path / "tree.tar")):
        res = run_ingest(source, V20)
        assert problems_naming(res, "MAX_JSON_BYTES") == ["Acme/results/x1/resnet/scaling.json"], res.problems
        big = row(res, "x1", "resnet")
        assert big.status == "invalid" and math.isnan(big.score_min) and "scaling.json is unusable" in big.status_detail
        assert row(res, "b64", "resnet").score_min == pytest.approx(12.0 * 1.1)  # a readable one still applies
        assert row(res, "x1", "bert").status == "ok"
    before_v2 = run_ingest(tree, V10)  # a round before v2.0 does not apply scaling: the size does not matter
    assert row(before_v2, "x1", "resnet").score_min == pytest.approx(30.0)
    assert problems_naming(before_v2, "MAX_JSON_BYTES") == ["Acme/results/x1/resnet/scaling.json"]


def test_a_scaling_json_at_the_size_limit_is_read(tmp_path):
    tree = good_tree(tmp_path / "tree")
    text = json.dumps({"scaling_factor": 1.1, "notes": ""})
    text = text[:-3] + " " * (limits.MAX_JSON_BYTES - len(text)) + text[-3:]
    assert len(text.encode()) == limits.MAX_JSON_BYTES
    write(tree, "Acme/results/x1/resnet/scaling.json", text)
    res = run_ingest(tree, V20)
    assert problems_naming(res, "MAX_JSON_BYTES") == []
    assert row(res, "x1", "resnet").score_min == pytest.approx(33.0)


def _zip(tree: Path, path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for file in sorted(p for p in tree.rglob("*") if p.is_file()):
            zf.write(file, str(file.relative_to(tree)))
    return path


def _tar(tree: Path, path: Path) -> Path:
    with tarfile.open(path, "w") as tar:
        tar.add(tree, arcname=".")
    return path


# --- MAX_PATH_CHARS: the longest name listed from a source -------------------------------------------

def test_a_path_longer_than_the_limit_is_a_problem_and_one_at_the_limit_is_read(tmp_path):
    """Names in an archive have no file system limit; a system folder name makes the path as long as
    needed: at MAX_PATH_CHARS it is an ordinary (unscored: no systems JSON) result set, one longer
    is refused with a problem line naming the limit."""
    tree = good_tree(tmp_path / "tree")
    lines = (tree / "Acme/results/x1/resnet/result_0.txt").read_bytes()

    def name(length: int, system: str) -> str:
        head, tail = f"Acme/results/{system}", "/resnet/result_0.txt"
        return head + "s" * (length - len(head) - len(tail)) + tail

    at, over = name(limits.MAX_PATH_CHARS, "a"), name(limits.MAX_PATH_CHARS + 1, "o")
    assert (len(at), len(over)) == (limits.MAX_PATH_CHARS, limits.MAX_PATH_CHARS + 1)
    path = _zip(tree, tmp_path / "tree.zip")
    with zipfile.ZipFile(path, "a") as zf:
        zf.writestr(at, lines)
        zf.writestr(over, lines)
    res = run_ingest(path)
    assert problems_naming(res, "MAX_PATH_CHARS") == [over]
    assert at in set(res.runs.file) and over not in set(res.runs.file)
    assert row(res, at.split("/")[2], "resnet").status == "incomplete"  # 1 of 5 runs: listed, not refused
    assert over.split("/")[2] not in set(res.results.system_id)
    assert row(res, "x1", "resnet").status == "ok"


# --- MAX_CHECKED_BYTES: the largest file handed whole to the compliance checker -----------------------

@pytest.mark.parametrize("kind", ["folder", "zip", "tar"])
def test_a_file_over_the_checked_size_is_scanned_but_given_no_verdict(tmp_path, monkeypatch, kind):
    tree = good_tree(tmp_path / "tree")
    big = tree / "Acme/results/x1/resnet/result_2.txt"
    big.write_text(big.read_text() + "ordinary log output\n" * 200)
    sizes = sorted(p.stat().st_size for p in tree.rglob("result_*.txt"))
    assert sizes[-1] == big.stat().st_size > sizes[-2]
    monkeypatch.setattr(limits, "MAX_CHECKED_BYTES", big.stat().st_size - 1)  # only the big file is over
    source = {"folder": tree, "zip": _zip(tree, tmp_path / "t.zip"), "tar": _tar(tree, tmp_path / "t.tar")}[kind]
    res = run_ingest(source, compliance=True, cache_dir=tmp_path / "cache")
    assert problems_naming(res, "MAX_CHECKED_BYTES") == ["Acme/results/x1/resnet/result_2.txt"]
    runs = res.runs.set_index("file")
    unchecked = runs.loc["Acme/results/x1/resnet/result_2.txt"]
    assert unchecked.compliant is None or unchecked.compliant != unchecked.compliant  # no verdict: empty
    assert unchecked.time_to_train_min == pytest.approx(29.0)  # still scanned: its run_stop was found
    others = runs.drop(index="Acme/results/x1/resnet/result_2.txt")
    assert others.compliant.notna().all()  # every other file got the checker's verdict
    assert res.manifest["compliance"]["files_checked"] == len(others)
