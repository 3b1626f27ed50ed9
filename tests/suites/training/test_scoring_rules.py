"""MLPerf Training scoring rules, checked on hand-made runs with hand arithmetic: the olympic average,
which result sets are scored at all, when the scaling factor applies, and which runs count.
(Fast and self-contained: `make mutate` judges scoring.py's mutants by this file.)"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.scoring import counted_runs, olympic_average, score_result_set, score_runs

V10 = rounds.parse_round("training-v1.0")  # before scaling.json counted
V41 = rounds.parse_round("training-v4.1")  # scaling.json multiplies the score


def test_olympic_average_drops_the_fastest_and_slowest_run():
    assert olympic_average([30.0, 31.0, 29.0, 35.0, 28.0], failed=0, drop=1) == pytest.approx(30.0)
    # unsorted input with an outlier at each end: (2 + 3 + 4) / 3
    assert olympic_average([100.0, 2.0, 4.0, 3.0, 0.5], failed=0, drop=1) == pytest.approx(3.0)


def test_failed_runs_count_as_the_dropped_slowest():
    # one run failed: it is the slowest dropped, so only the fastest converged run goes: (20 + 21 + 22 + 23) / 4
    assert olympic_average([19.0, 20.0, 21.0, 22.0, 23.0], failed=1, drop=1) == pytest.approx(21.5)


def test_unet3d_drops_four_runs_each_side():
    minutes = [float(m) for m in range(1, 41)]
    assert olympic_average(minutes, failed=0, drop=4) == pytest.approx(sum(range(5, 37)) / 32)


def test_nothing_left_to_average_is_no_score():
    assert olympic_average([10.0, 11.0], failed=0, drop=1) is None


def test_five_resnet_runs_scored_without_scaling_before_v2():
    score = score_result_set("resnet", V10, [30.0, 31.0, 29.0, 35.0, 28.0], runs_found=5, unreadable=0,
                             scaling_factor=2.0)
    assert (score.score_min, score.status, score.status_detail) == (pytest.approx(30.0), "ok", "ok")
    assert (score.runs_found, score.runs_required, score.runs_converged, score.scaling_factor) == (5, 5, 5, 1.0)


def test_scaling_factor_multiplies_the_score_from_v2_on():
    score = score_result_set("resnet", V41, [30.0, 31.0, 29.0, 35.0, 28.0], runs_found=5, unreadable=0,
                             scaling_factor=1.5)
    assert score.score_min == pytest.approx(45.0) and score.scaling_factor == 1.5
    unscaled = score_result_set("resnet", V41, [30.0, 31.0, 29.0, 35.0, 28.0], runs_found=5, unreadable=0,
                                scaling_factor=None)
    assert unscaled.score_min == pytest.approx(30.0) and unscaled.scaling_factor == 1.0


def test_fewer_files_than_required_is_never_scored():
    score = score_result_set("resnet", V10, [30.0, 31.0, 29.0, 35.0], runs_found=4, unreadable=0, scaling_factor=None)
    assert score.score_min is None and score.status == "incomplete"
    assert score.status_detail == "incomplete: 4 of 5 runs present"


def test_as_many_failures_as_may_be_dropped_still_scores():
    score = score_result_set("resnet", V10, [29.0, 30.0, 31.0, 32.0], runs_found=5, unreadable=0, scaling_factor=None)
    assert score.status == "ok" and score.score_min == pytest.approx(31.0)  # (30 + 31 + 32) / 3
    assert score.runs_converged == 4


def test_more_failures_than_may_be_dropped_is_not_converged():
    score = score_result_set("resnet", V10, [29.0, 30.0, 31.0], runs_found=5, unreadable=0, scaling_factor=None)
    assert score.score_min is None and score.status == "not_converged"
    assert score.status_detail == ("not_converged: 2 of 5 runs failed (2 did not converge); "
                                   "olympic scoring drops at most 1")


def test_unreadable_files_make_the_set_invalid_and_are_counted_apart():
    score = score_result_set("resnet", V10, [29.0, 30.0, 31.0], runs_found=5, unreadable=1, scaling_factor=None)
    assert score.status == "invalid" and score.score_min is None
    assert "(1 unreadable, 1 not converged)" in score.status_detail


def test_unknown_benchmark_is_not_scored():
    score = score_result_set("teleport", V10, [1.0] * 5, runs_found=5, unreadable=0, scaling_factor=None)
    assert score.status == "unknown_benchmark" and score.score_min is None and score.runs_required is None


def test_extra_result_files_are_all_scored_and_said():
    score = score_result_set("resnet", V10, [28.0, 29.0, 30.0, 31.0, 32.0, 40.0], runs_found=6, unreadable=0,
                             scaling_factor=None)
    assert score.score_min == pytest.approx(30.5)  # (29 + 30 + 31 + 32) / 4
    assert score.status_detail.startswith("ok: 6 result files, 5 required")


def test_a_benchmark_outside_the_round_is_scored_with_a_note():
    score = score_result_set("resnet", V10, [30.0] * 5, runs_found=5, unreadable=0, scaling_factor=None,
                             in_round=False)
    assert score.status == "ok" and "is not a training-v1.0 benchmark" in score.status_detail


def test_unet3d_may_lose_four_runs_and_still_score():
    score = score_result_set("unet3d", V10, [1.0] * 36, runs_found=40, unreadable=0, scaling_factor=None)
    assert score.status == "ok" and score.score_min == pytest.approx(1.0)


def runs_frame(rows: list[dict]) -> pd.DataFrame:
    base = {"round": "training-v1.0", "division": "closed", "submitter": "Acme", "system_id": "x1",
            "benchmark": "resnet", "run_start_ms": 0.0, "run_stop_ms": 1.0}
    return pd.DataFrame([{**base, **row} for row in rows])


def test_a_run_failing_the_compliance_checker_does_not_count():
    runs = runs_frame([
        {"run": "result_0", "converged": True, "compliant": True},
        {"run": "result_1", "converged": True, "compliant": False, "failed_check": "init took 40 min"},
        {"run": "result_2", "converged": True, "compliant": None},          # unchecked: counts
        {"run": "result_3", "converged": True, "compliant": math.nan},      # unchecked: counts
        {"run": "result_4", "converged": False, "compliant": False},        # already not counted
    ])
    counted, words = counted_runs(runs)
    assert counted.tolist() == [True, False, True, True, False]
    assert words == ["result_1: init took 40 min"]


def test_without_verdicts_every_converged_run_counts():
    counted, words = counted_runs(runs_frame([{"run": "r0", "converged": True}, {"run": "r1", "converged": False}]))
    assert counted.tolist() == [True, False] and words == []


def test_score_runs_scores_each_set_and_says_what_was_left_out():
    minutes = [30.0, 31.0, 29.0, 35.0, 28.0]
    runs = runs_frame([{"run": f"result_{i}", "converged": True, "compliant": i != 1, "time_to_train_min": m,
                        "failed_check": "init too long" if i == 1 else ""} for i, m in enumerate(minutes)])
    other = runs_frame([{"system_id": "x2", "run": f"result_{i}", "converged": True, "compliant": True,
                         "time_to_train_min": 10.0 + i} for i in range(4)])
    sets = pd.DataFrame([
        {"round": "training-v1.0", "division": "closed", "submitter": "Acme", "system_id": "x1",
         "benchmark": "resnet", "absent": 0, "misnamed": 2},
        {"round": "training-v1.0", "division": "closed", "submitter": "Acme", "system_id": "x2",
         "benchmark": "resnet", "absent": 1, "misnamed": 3},
    ])
    table = score_runs(pd.concat([runs, other], ignore_index=True), sets, V41, {("Acme", "x1", "resnet"): 2.0})
    x1, x2 = table.iloc[0], table.iloc[1]
    # run 1 (31 min) failed the checker: it is the dropped slowest; 28 is dropped: (29 + 30 + 35) / 3, x 2
    assert x1.score_min == pytest.approx(2.0 * (29.0 + 30.0 + 35.0) / 3)
    assert x1.runs_noncompliant == 1 and x1.runs_converged == 4 and x1.runs_absent == 0
    assert "1 converged run(s) failed MLCommons' compliance checker" in x1.status_detail
    assert "result_1: init too long" in x1.status_detail and "not named result_" not in x1.status_detail
    assert x2.status == "incomplete" and x2.runs_absent == 1 and x2.runs_noncompliant == 0
    assert "(1 listed as absent from this copy of the tree)" in x2.status_detail
    assert "(3 other files in the folder are not named result_*.txt)" in x2.status_detail


def test_runs_whose_start_and_stop_are_both_missing_are_unreadable():
    runs = runs_frame([{"run": f"result_{i}", "converged": i < 3, "time_to_train_min": 30.0 + i} for i in range(5)])
    runs.loc[3, ["run_start_ms", "run_stop_ms"]] = math.nan
    runs.loc[4, "run_stop_ms"] = math.nan  # started but never stopped: did not converge, not unreadable
    sets = runs[["round", "division", "submitter", "system_id", "benchmark"]].iloc[:1]
    row = score_runs(runs, sets, V10, {}).iloc[0]
    assert row.status == "invalid" and "(1 unreadable, 1 not converged)" in row.status_detail


def sets_frame(*sets: dict) -> pd.DataFrame:
    base = {"round": "training-v1.0", "division": "closed", "submitter": "Acme", "system_id": "x1",
            "benchmark": "resnet", "absent": 0, "misnamed": 0}
    return pd.DataFrame([{**base, **s} for s in sets])


def five_runs(**fields) -> pd.DataFrame:
    return runs_frame([{"run": f"result_{i}", "converged": True, "time_to_train_min": m, **fields}
                       for i, m in enumerate([30.0, 31.0, 29.0, 35.0, 28.0])])


def test_a_set_with_no_result_files_is_incomplete_not_given_other_sets_runs():
    table = score_runs(five_runs(), sets_frame({}, {"system_id": "empty"}), V10, {})
    assert table.status.tolist() == ["ok", "incomplete"] and table.iloc[0].status_detail == "ok"
    assert table.iloc[1].runs_found == 0 and table.iloc[1].status_detail == "incomplete: 0 of 5 runs present"


def test_a_benchmark_outside_the_round_is_noted_and_a_round_without_a_list_notes_none():
    runs = five_runs(benchmark="llama2_70b_lora")
    runs = pd.concat([runs, runs.assign(run=runs["run"] + "b")], ignore_index=True)  # 10 runs, as the benchmark needs
    sets = sets_frame({"benchmark": "llama2_70b_lora"})
    assert "is not a training-v1.0 benchmark" in score_runs(runs, sets, V10, {}).iloc[0].status_detail
    unlisted = rounds.parse_round("training-v0.5")  # mlperf-logging lists no benchmarks for it: none is outside
    assert score_runs(runs.assign(round="training-v0.5"), sets.assign(round="training-v0.5"), unlisted,
                      {}).iloc[0].status_detail == "ok"


def test_misnamed_files_are_mentioned_whenever_the_set_is_not_scored():
    unknown = five_runs(benchmark="teleport")
    row = score_runs(unknown, sets_frame({"benchmark": "teleport", "misnamed": 2}), V10, {}).iloc[0]
    assert row.status == "unknown_benchmark" and "(2 other files in the folder are not named result_*.txt)" in row.status_detail


def test_the_first_run_failing_the_checker_is_the_one_named():
    runs = five_runs(compliant=True, failed_check="")
    runs.loc[[1, 3], "compliant"] = False
    runs.loc[1, "failed_check"], runs.loc[3, "failed_check"] = "init too long", "no eval"
    row = score_runs(runs, sets_frame({}), V10, {}).iloc[0]
    assert row.status == "not_converged" and row.runs_noncompliant == 2
    assert "(2 converged run(s) failed MLCommons' compliance checker" in row.status_detail
    assert row.status_detail.endswith("count as not converged; result_1: init too long)")
