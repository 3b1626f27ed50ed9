"""Ingest on small trees the tests build: official scoring, every bad-input scenario, every source kind."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from mlperf_report.suites.training import rounds
from mlperf_report.core.errors import InputError
from mlperf_report.suites.training.ingest import ingest, write_tables
from mlperf_report.suites.training.mllog import scan_buffer, scan_stream
from mlperf_report.suites.training.scoring import olympic_average
from mlperf_report.core.sources import open_source

from trees import T0, good_tree, mllog, result_set, run_log, system_json, write

ROOT = Path(__file__).resolve().parents[3]
V10 = rounds.parse_round("training-v1.0")


def run_ingest(source_path, round_=V10, jobs=1, compliance=False, **kwargs):
    source, facts = open_source(str(source_path))
    try:
        return ingest(source, facts, round_, jobs=jobs, compliance=compliance, **kwargs)
    finally:
        source.close()


def result(res, system, benchmark):
    rows = res.results[(res.results.system_id == system) & (res.results.benchmark == benchmark)]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def problems_for(res, fragment):
    return [p["problem"] for p in res.problems if fragment in p["file"]]


# --- scoring rules ------------------------------------------------------------------------------

def test_olympic_average_drops_fastest_and_slowest():
    assert olympic_average([30, 31, 29, 35, 28], failed=0, drop=1) == 30.0


def test_non_converged_runs_count_as_the_dropped_slowest():
    # 9 converged runs, 1 failed: the failed one is the dropped slowest, the fastest is dropped too.
    assert olympic_average([20, 21, 22, 23, 24, 25, 26, 27, 28], failed=1, drop=1) == 24.5


def test_unet3d_drops_four_at_each_end():
    minutes = list(range(1, 41))
    assert rounds.dropped_each_side("unet3d") == 4
    assert olympic_average(minutes, failed=0, drop=4) == sum(range(5, 37)) / 32


def test_good_tree_scores(tmp_path):
    res = run_ingest(good_tree(tmp_path / "tree"))
    resnet = result(res, "x1", "resnet")
    assert resnet.status == "ok" and resnet.score_min == pytest.approx(30.0)
    bert = result(res, "x1", "bert")
    assert bert.status == "ok" and bert.score_min == pytest.approx(24.5)
    assert bert.runs_found == 10 and bert.runs_converged == 9 and bert.runs_required == 10
    beta = result(res, "b64", "resnet")
    assert beta.division == "open" and beta.accelerators == 64 and beta.host_processors == 8
    assert beta.score_min == pytest.approx(12.0)
    assert res.problems == []
    aborted = res.runs[(res.runs.benchmark == "bert") & (~res.runs.converged)]
    assert aborted.stop_status.tolist() == ["aborted"]


def test_too_many_failed_runs_means_no_score(tmp_path):
    root = tmp_path / "tree"
    write(root, "Acme/systems/x1.json", system_json())
    result_set(root, "Acme", "x1", "resnet", [30, 31, 29, 35, 28], statuses=["success"] * 3 + ["aborted"] * 2)
    row = result(run_ingest(root), "x1", "resnet")
    assert row.status == "not_converged" and pd.isna(row.score_min)
    assert "2 of 5 runs failed" in row.status_detail


def test_incomplete_result_set_is_not_scored(tmp_path):
    root = tmp_path / "tree"
    write(root, "Acme/systems/x1.json", system_json())
    result_set(root, "Acme", "x1", "bert", [20.0])
    row = result(run_ingest(root), "x1", "bert")
    assert row.status == "incomplete" and pd.isna(row.score_min)
    assert row.status_detail == "incomplete: 1 of 10 runs present"


def test_absent_list_and_empty_folders_make_incomplete_sets(tmp_path):
    root = tmp_path / "training_results_v1.0"
    write(root, "Acme/systems/x1.json", system_json())
    result_set(root, "Acme", "x1", "bert", [20.0])
    (root / "Acme/results/x1/ssd").mkdir(parents=True)
    absent = ["training_results_v1.0/Acme/results/x1/bert/result_1.txt",
              "training_results_v1.0/Acme/results/x1/resnet/result_0.txt",
              "training_results_v0.7/Acme/results/x1/gnmt/result_0.txt"]
    res = run_ingest(root, absent=absent)
    assert "1 listed as absent" in result(res, "x1", "bert").status_detail
    resnet = result(res, "x1", "resnet")
    assert resnet.status == "incomplete" and resnet.runs_found == 0
    assert result(res, "x1", "ssd").status_detail == "incomplete: 0 of 5 runs present"
    assert "gnmt" not in set(res.results.benchmark)


def test_scaling_json_applies_from_v2_only(tmp_path):
    root = tmp_path / "tree"
    good_tree(root)
    write(root, "Acme/results/x1/resnet/scaling.json", json.dumps({"scaling_factor": 1.1}))
    assert result(run_ingest(root), "x1", "resnet").score_min == pytest.approx(30.0)
    v20 = run_ingest(root, round_=rounds.parse_round("training-v2.0"))
    row = result(v20, "x1", "resnet")
    assert row.score_min == pytest.approx(33.0) and row.scaling_factor == pytest.approx(1.1)


# --- bad input ------------------------------------------------------------------------------------

def test_stray_files_are_ignored_and_listed(tmp_path):
    root = good_tree(tmp_path / "tree")
    write(root, "Acme/results/README.md", "# notes")
    write(root, "Acme/systems/.x1.json.swp", b"\x00\x01binary")
    write(root, "Acme/results/x1/resnet/notes.txt", "not a result")
    write(root, "Gamma Corp/systems/X660 G45.json", system_json(submitter="Gamma Corp"))
    result_set(root, "Gamma Corp", "X660 G45", "resnet", [10, 11, 12, 13, 14])
    res = run_ingest(root)
    ignored = {i["file"] for i in res.manifest["ignored"]}
    assert {"Acme/results/README.md", "Acme/systems/.x1.json.swp", "Acme/results/x1/resnet/notes.txt"} <= ignored
    assert result(res, "X660 G45", "resnet").score_min == pytest.approx(12.0)
    assert result(res, "x1", "resnet").score_min == pytest.approx(30.0)


def test_missing_and_malformed_systems_json(tmp_path):
    root = good_tree(tmp_path / "tree")
    result_set(root, "Acme", "nojson", "resnet", [10, 11, 12, 13, 14])
    write(root, "Acme/systems/broken.json", '{"submitter": "Acme", "division": ')
    result_set(root, "Acme", "broken", "resnet", [10, 11, 12, 13, 14])
    res = run_ingest(root)
    for system in ("nojson", "broken"):
        row = result(res, system, "resnet")
        assert row.status == "no_system_json" and pd.isna(row.score_min)
    assert any("not valid JSON" in p for p in problems_for(res, "Acme/systems/broken.json"))
    assert result(res, "x1", "resnet").status == "ok"


def test_system_json_matched_without_case(tmp_path):
    root = tmp_path / "tree"
    write(root, "Acme/systems/DGX-X1.json", system_json())
    result_set(root, "Acme", "dgx-x1", "resnet", [10, 11, 12, 13, 14])
    res = run_ingest(root)
    assert result(res, "dgx-x1", "resnet").status == "ok"
    assert any("differs in case" in p for p in problems_for(res, "Acme/results/dgx-x1"))


@pytest.mark.parametrize("content, expected", [
    (run_log(None), "no run_stop line"),
    (run_log(30.0, start=False), "no run_start line"),
    (run_log(30.0)[:-200], "truncated"),
    (b"\xff\xfe binary garbage with no MLLOG lines at all\n", "not an MLLOG result log"),
    (b"", "empty file"),
])
def test_unscorable_logs_count_as_failed_runs(tmp_path, content, expected):
    root = good_tree(tmp_path / "tree")
    write(root, "Acme/results/x1/resnet/result_4.txt", content)
    res = run_ingest(root)
    assert any(expected in p for p in problems_for(res, "x1/resnet/result_4.txt")), res.problems
    row = result(res, "x1", "resnet")  # one failed run of five may be dropped
    assert row.status == "ok" and row.runs_converged == 4
    # runs left: 30, 31, 29, 35; the fastest (29) is dropped, the failed run counts as the slowest
    assert row.score_min == pytest.approx((30 + 31 + 35) / 3)


def test_bad_json_and_non_utf8_lines(tmp_path):
    root = good_tree(tmp_path / "tree")
    log = run_log(30.0).replace('"key": "seed", ', '"key": "seed", broken, ')
    log = log.replace(mllog("submission_org", T0 - 5000, "Acme"), mllog("submission_org", T0 - 5000, "ACME-BAD"))
    data = log.encode().replace(b"ACME-BAD", b"Acm\xe9")
    write(root, "Acme/results/x1/resnet/result_0.txt", data)
    res = run_ingest(root)
    found = problems_for(res, "x1/resnet/result_0.txt")
    assert any("line 4: MLLOG line is not valid JSON" in p for p in found), found
    assert any("line 3: MLLOG line is not valid UTF-8" in p for p in found), found
    assert result(res, "x1", "resnet").runs_converged == 5


def test_unknown_benchmarks(tmp_path):
    root = good_tree(tmp_path / "tree")
    result_set(root, "Acme", "x1", "gnmt", [float(10 + i) for i in range(10)])
    result_set(root, "Acme", "x1", "teleport", [10, 11, 12])
    res = run_ingest(root)
    gnmt = result(res, "x1", "gnmt")
    assert gnmt.status == "ok" and "not a training-v1.0 benchmark" in gnmt.status_detail
    assert gnmt.score_min == pytest.approx(14.5)
    assert result(res, "x1", "teleport").status == "unknown_benchmark"


def test_empty_source_is_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no result files found"):
        run_ingest(tmp_path / "empty")


def test_archive_entries_escaping_the_tree_are_refused(tmp_path):
    tree = good_tree(tmp_path / "tree")
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(tree.rglob("*")):
            if path.is_file():
                zf.write(path, f"top/{path.relative_to(tree)}")
        zf.writestr("top/../../escape.txt", "pwned")
        zf.writestr("/etc/evil.json", "{}")
    res = run_ingest(archive)
    refused = {p["file"].rsplit("/", 1)[-1]: p["problem"] for p in res.problems}
    assert "escape" in refused["escape.txt"] and "absolute" in refused["evil.json"], res.problems
    assert not (tmp_path / "escape.txt").exists()
    assert result(res, "x1", "resnet").score_min == pytest.approx(30.0)

    tar_path = tmp_path / "evil.tar.gz"
    with tarfile.open(tar_path, "w:gz") as tar:
        tar.add(tree, arcname="top")
        info = tarfile.TarInfo("top/../outside.txt")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"bad"))
    res = run_ingest(tar_path)
    assert any("escape" in p["problem"] for p in res.problems if p["file"].endswith("outside.txt"))


# --- sources and outputs --------------------------------------------------------------------------

def _tables(res, out):
    write_tables(res, out)
    return {name: (out / name).read_bytes() for name in ("runs.csv", "results.csv", "systems.csv")}


def test_folder_zip_tar_and_git_give_identical_tables(tmp_path):
    tree = good_tree(tmp_path / "training_results_v1.0")
    zip_path = tmp_path / "training_results_v1.0.zip"
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(tree.rglob("*")):
            zf.write(path, f"training_results_v1.0/{path.relative_to(tree)}")
    tar_path = tmp_path / "training_results_v1.0.tar.xz"
    with tarfile.open(tar_path, "w:xz") as tar:
        tar.add(tree, arcname="training_results_v1.0")
    repo = tmp_path / "repo" / "training_results_v1.0"
    subprocess.run(["cp", "-r", str(tree), str(repo.parent)], check=True) if repo.parent.mkdir(parents=True) is None else None
    git = ["git", "-C", str(repo), "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "results"], check=True)
    folder = _tables(run_ingest(tree), tmp_path / "a")
    for i, source in enumerate([zip_path, tar_path, f"file://{repo}"]):
        assert _tables(run_ingest(source, jobs=2), tmp_path / f"out{i}") == folder, source


def test_outputs_are_deterministic_and_complete(tmp_path):
    tree = good_tree(tmp_path / "tree")
    first = _tables(run_ingest(tree), tmp_path / "one")
    second = _tables(run_ingest(tree, jobs=2), tmp_path / "two")
    assert first == second
    assert (tmp_path / "one/manifest.json").read_bytes() == (tmp_path / "two/manifest.json").read_bytes()
    header = first["results.csv"].decode().splitlines()[0].split(",")
    for column in ["round", "division", "availability", "submitter", "system_id", "system_name", "benchmark",
                   "score_min", "runs_found", "runs_required", "runs_converged", "scaling_factor", "status",
                   "accelerator_model", "accelerators", "host_processor_model", "host_processors", "nodes",
                   "framework"]:
        assert column in header
    assert not list((tmp_path / "one").glob("*.tmp"))


def test_stream_scanner_agrees_with_mmap_scanner_across_chunk_boundaries():
    data = run_log(42.0, noise=300).encode()
    whole = scan_buffer(data)
    for chunk in (7, 64, 1000):
        part = scan_stream(io.BytesIO(data), chunk_bytes=chunk)
        assert (part.run_start_ms, part.run_stop_ms, part.stop_status, part.values) == \
               (whole.run_start_ms, whole.run_stop_ms, whole.stop_status, whole.values)
    assert whole.minutes == pytest.approx(42.0) and whole.values["seed"] == 1


def test_cli_infers_round_writes_and_strict_fails(tmp_path):
    tree = good_tree(tmp_path / "training_results_v1.0")
    write(tree, "Acme/results/x1/resnet/result_9.txt", run_log(None))
    out = tmp_path / "out"
    cmd = [sys.executable, str(ROOT / "build.py"), "ingest", str(tree), "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "training-v1.0:" in done.stdout and "no run_stop line" in done.stderr
    assert json.loads((out / "manifest.json").read_text())["round"] == "training-v1.0"
    strict = subprocess.run(cmd + ["--strict"], capture_output=True, text=True, cwd=ROOT)
    assert strict.returncode == 1 and "--strict" in strict.stderr
    missing = subprocess.run([sys.executable, str(ROOT / "build.py"), "ingest", str(tmp_path / "nope"),
                              "--round", "training-v1.0", "--out", str(tmp_path / "nope-out")],
                             capture_output=True, text=True, cwd=ROOT)
    assert missing.returncode == 2 and "no such folder" in missing.stderr and "Traceback" not in missing.stderr


def test_existing_tables_survive_a_failed_ingest(tmp_path):
    out = tmp_path / "out"
    write_tables(run_ingest(good_tree(tmp_path / "tree")), out)
    before = (out / "results.csv").read_bytes()
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError):
        write_tables(run_ingest(tmp_path / "empty"), out)
    assert (out / "results.csv").read_bytes() == before
