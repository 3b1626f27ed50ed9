"""Issue 12: broken and hostile results trees end in clear problems, never a traceback or a blown
machine, and the rest of the round is still scored. Each tree is built by the test."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from mlperf_report.core import limits
from mlperf_report.core.errors import InputError, UserError
from mlperf_report.core.sources import open_source
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import ingest, write_tables
from trees import T0, good_tree, mllog, run_log, system_json, write

ROOT = Path(__file__).resolve().parents[3]
V10 = rounds.parse_round("training-v1.0")


def run_ingest(source_path, jobs=1):
    source, facts = open_source(str(source_path))
    try:
        return ingest(source, facts, V10, jobs=jobs, compliance=False)  # these trees test reading, not the checker
    finally:
        source.close()


def problems_for(res, fragment):
    return [p["problem"] for p in res.problems if fragment in p["file"]]


def status(res, system, benchmark):
    rows = res.results[(res.results.system_id == system) & (res.results.benchmark == benchmark)]
    return rows.iloc[0]["status"]


def assert_good_results_intact(res):
    assert status(res, "x1", "resnet") == "ok" and status(res, "b64", "resnet") == "ok"


def zip_tree(tree: Path, zip_path: Path, extra: dict[str, bytes] = {}) -> Path:
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(p for p in tree.rglob("*") if p.is_file() and str(p.relative_to(tree)) not in extra):
            zf.write(path, str(path.relative_to(tree)))
        for name, data in extra.items():
            zf.writestr(name, data)
    return zip_path


# --- times -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("stop", ["Infinity", "NaN", "1e308", str(T0 + 1e9 * 60_000)])
def test_non_finite_or_absurd_run_stop_is_a_problem_not_a_score(tmp_path, stop):
    tree = good_tree(tmp_path / "tree")
    path = tree / "Acme/results/x1/resnet/result_0.txt"
    text = path.read_text().replace(mllog("run_stop", T0 + 30.0 * 60_000, None, status="success"),
                                    ':::MLLOG {"key": "run_stop", "time_ms": %s, "value": null, '
                                    '"metadata": {"status": "success"}}' % stop)
    path.write_text(text)
    res = run_ingest(tree)
    assert any("run_stop" in p and ("finite" in p or "MAX_RUN_MINUTES" in p)
               for p in problems_for(res, "x1/resnet/result_0.txt")), res.problems
    run = res.runs[res.runs.file.str.endswith("x1/resnet/result_0.txt")].iloc[0]
    assert not run["converged"] and (run["time_to_train_min"] != run["time_to_train_min"] or run["time_to_train_min"] is None)
    scores = res.results[res.results.status == "ok"]["score_min"]
    assert scores.max() < 1000  # nothing scored at 5.6e302 minutes
    write_tables(res, tmp_path / "out")


# --- one bad file ------------------------------------------------------------------------------------

def test_corrupt_zip_members_are_problems(tmp_path):
    tree = good_tree(tmp_path / "tree")
    zip_path = zip_tree(tree, tmp_path / "training_results_v1.0.zip")
    data = bytearray(zip_path.read_bytes())
    with zipfile.ZipFile(zip_path) as zf:
        for name in ("Acme/results/x1/bert/result_3.txt", "Acme/systems/x1.json"):
            info = zf.getinfo(name)
            start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
            data[start:start + 4] = b"\xff\xff\xff\xff"  # garbage in the deflate stream
    zip_path.write_bytes(bytes(data))
    res = run_ingest(zip_path, jobs=2)
    assert problems_for(res, "bert/result_3.txt") and problems_for(res, "systems/x1.json"), res.problems
    assert status(res, "b64", "resnet") == "ok"
    write_tables(res, tmp_path / "out")


def test_non_utf8_file_names_in_folder_and_tar(tmp_path):
    tree = good_tree(tmp_path / "training_results_v1.0")
    bad = os.path.join(os.fsencode(tree / "Acme/results/x1/resnet"), b"result_\xff\xfe.txt")
    with open(bad, "wb") as handle:
        handle.write(run_log(30.0).encode())
    os.makedirs(os.path.join(os.fsencode(tree), b"Beta/results/\xe9t\xe9"), exist_ok=True)
    tar_path = tmp_path / "training_results_v1.0.tar.gz"
    with tarfile.open(tar_path, "w:gz") as tar:
        tar.add(tree, arcname="training_results_v1.0")
    for source in (tree, tar_path):
        res = run_ingest(source)
        assert any("not valid UTF-8" in p["problem"] for p in res.problems), res.problems
        assert_good_results_intact(res)
        out = tmp_path / f"out-{source.name}"
        write_tables(res, out)
        # the tables are written, strict UTF-8, and say what they must: the bad name is a problem line
        # with its undecodable bytes shown as U+FFFD, the good results are scored, the bad file is no run
        texts = {name: (out / name).read_bytes().decode("utf-8")
                 for name in ("runs.csv", "results.csv", "systems.csv", "manifest.json")}
        manifest = json.loads(texts["manifest.json"])
        assert {"file": "Acme/results/x1/resnet/result_\ufffd\ufffd.txt",
                "problem": "file name is not valid UTF-8; ignored"} in manifest["problems"], manifest["problems"]
        results = {(r["system_id"], r["benchmark"]): r for r in csv.DictReader(io.StringIO(texts["results.csv"]))}
        assert results[("x1", "resnet")]["status"] == "ok" and results[("x1", "resnet")]["runs_found"] == "5"
        runs = [r["file"] for r in csv.DictReader(io.StringIO(texts["runs.csv"]))]
        assert len(runs) == 20 and not [f for f in runs if "\ufffd" in f]


def test_deeply_nested_json_in_systems_file_and_log_line(tmp_path):
    tree = good_tree(tmp_path / "tree")
    write(tree, "Acme/systems/x1.json", '{"submitter": ' + "[" * 200_000 + "]" * 200_000 + "}")
    path = tree / "Beta/results/b64/resnet/result_0.txt"
    path.write_text(':::MLLOG {"key": "run_start", "value": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
                    + path.read_text())
    res = run_ingest(tree)
    assert any("MAX_JSON_DEPTH" in p for p in problems_for(res, "systems/x1.json")), res.problems
    assert any("MAX_JSON_DEPTH" in p for p in problems_for(res, "b64/resnet/result_0.txt")), res.problems
    assert status(res, "b64", "resnet") == "ok"  # the real run_start line further down still counts


def test_lone_surrogates_in_json_text_are_written(tmp_path):
    """JSON may spell "\\ud800", which no UTF-8 file can hold: the tables are still written."""
    tree = good_tree(tmp_path / "tree")
    write(tree, "Acme/systems/x1.json", system_json().replace('"Acme X1"', '"Acme \\ud800 X1"'))
    path = tree / "Acme/results/x1/resnet/result_0.txt"
    path.write_text(path.read_text().replace('"global_batch_size", "value": 256', '"global_batch_size", "value": "\\udc80"'))
    write_tables(run_ingest(tree), tmp_path / "out")
    assert "Acme ? X1" in (tmp_path / "out" / "systems.csv").read_text(encoding="utf-8")


def test_a_folder_nested_a_thousand_deep_is_refused_not_a_crash(tmp_path):
    tree = good_tree(tmp_path / "tree")
    top = deep = str(tree / "Acme/results")
    for _ in range(1100):  # os.makedirs itself recurses too deep for this
        deep = os.path.join(deep, "d")
        os.mkdir(deep)
    try:
        res = run_ingest(tree)
        assert any("MAX_PATH_DEPTH" in p["problem"] for p in res.problems)
        assert_good_results_intact(res)
    finally:  # pytest's own clean-up (shutil.rmtree) recurses and would fail on this folder later
        while deep != top:
            os.rmdir(deep)
            deep = os.path.dirname(deep)


def test_a_cut_tar_keeps_what_came_before(tmp_path):
    tree = good_tree(tmp_path / "training_results_v1.0")
    tar_path = tmp_path / "training_results_v1.0.tar"
    with tarfile.open(tar_path, "w") as tar:
        for path in sorted(tree.rglob("*")):
            tar.add(path, arcname=str(path.relative_to(tree.parent)), recursive=False)
    data = tar_path.read_bytes()
    tar_path.write_bytes(data[: len(data) * 2 // 3])
    res = run_ingest(tar_path)
    assert res.manifest["counts"]["result_files"] > 0 and res.problems


# --- limits ------------------------------------------------------------------------------------------

def test_oversized_systems_json_is_refused_by_its_size(tmp_path):
    tree = good_tree(tmp_path / "tree")
    big = json.dumps({**json.loads(system_json()), "notes": "x" * (limits.MAX_JSON_BYTES + 10)})
    zip_path = zip_tree(tree, tmp_path / "t.zip", {"Acme/systems/x1.json": big.encode()})
    res = run_ingest(zip_path)
    assert any("MAX_JSON_BYTES" in p for p in problems_for(res, "systems/x1.json")), res.problems
    assert status(res, "b64", "resnet") == "ok"


_MEMORY_PROBE = r"""
import json, sys, time
def peak_mb():  # VmHWM: this program's own peak (ru_maxrss would include the parent it was forked from)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
from mlperf_report.core.sources import open_source
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import ingest
source, facts = open_source(sys.argv[1])
started = time.perf_counter()
res = ingest(source, facts, rounds.parse_round("training-v1.0"), jobs=1)
print(json.dumps({"peak_mb": peak_mb(),
                  "seconds": time.perf_counter() - started, "problems": res.problems,
                  "bytes_scanned": res.manifest["counts"]["bytes_scanned"]}))
"""


def test_endless_line_and_huge_line_with_a_key_stay_in_bounded_memory(tmp_path):
    """A 525 KB zip inflating to 512 MB with no newline took 1.1 GB; a 300 MB line holding a wanted
    key 1.3 GB. Here: 200 MB without a newline and a 60 MB line with ``run_stop``, in one zip."""
    tree = good_tree(tmp_path / "tree")
    zip_path = zip_tree(tree, tmp_path / "training_results_v1.0.zip")
    with zipfile.ZipFile(zip_path, "a", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("Acme/results/x1/resnet/result_9.txt", "w") as member:
            block = b"A" * (1 << 20)
            for _ in range(200):
                member.write(block)
        with zf.open("Acme/results/x1/resnet/result_8.txt", "w") as member:
            member.write(run_log(None).encode())
            member.write(b':::MLLOG {"key": "run_stop", "time_ms": 1, "value": "')
            for _ in range(60):
                member.write(block)
            member.write(b'"}\n')
    done = subprocess.run([sys.executable, "-c", _MEMORY_PROBE, str(zip_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["peak_mb"] < 300, report["peak_mb"]
    lines = [p["problem"] for p in report["problems"]]
    assert any("result_9.txt" in p["file"] and "MAX_LINE_BYTES" in p["problem"] for p in report["problems"]), lines
    assert any("result_8.txt" in p["file"] and "MAX_LINE_BYTES" in p["problem"] for p in report["problems"]), lines


def test_huge_files_in_a_folder_stay_in_bounded_memory(tmp_path):
    """A 300 MB file with no newline (sparse: no disk used) is read up to MAX_MEMBER_BYTES, in chunks;
    a 20 MB line holding run_stop is skipped without being copied."""
    tree = good_tree(tmp_path / "tree")
    with open(tree / "Acme/results/x1/resnet/result_9.txt", "wb") as handle:
        handle.truncate(300 << 20)
    with open(tree / "Acme/results/x1/resnet/result_8.txt", "wb") as handle:
        handle.write(run_log(None).encode() + b':::MLLOG {"key": "run_stop", "time_ms": 1, "value": "')
        handle.write(b"B" * (20 << 20) + b'"}\n')
    done = subprocess.run([sys.executable, "-c", _MEMORY_PROBE, str(tree)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["peak_mb"] < 300, report["peak_mb"]
    found = {(p["file"].rsplit("/", 1)[-1], word) for p in report["problems"]
             for word in ("MAX_MEMBER_BYTES", "MAX_LINE_BYTES") if word in p["problem"]}
    assert {("result_9.txt", "MAX_MEMBER_BYTES"), ("result_9.txt", "MAX_LINE_BYTES"),
            ("result_8.txt", "MAX_LINE_BYTES")} <= found, report["problems"]


def test_a_source_listing_too_many_files_is_refused_before_its_index_is_read(tmp_path, monkeypatch):
    """A crafted 100 MB zip can index millions of empty members (gigabytes as Python objects)."""
    tree = good_tree(tmp_path / "training_results_v1.0")
    zip_path = zip_tree(tree, tmp_path / "training_results_v1.0.zip")
    tar_path = tmp_path / "training_results_v1.0.tar"
    with tarfile.open(tar_path, "w") as tar:
        tar.add(tree, arcname="training_results_v1.0")
    monkeypatch.setattr(limits, "MAX_ENTRIES", 10)
    for source in (zip_path, tar_path, tree):
        with pytest.raises(InputError, match="MAX_ENTRIES"):
            run_ingest(source)


def test_bytes_scanned_counts_what_was_read(tmp_path):
    tree = good_tree(tmp_path / "tree")
    path = tree / "Acme/results/x1/resnet/result_0.txt"
    path.write_text(path.read_text() + "trailing output after run_stop\n" * 50_000)
    res = run_ingest(tree)
    declared = sum(p.stat().st_size for p in tree.rglob("result_*.txt"))
    assert 0 < res.manifest["counts"]["bytes_scanned"] < declared - 1_000_000


# --- sources and CLI ----------------------------------------------------------------------------------

def test_git_url_is_never_an_option(tmp_path):
    marker = tmp_path / "pwned"
    with pytest.raises(InputError, match="git could not fetch"):
        open_source(f"--upload-pack=touch {marker};.git")
    assert not marker.exists()


def test_git_clone_has_a_timeout(tmp_path):
    """A server that accepts and never answers: the clone ends with a clear message, not a hang."""
    probe = r"""
import socket, sys
from mlperf_report.core import limits, sources
limits.GIT_TIMEOUT_S = 2
server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen()
url = f"git://127.0.0.1:{server.getsockname()[1]}/x.git"
try:
    sources.clone_git(url, cache=__import__("pathlib").Path(sys.argv[1]))
except Exception as error:
    print(type(error).__name__, error)
"""
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert "InputError" in done.stdout and "GIT_TIMEOUT_S" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize("bad", ["ABSOLUTE", "../../elsewhere", "training-v1.0/../../x"])
def test_report_round_is_validated_like_ingest_and_send(tmp_path, bad):
    """A path as --round read tables there and wrote folders there; now it is refused up front."""
    from mlperf_report.cli.report import make_plan
    from synthetic_round import V10, write_round

    data_dir, out = tmp_path / "a" / "b" / "data", tmp_path / "a" / "b" / "out"
    data_dir.mkdir(parents=True)
    bad = str(tmp_path / "elsewhere") if bad == "ABSOLUTE" else bad
    target = (data_dir / bad).resolve()
    write_round(target.parent, target.name, V10)  # tables where the path points
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(UserError, match="not of the form"):
        make_plan(round_id=bad, data_dir=data_dir, output_dir=out)
    assert sorted(tmp_path.rglob("*")) == before
