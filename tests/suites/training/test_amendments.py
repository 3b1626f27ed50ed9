"""Checker rules as the round was reviewed (data/checker_amendments.yaml), on synthetic logs: a v1.1
BERT run without weight-initialization lines and a v2.1 BERT run writing ``opt_epsilon`` are
compliant with the amendment named; the same logs with a real failure still fail; the drift alarm
sounds when one rule fails every submitter's runs of a benchmark."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from mlperf_report.core.errors import InputError
from mlperf_report.core.sources import open_source
from mlperf_report.suites.training import amendments, compliance, drift, rounds
from mlperf_report.suites.training.ingest import ingest, write_tables

from trees import T0, compliant_log, mllog, system_json, write

ROOT = Path(__file__).resolve().parents[3]
BERT_MINUTES = [20.0 + i for i in range(10)]  # olympic: drop 20 and 29, average 21..28 = 24.5


def bert_tensors(ruleset: str) -> list[str]:
    """The tensors the ruleset's closed BERT rules want initialized (from the installed checker)."""
    path = amendments.checker_dir() / f"training_{ruleset}" / "closed_bert.yaml"
    end = next(r["END"] for r in yaml.load(path.read_text(), Loader=yaml.BaseLoader) if "END" in r)
    return re.findall(r'"([^"]+)"', end["CHECK"])


def bert_log(minutes: float | None, ruleset: str, *, epsilon_key: str, weights: bool, accuracy: float = 0.721,
             seed: int = 1) -> str:
    """A closed-division BERT result file for the ``ruleset`` rules (no run_stop when ``minutes`` is None)."""
    init = T0 - 120_000
    lines = [mllog("cache_clear", init - 1000, True), mllog("init_start", init)]
    lines += [mllog(key, init, value) for key, value in [
        ("submission_org", "Acme"), ("submission_platform", "Acme X1"), ("submission_division", "closed"),
        ("submission_status", "onprem"), ("submission_benchmark", "bert"), ("seed", seed),
        ("global_batch_size", 448), ("gradient_accumulation_steps", 1), ("train_samples", 3_000_000),
        ("eval_samples", 10_000), ("opt_base_learning_rate", 0.0004), (epsilon_key, 1e-6),
        ("opt_learning_rate_training_steps", 7000), ("opt_learning_rate_warmup_steps", 0),
        ("num_warmup_steps", 0), ("start_warmup_step", 0), ("opt_lamb_beta_1", 0.9),
        ("opt_lamb_beta_2", 0.999), ("opt_lamb_weight_decay_rate", 0.01)]]
    if weights:
        lines += [mllog("weights_initialization", init, None, tensor=t) for t in bert_tensors(ruleset)]
    lines += [mllog("init_stop", T0 - 1000), "ordinary output between the MLLOG lines", mllog("run_start", T0),
              mllog("block_start", T0 + 10, None, first_epoch_num=1, epoch_count=1),
              mllog("eval_start", T0 + 20, None, epoch_num=1),
              mllog("eval_accuracy", T0 + 30, accuracy, epoch_num=1),
              mllog("eval_stop", T0 + 40, None, epoch_num=1),
              mllog("block_stop", T0 + 50, None, first_epoch_num=1)]
    if minutes is not None:
        lines.append(mllog("run_stop", T0 + minutes * 60_000, None, status="success"))
    return "\n".join(lines) + "\n"


def bert_tree(root: Path, ruleset: str, special: dict | None = None, **log) -> Path:
    """Acme x1, closed BERT, ten runs of 20..29 minutes; ``special`` maps a run to other log options."""
    write(root, "Acme/systems/x1.json", system_json())
    for i, minutes in enumerate(BERT_MINUTES):
        options = {**log, **(special or {}).get(i, {})}
        write(root, f"Acme/results/x1/bert/result_{i}.txt",
              bert_log(options.pop("minutes", minutes), ruleset, seed=i, **options))
    return root


def run_ingest(tree: Path, round_id: str, cache: Path, **kwargs):
    source, facts = open_source(str(tree))
    try:
        return ingest(source, facts, rounds.parse_round(round_id), jobs=1, cache_dir=cache, **kwargs)
    finally:
        source.close()


def bert(res) -> pd.Series:
    return res.results.iloc[0]


# --- v1.1: weight-initialization checks were warnings when the round was reviewed -------------------

def test_v11_run_without_weight_initialization_is_compliant_with_the_amendment_named(tmp_path):
    res = run_ingest(bert_tree(tmp_path / "t", "1.1.0", epsilon_key="opt_epsilon", weights=False),
                     "training-v1.1", tmp_path / "cache")
    runs = res.runs
    assert runs["compliant"].tolist() == [True] * 10
    assert set(runs["amendment"]) == {"v1.1-weights-initialization"}
    # the warning the reviewed checker printed stays visible: today's complaint, word for word
    assert all("Required AT_LEAST_ONE occurrence of 'weights_initialization' but found 0" in w
               for w in runs["checker_warning"])
    assert (runs["failed_check"] == "").all()
    assert bert(res).status == "ok" and bert(res).score_min == pytest.approx(24.5)
    v11 = res.manifest["compliance"]["amendments"]
    assert [(a["id"], a["runs"]) for a in v11] == [("v1.1-weights-initialization", 10)]
    assert "mlcommons/logging#220" in v11[0]["sources"] and res.manifest["compliance"]["drift"] == []


def test_v11_run_with_every_tensor_needs_no_amendment(tmp_path):
    res = run_ingest(bert_tree(tmp_path / "t", "1.1.0", epsilon_key="opt_epsilon", weights=True),
                     "training-v1.1", tmp_path / "cache")
    assert res.runs["compliant"].tolist() == [True] * 10 and (res.runs["amendment"] == "").all()
    assert res.manifest["compliance"]["amendments"][0]["runs"] == 0


def test_v11_real_failures_still_fail_under_the_amendment(tmp_path):
    # run 3 (23 min) has no run_stop; run 5 (25 min) logged success below the 0.720 target
    special = {3: {"minutes": None}, 5: {"accuracy": 0.70}}
    res = run_ingest(bert_tree(tmp_path / "t", "1.1.0", special, epsilon_key="opt_epsilon", weights=False),
                     "training-v1.1", tmp_path / "cache")
    runs = res.runs.set_index("run")
    assert not runs.loc["3"].compliant and "run_stop" in runs.loc["3"].failed_check
    assert not runs.loc["5"].compliant and "eval_accuracy" in runs.loc["5"].failed_check
    assert runs.loc["3"].amendment == "" and runs.loc["5"].amendment == ""
    # two runs count as not converged; olympic scoring drops only one: no score
    assert bert(res).status == "not_converged" and pd.isna(bert(res).score_min)


def test_without_the_amendment_the_same_logs_fail_and_the_cache_knows(tmp_path):
    tree, cache = bert_tree(tmp_path / "t", "1.1.0", epsilon_key="opt_epsilon", weights=False), tmp_path / "cache"
    amended = run_ingest(tree, "training-v1.1", cache)
    assert amended.runs["compliant"].all()
    empty = tmp_path / "none.yaml"
    empty.write_text("amendments: []\n")
    plain = run_ingest(tree, "training-v1.1", cache, amendments_file=empty)
    assert plain.verdicts_from_cache == 0  # other amendments: other verdicts, never the cached ones
    assert not plain.runs["compliant"].any() and "weights_initialization" in plain.runs["failed_check"].iloc[0]
    assert plain.manifest["compliance"]["amendments_file"] == str(empty)
    again = run_ingest(tree, "training-v1.1", cache)
    assert again.verdicts_from_cache == 10 and again.runs["compliant"].all()
    assert set(again.runs["amendment"]) == {"v1.1-weights-initialization"}


# --- v2.1: BERT's epsilon key was renamed after the submission window -----------------------------

def test_v21_bert_writing_opt_epsilon_is_compliant_with_the_amendment_named(tmp_path):
    res = run_ingest(bert_tree(tmp_path / "t", "2.1.0", epsilon_key="opt_epsilon", weights=True),
                     "training-v2.1", tmp_path / "cache")
    runs = res.runs
    assert runs["compliant"].all() and set(runs["amendment"]) == {"v2.1-bert-opt-epsilon"}
    assert all("'opt_lamb_epsilon'" in w for w in runs["checker_warning"])
    assert bert(res).score_min == pytest.approx(24.5)


def test_v21_bert_writing_todays_key_needs_no_amendment(tmp_path):
    res = run_ingest(bert_tree(tmp_path / "t", "2.1.0", epsilon_key="opt_lamb_epsilon", weights=True),
                     "training-v2.1", tmp_path / "cache")
    assert res.runs["compliant"].all() and (res.runs["amendment"] == "").all()


def test_v21_real_failures_still_fail_under_the_amendment(tmp_path):
    special = {0: {"minutes": None}, 9: {"accuracy": 0.71}, 4: {"weights": False}}
    res = run_ingest(bert_tree(tmp_path / "t", "2.1.0", special, epsilon_key="opt_epsilon", weights=True),
                     "training-v2.1", tmp_path / "cache")
    runs = res.runs.set_index("run")
    assert "run_stop" in runs.loc["0"].failed_check and "eval_accuracy" in runs.loc["9"].failed_check
    # weight initialization was an error when v2.1 was reviewed: the v1.1 amendment is not v2.1's
    assert "weights_initialization" in runs.loc["4"].failed_check
    assert runs.loc[["0", "4", "9"], "compliant"].tolist() == [False] * 3
    assert runs.drop(index=["0", "4", "9"])["compliant"].all()


# --- the amendments file ---------------------------------------------------------------------------

def test_every_amendment_changes_the_installed_checkers_rules(tmp_path):
    found = amendments.load()
    assert {a.round for a in found} >= {"training-v1.1", "training-v2.1"}
    for round_id in sorted({a.round for a in found}):
        ruleset = rounds.parse_round(round_id).ruleset
        reviewed = amendments.prepare(ruleset, amendments.for_round(round_id), tmp_path)
        assert reviewed.swapped and all(Path(p).is_file() for p in reviewed.swapped.values())
    assert all(a.sources and all(s["ref"].startswith("mlcommons/") and s["url"] for s in a.sources) for a in found)


def test_an_amendment_that_changes_nothing_is_an_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"amendments": [{
        "id": "x", "round": "training-v1.0", "benchmarks": ["resnet"], "rule": "r", "reviewed": "r",
        "patch": {"kind": "rename_key", "key": "no_such_key", "reviewed_key": "other"},
        "sources": [{"ref": "mlcommons/logging#1"}]}]}))
    with pytest.raises(InputError, match="changes nothing"):
        amendments.prepare("1.0.0", amendments.for_round("training-v1.0", bad), tmp_path)
    bad.write_text("amendments:\n  - id: y\n    round: training-v1.0\n")
    with pytest.raises(InputError, match=r"bad\.yaml: amendment y is not valid"):
        amendments.load(bad)


def test_amended_verdicts_are_cached_under_the_amendments_digest(tmp_path):
    digest = amendments.digest(amendments.for_round("training-v1.1"))
    assert compliance.cache_file("1.1.0", tmp_path, digest) != compliance.cache_file("1.1.0", tmp_path)
    verdict = compliance.Verdict(True, amendment="a", warning="w")
    assert compliance.cached_verdict("k", {"k": compliance.cache_entry(verdict)}) == verdict


# --- the drift alarm -------------------------------------------------------------------------------

def drift_tree(root: Path, submitters=("Acme", "Beta", "Gamma")) -> Path:
    """Every submitter's five open resnet runs took 40 minutes to initialise: over the 1.0 limit."""
    for org in submitters:
        write(root, f"{org}/systems/x1.json", system_json(submitter=org, division="open"))
        for i in range(5):
            write(root, f"{org}/results/x1/resnet/result_{i}.txt", compliant_log(30.0 + i, seed=i, init_minutes=40))
    write(root, "Acme/systems/x2.json", system_json(division="open"))
    for i in range(5):  # another benchmark, compliant: no alarm for it
        write(root, f"Acme/results/x2/bert/result_{i}.txt", compliant_log(20.0 + i, benchmark="bert", seed=i))
    return root


def test_drift_alarm_when_every_submitters_runs_fail_one_rule(tmp_path):
    res = run_ingest(drift_tree(tmp_path / "t"), "training-v1.0", tmp_path / "cache")
    [alarm] = res.manifest["compliance"]["drift"]
    assert alarm["benchmark"] == "resnet" and (alarm["runs"], alarm["of_runs"]) == (15, 15)
    assert alarm["submitters"] == ["Acme", "Beta", "Gamma"]
    assert alarm["rule"].startswith("CHECK for 'init_stop' failed; failed test:")  # no line numbers


def test_no_drift_alarm_for_one_submitters_failures():
    runs = pd.DataFrame({"benchmark": ["resnet"] * 4, "submitter": ["Acme", "Acme", "Beta", "Beta"],
                         "compliant": [False, False, True, True], "failed_check": ["CHECK for 'x' failed in line 3"] * 4})
    assert drift.find(runs) == []
    runs.loc[2, "compliant"] = False  # now 3 of 4 runs, two submitters
    assert [(a["runs"], a["submitters"], a["rule"]) for a in drift.find(runs)] == [(3, ["Acme", "Beta"], "CHECK for 'x' failed")]


def test_drift_alarm_in_the_summary_line_and_strict_makes_it_an_error(tmp_path):
    tree = drift_tree(tmp_path / "t")
    cmd = [sys.executable, str(ROOT / "build.py"), "ingest", str(tree), "--round", "training-v1.0", "--quiet"]
    done = subprocess.run(cmd + ["--out", str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "DRIFT? resnet: 15 of 15 runs of 3 submitters fail" in done.stdout
    assert "data/checker_amendments.yaml" in done.stdout
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["compliance"]["drift"][0]["submitters"] == ["Acme", "Beta", "Gamma"]
    strict = subprocess.run(cmd + ["--out", str(tmp_path / "strict"), "--strict"], capture_output=True, text=True, cwd=ROOT)
    assert strict.returncode == 1 and "drift" in strict.stderr


def test_written_runs_table_names_the_amendment(tmp_path):
    res = run_ingest(bert_tree(tmp_path / "t", "1.1.0", epsilon_key="opt_epsilon", weights=False),
                     "training-v1.1", tmp_path / "cache")
    write_tables(res, tmp_path / "out")
    runs = pd.read_csv(tmp_path / "out" / "runs.csv")
    assert (runs["amendment"] == "v1.1-weights-initialization").all() and runs["checker_warning"].notna().all()
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["compliance"]["amendments"][0]["reviewed"].startswith("the same checks as warnings")


# --- v3.0: closed GPT-3 could initialise for 60 minutes ---------------------------------------------

def gpt3_log(init_minutes: float, minutes: float | None = 120.0, perplexity: float = 2.68) -> str:
    """A closed-division GPT-3 result file for the 3.0.0 rules, initialising for ``init_minutes``."""
    init = T0 - init_minutes * 60_000 - 1000
    lines = [mllog("cache_clear", init - 1000, True), mllog("init_start", init)]
    lines += [mllog(key, init, value) for key, value in [
        ("submission_org", "Acme"), ("submission_platform", "Acme X1"), ("submission_division", "closed"),
        ("submission_status", "onprem"), ("submission_benchmark", "gpt3"), ("seed", 1),
        ("global_batch_size", 1536), ("gradient_accumulation_steps", 1), ("train_samples", 1_000_000),
        ("eval_samples", 11_590), ("max_sequence_length", 2048), ("opt_name", "adam"),
        ("opt_base_learning_rate", 2e-5), ("opt_end_learning_rate", 2e-6), ("opt_learning_rate_decay_steps", 1000),
        ("opt_learning_rate_warmup_steps", 100), ("opt_learning_rate_decay_schedule", "cosine with linear warmup"),
        ("opt_adam_beta_1", 0.9), ("opt_adam_beta_2", 0.95), ("opt_adam_epsilon", 1e-8),
        ("opt_gradient_clip_norm", 1.0), ("init_checkpoint_step", 4000)]]
    lines += [mllog("init_stop", T0 - 1000), mllog("run_start", T0),
              mllog("block_start", T0 + 10, None, first_epoch_num=1, epoch_count=1),
              mllog("eval_start", T0 + 20, None, epoch_num=1),
              mllog("eval_accuracy", T0 + 30, perplexity, epoch_num=1),
              mllog("eval_stop", T0 + 40, None, epoch_num=1),
              mllog("block_stop", T0 + 50, None, first_epoch_num=1)]
    if minutes is not None:
        lines.append(mllog("run_stop", T0 + minutes * 60_000, None, status="success"))
    return "\n".join(lines) + "\n"


def test_v30_gpt3_initialising_45_minutes_is_compliant_and_75_is_not(tmp_path):
    reviewed = amendments.prepare("3.0.0", amendments.for_round("training-v3.0"), tmp_path)
    assert compliance.check_bytes(gpt3_log(1).encode(), "3.0.0", reviewed) == compliance.Verdict(True)
    forty_five = compliance.check_bytes(gpt3_log(45).encode(), "3.0.0", reviewed)
    assert forty_five.compliant and forty_five.amendment == "v3.0-gpt3-init-time"
    assert "init_stop" in forty_five.warning
    assert "init_stop" in compliance.check_bytes(gpt3_log(75).encode(), "3.0.0", reviewed).failed_check
    # the other rules the override re-states still hold, and the rest of the checker still runs
    no_stop = compliance.check_bytes(gpt3_log(45, minutes=None).encode(), "3.0.0", reviewed)
    assert not no_stop.compliant and "run_stop" in no_stop.failed_check
    high = compliance.check_bytes(gpt3_log(45, perplexity=2.75).encode(), "3.0.0", reviewed)
    assert not high.compliant and "eval_accuracy" in high.failed_check
    no_start = gpt3_log(45).replace(mllog("init_start", T0 - 45 * 60_000 - 1000) + "\n", "")
    assert not compliance.check_bytes(no_start.encode(), "3.0.0", reviewed).compliant
