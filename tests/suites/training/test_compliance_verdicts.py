"""Compliance verdicts on single result files, straight from MLCommons' checker: a compliant run, a
run over a rule's limit, corrupted MLLOG lines, a file the checker cannot judge; the verdict in
words; and the cache that must give back exactly the verdict it was given, keyed by content,
ruleset and checker version. (Fast: `make mutate` judges compliance.py's mutants by this file.)"""

from __future__ import annotations

import zipfile

from mlperf_report.core.sources import open_source
from mlperf_report.suites.training import compliance
from mlperf_report.suites.training.compliance import Verdict

from trees import compliant_log, mllog

RULESET = "1.0.0"


def test_a_compliant_run_passes():
    assert compliance.check_bytes(compliant_log(30.0).encode(), RULESET) == Verdict(True)


def test_a_run_over_the_initialisation_limit_fails_with_the_check_in_words():
    verdict = compliance.check_bytes(compliant_log(30.0, init_minutes=40).encode(), RULESET)
    assert not verdict.compliant and verdict.problem == ""
    assert "init_stop" in verdict.failed_check and "\n" not in verdict.failed_check


def test_corrupted_mllog_lines_fail_the_file_and_are_counted():
    lines = compliant_log(30.0).splitlines(keepends=True)
    lines[14] = lines[14][:45] + "step 812 loss=0.41" + lines[14][45:]  # another process wrote mid-line
    lines[15] = lines[15][:60] + "\n"  # and a line cut short
    verdict = compliance.check_bytes("".join(lines).encode(), RULESET)
    assert verdict == Verdict(False, "2 MLLOG line(s) are corrupted and do not parse (first: Expecting ',' delimiter)")


def test_a_file_the_checker_cannot_judge_is_a_problem_not_a_crash():
    verdict = compliance.check_bytes(compliant_log(30.0, accuracy="n/a").encode(), RULESET)
    assert verdict.compliant is False and verdict.failed_check == "the compliance checker could not check this file"
    assert verdict.problem == ("compliance checker failed on this file (TypeError: '<' not supported between "
                               "instances of 'str' and 'float'); counted as not compliant")


def test_a_failed_verdict_does_not_leak_into_the_next_file():
    compliance.check_bytes(compliant_log(30.0, init_minutes=40).encode(), RULESET)
    assert compliance.check_bytes(compliant_log(31.0).encode(), RULESET).compliant


def test_checker_messages_in_one_line():
    message = "Key init_stop:\n  context dump\n  more dump\nfailed test: init < 30 min\nfailed test: other\n"
    assert compliance._in_words(message) == "Key init_stop; failed test: init < 30 min; failed test: other"
    assert compliance._in_words("  \n \n") == "failed a compliance check"
    assert compliance._in_words("Key run_stop:\nfailed test: a\n") == "Key run_stop; failed test: a"
    assert compliance._in_words("failed test: b\n  dump\n") == "failed test: b"
    long = compliance._in_words("x" * 500)
    assert len(long) == compliance.MAX_WORDS and long.endswith("…")
    assert compliance._in_words("y" * compliance.MAX_WORDS) == "y" * compliance.MAX_WORDS


def test_parse_keeps_the_lines_from_the_last_token_and_reports_broken_ones():
    good = mllog("run_start", 5)
    lines = ["noise " + good + "\n", "no token here\n", ":::MLLOG {broken\n", "x :::MLLOG y " + good + "\n"]
    loglines, failed = compliance.parse_lines(lines, RULESET)
    assert [line.key for line in loglines] == ["run_start", "run_start"]
    assert [line.lineno for line in loglines] == [0, 2]
    assert len(failed) == 1 and failed[0][0] == ":::MLLOG {broken"


def test_verdict_comes_from_the_cache_only_for_the_same_content():
    data = compliant_log(30.0).encode()
    key, verdict, cached = compliance.verdict_for(data, RULESET, {})
    assert (verdict, cached) == (Verdict(True), False) and len(key) == 64
    planted = {key: [False, "planted verdict", "a note"]}
    assert compliance.verdict_for(data, RULESET, planted) == (key, Verdict(False, "planted verdict", "a note"), True)
    other = compliant_log(30.0, seed=2).encode()
    assert compliance.verdict_for(other, RULESET, planted)[2] is False


def test_malformed_cache_entries_are_ignored():
    assert compliance.cached_verdict("k", {"k": [True, "", ""]}) == Verdict(True)
    assert compliance.cached_verdict("k", {"k": [True, None, None]}) == Verdict(True, "", "")
    for bad in ([True, ""], "yes", [True, "", "", ""]):
        assert compliance.cached_verdict("k", {"k": bad}) is None
    assert compliance.cached_verdict(None, {None: [True, "", ""]}) is None
    assert compliance.cache_entry(Verdict(False, "why", "problem")) == [False, "why", "problem"]


def test_cache_round_trips_and_is_keyed_by_ruleset_and_checker_version(tmp_path):
    compliance.save_cache(RULESET, tmp_path, {"b": [True, "", ""], "a": [False, "why", ""]})
    path = compliance.cache_file(RULESET, tmp_path)
    assert path.name == f"training-1.0.0-mlperf_logging-{compliance.checker_version()}.json"
    assert path.read_text() == '{"a":[false,"why",""],"b":[true,"",""]}\n'  # sorted: deterministic
    assert compliance.load_cache(RULESET, tmp_path) == {"a": [False, "why", ""], "b": [True, "", ""]}
    assert compliance.load_cache("4.1.0", tmp_path) == {}
    path.write_text("[1, 2]")
    assert compliance.load_cache(RULESET, tmp_path) == {}
    path.write_text("{torn")
    assert compliance.load_cache(RULESET, tmp_path) == {}


def test_digest_index_round_trips(tmp_path):
    assert compliance.load_index(tmp_path) == {}
    compliance.save_index(tmp_path, {"z": "1", "a": "2"})
    assert compliance.index_file(tmp_path).read_text() == '{"a":"2","z":"1"}\n'
    assert compliance.load_index(tmp_path) == {"a": "2", "z": "1"}
    compliance.index_file(tmp_path).write_text('"a string"')
    assert compliance.load_index(tmp_path) == {}


def test_identity_changes_with_the_file_and_names_zip_members(tmp_path):
    folder = tmp_path / "t"
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "r.txt").write_text("one")
    source, _ = open_source(str(folder))
    try:
        before = compliance.identity(source, "a/r.txt")
        assert before.startswith("file:") and str(folder / "a" / "r.txt") in before
        (folder / "a" / "r.txt").write_text("three")
        assert compliance.identity(source, "a/r.txt") != before
        assert compliance.identity(source, "a/missing.txt") is None
    finally:
        source.close()
    archive = tmp_path / "t.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("a/r.txt", "one")
    source, _ = open_source(str(archive))
    try:
        name = "a/r.txt"
        ident = compliance.identity(source, name)
        assert ident is not None and ident.startswith("zip:") and name in ident
        assert compliance.identity(source, "a/none.txt") is None
    finally:
        source.close()


def test_digest_is_the_sha256_of_the_bytes():
    assert compliance.digest(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert compliance.digest(memoryview(b"abc")) == compliance.digest(b"abc")  # an mmap is hashed as its bytes
