"""Compliance verdicts from MLCommons' checker on trees the tests build: a converged run that fails a
check, corrupted MLLOG lines, a checker failure on a file, the verdict cache, and --no-compliance."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
from hypothesis import given, settings, strategies as st
import pytest

from mlperf_report.core.sources import open_source
from mlperf_report.suites.training import compliance, rounds
from mlperf_report.suites.training.ingest import ingest, write_tables

from trees import compliant_log, mllog, system_json, write

ROOT = Path(__file__).resolve().parents[3]
V10 = rounds.parse_round("training-v1.0")
MINUTES = [30.0, 31.0, 29.0, 35.0, 28.0]


def tree_with(root: Path, **special) -> Path:
    """Acme x1, open-division resnet, five converged runs; ``special`` maps a run index to the
    keyword arguments of its log (e.g. ``{1: {"init_minutes": 40}}``)."""
    write(root, "Acme/systems/x1.json", system_json(division="open"))
    for i, minutes in enumerate(MINUTES):
        options = special.get(str(i), {})
        write(root, f"Acme/results/x1/resnet/result_{i}.txt", compliant_log(minutes, seed=i, **options))
    return root


def run_ingest(tree: Path, cache: Path, **kwargs):
    source, facts = open_source(str(tree))
    try:
        return ingest(source, facts, V10, jobs=1, cache_dir=cache, **kwargs)
    finally:
        source.close()


def resnet(res) -> pd.Series:
    return res.results.iloc[0]


def test_compliant_round_scores_as_before(tmp_path):
    res = run_ingest(tree_with(tmp_path / "t"), tmp_path / "cache")
    assert res.runs["compliant"].tolist() == [True] * 5
    assert resnet(res).score_min == pytest.approx(30.0) and resnet(res).runs_noncompliant == 0
    assert res.manifest["compliance"] == {
        "checked": True, "checker": f"mlperf-logging {compliance.checker_version()}", "ruleset": "training_1.0.0",
        "files_checked": 5, "noncompliant": 0, "amendments_file": "data/checker_amendments.yaml",
        "amendments": [], "drift": []}  # no amendment for v1.0: its files are judged by today's rules
    assert res.verdicts_from_cache == 0


def test_converged_run_failing_a_check_counts_as_not_converged(tmp_path):
    # run 1 (31 min) converged, but its initialisation took 40 minutes: over the 1.0 rules' limit
    res = run_ingest(tree_with(tmp_path / "t", **{"1": {"init_minutes": 40}}), tmp_path / "cache")
    run = res.runs.set_index("run").loc["1"]
    assert bool(run.converged) and not run.compliant and "init_stop" in run.failed_check
    row = resnet(res)
    # as the summarizer: the run is the dropped slowest, the olympic average is over 29, 30, 35
    assert row.score_min == pytest.approx((29 + 30 + 35) / 3) and row.runs_converged == 4
    assert row.runs_noncompliant == 1 and "compliance checker" in row.status_detail and "init_stop" in row.status_detail


def test_corrupted_mllog_line_fails_the_file(tmp_path):
    tree = tree_with(tmp_path / "t")
    path = tree / "Acme/results/x1/resnet/result_4.txt"
    lines = path.read_text().splitlines(keepends=True)
    lines[14] = lines[14][:45] + "step 812 loss=0.41" + lines[14][45:]  # another process wrote mid-line
    path.write_text("".join(lines))
    res = run_ingest(tree, tmp_path / "cache")
    run = res.runs.set_index("run").loc["4"]
    assert not run.compliant and "corrupted" in run.failed_check
    assert resnet(res).score_min == pytest.approx((30 + 31 + 35) / 3)  # 28 is the dropped run now


def test_checker_failure_on_a_file_is_a_problem_not_a_crash(tmp_path):
    # the 1.0 open resnet rules compare eval_accuracy with a number outside the checker's guard
    res = run_ingest(tree_with(tmp_path / "t", **{"2": {"accuracy": "n/a"}}), tmp_path / "cache")
    assert not res.runs.set_index("run").loc["2"].compliant
    problems = [p for p in res.problems if p["file"].endswith("result_2.txt")]
    assert problems and "compliance checker failed on this file" in problems[0]["problem"]
    assert resnet(res).status == "ok"  # the rest of the set, and the round, go on


def test_second_ingest_takes_verdicts_from_the_cache(tmp_path):
    tree, cache = tree_with(tmp_path / "t"), tmp_path / "cache"
    run_ingest(tree, cache)
    stored = compliance.cache_file("1.0.0", cache)
    assert stored.is_file() and "mlperf_logging" in stored.name
    warm = run_ingest(tree, cache)
    assert warm.verdicts_from_cache == 5
    # the cache really is what decides: a verdict planted for one file's content hash is used as is
    data = json.loads(stored.read_text())
    key = compliance.digest((tree / "Acme/results/x1/resnet/result_0.txt").read_bytes())
    data[key] = [False, "planted verdict", ""]
    stored.write_text(json.dumps(data))
    planted = run_ingest(tree, cache)
    assert planted.runs.set_index("run").loc["0"].failed_check == "planted verdict"
    # a changed file is a new hash: judged again, not taken from the cache
    (tree / "Acme/results/x1/resnet/result_0.txt").write_text(compliant_log(30.0, seed=0, init_minutes=2))
    changed = run_ingest(tree, cache)
    assert changed.verdicts_from_cache == 4 and bool(changed.runs.iloc[0].compliant)


def test_parallel_workers_give_the_same_verdicts(tmp_path):
    tree = tree_with(tmp_path / "t", **{"1": {"init_minutes": 40}})
    for i in range(40):  # enough files for the worker pool
        write(tree, f"Acme/results/x1/bert/result_{i}.txt", compliant_log(20.0 + i, benchmark="bert", seed=i))
    source, facts = open_source(str(tree))
    try:
        pooled = ingest(source, facts, V10, jobs=2, cache_dir=tmp_path / "cache")
    finally:
        source.close()
    serial = run_ingest(tree, tmp_path / "other-cache")
    pd.testing.assert_frame_equal(pooled.runs, serial.runs)
    assert int(pooled.runs["compliant"].eq(False).sum()) == 1


def test_no_compliance_cli_says_the_scores_are_unchecked(tmp_path):
    tree, out = tree_with(tmp_path / "t", **{"1": {"init_minutes": 40}}), tmp_path / "out"
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "ingest", str(tree), "--round", "training-v1.0",
                           "--out", str(out), "--no-compliance"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["compliance"]["checked"] is False and "unchecked" in manifest["compliance"]["note"]
    runs = pd.read_csv(out / "runs.csv")
    assert runs["compliant"].isna().all()
    assert pd.read_csv(out / "results.csv").score_min.iloc[0] == pytest.approx(30.0)


def test_written_tables_carry_the_verdicts(tmp_path):
    res = run_ingest(tree_with(tmp_path / "t", **{"1": {"init_minutes": 40}}), tmp_path / "cache")
    write_tables(res, tmp_path / "out")
    runs = pd.read_csv(tmp_path / "out" / "runs.csv")
    assert runs["compliant"].tolist() == [True, False, True, True, True]
    assert pd.read_csv(tmp_path / "out" / "results.csv").runs_noncompliant.tolist() == [1]


MLLOG_LINE = st.builds(lambda key, t, value: mllog(key, t, value),
                       st.sampled_from(["run_start", "run_stop", "eval_accuracy", "submission_org"]),
                       st.integers(0, 2**40), st.one_of(st.none(), st.floats(allow_nan=False), st.text(max_size=8)))
NOISE = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=30)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(NOISE, st.one_of(MLLOG_LINE, NOISE, st.just(":::MLLOG ")), NOISE, st.integers(0, 40)),
                max_size=12),
       st.sampled_from(["0.7.0", "1.0.0", "4.1.0"]))
def test_fast_parse_equals_the_ruleset_parser(parts, ruleset):
    """Log output mixed into MLLOG lines, corrupted lines, several tokens on a line: the same log
    lines and parse errors as mlperf-logging's own parse_generator."""
    lines = []
    for before, middle, after, cut in parts:
        line = before + middle + after
        lines.append(line[:cut] + line[cut + 3:] + "\n" if cut % 3 == 0 else line + "\n")
    assert outcome(compliance.parse_lines, lines, ruleset) == outcome(compliance._parser(ruleset).parse_generator, lines)


def outcome(parse, *args):
    """What a parse gives: its result, or the type of exception it raises (the ruleset parser lets a
    JSON line without ``time_ms`` raise, and so must we: ingest reports that file as a problem)."""
    try:
        return parse(*args)
    except Exception as error:  # noqa: BLE001 - compared, not handled
        return type(error)
