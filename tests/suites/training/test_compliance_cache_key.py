"""The compliance verdict cache is keyed by the ruleset and the checker's version as well as the
file's content: a verdict stored under one ruleset or checker version is never used for another
(each round has its own rules; a new mlperf-logging may judge the same bytes differently)."""

from __future__ import annotations

import json

from mlperf_report.core.sources import open_source
from mlperf_report.suites.training import compliance, rounds
from mlperf_report.suites.training.ingest import ingest
from trees import compliant_log, system_json, write

V10, V11 = rounds.parse_round("training-v1.0"), rounds.parse_round("training-v1.1")
PLANTED = "planted verdict"


def _tree(root):
    write(root, "Acme/systems/x1.json", system_json(division="open"))
    for i, minutes in enumerate([30.0, 31.0, 29.0, 35.0, 28.0]):
        write(root, f"Acme/results/x1/resnet/result_{i}.txt", compliant_log(minutes, seed=i))
    return root


def _ingest(tree, round_, cache):
    source, facts = open_source(str(tree))
    try:
        return ingest(source, facts, round_, jobs=1, cache_dir=cache)
    finally:
        source.close()


def _planted(res) -> list[str]:
    return [run for run, check in zip(res.runs.run, res.runs.failed_check) if check == PLANTED]


def test_a_verdict_is_used_only_for_its_own_ruleset_and_checker_version(tmp_path, monkeypatch):
    tree, cache = _tree(tmp_path / "tree"), tmp_path / "cache"
    assert _ingest(tree, V10, cache).verdicts_from_cache == 0
    stored = compliance.cache_file(V10.ruleset, cache)
    verdicts = json.loads(stored.read_text())
    assert len(verdicts) == 5
    stored.write_text(json.dumps({key: [False, PLANTED, ""] for key in verdicts}))
    warm = _ingest(tree, V10, cache)  # same ruleset and checker: the cache decides
    assert warm.verdicts_from_cache == 5 and _planted(warm) == ["0", "1", "2", "3", "4"]

    other_round = _ingest(tree, V11, cache)  # the same bytes under another round's ruleset: judged again
    assert V11.ruleset != V10.ruleset
    assert other_round.verdicts_from_cache == 0 and _planted(other_round) == []
    # v1.1 has amendments (data/checker_amendments.yaml): its verdicts are kept under their digest too
    assert list((cache / "compliance").glob(f"training-{V11.ruleset}-mlperf_logging-*.json"))

    monkeypatch.setattr(compliance, "checker_version", lambda: "0.0.0-another")
    other_checker = _ingest(tree, V10, cache)  # the same ruleset under another checker version: judged again
    assert other_checker.verdicts_from_cache == 0 and _planted(other_checker) == []
    assert other_checker.runs.compliant.tolist() == [True] * 5
    assert compliance.cache_file(V10.ruleset, cache) != stored and compliance.cache_file(V10.ruleset, cache).is_file()
    monkeypatch.undo()

    assert _planted(_ingest(tree, V10, cache)) == ["0", "1", "2", "3", "4"]  # its own entry is still there
