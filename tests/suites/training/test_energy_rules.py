"""Energy to train (Training v4.0 on), checked on hand-made power logs with hand arithmetic: which
runs the energy average keeps (by time to train, not by energy), the scaling factor, incomplete logs,
and which rounds have power at all. (Fast: `make mutate` judges power.py's mutants by this file.)"""

from __future__ import annotations

import pandas as pd
import pytest

from mlperf_report.suites.training import power, rounds

from trees import T0, mllog

RULESET = "4.1.0"
FOLDER = "Acme/results/x1/resnet"
MINUTES = [30.0, 31.0, 29.0, 35.0, 28.0]
WATTS = [1000.0, 500.0, 2000.0, 100.0, 1500.0]  # per run: energy order differs from time order
EFFICIENCY, SWITCH_WATTS = 0.9, 100.0


def exactly(value: float):
    """Equal up to float rounding: a joule off (of millions) is a wrong number, which approx's 1e-6 would hide."""
    return pytest.approx(value, rel=1e-12, abs=0)


def node_log(watts: float, seconds: int = 60) -> bytes:
    start = T0 + 5_000
    lines = [mllog("power_measurement_start", start), mllog("conversion_eff", start, EFFICIENCY)]
    lines += [mllog("power_reading", start + i * 1000, watts, host="0") for i in range(seconds + 1)]
    lines.append(mllog("power_measurement_stop", start + seconds * 1000))
    return ("\n".join(lines) + "\n").encode()


def switch_log() -> bytes:
    return ("\n".join([mllog("conversion_eff", T0, 1.0), mllog("interconnect_power_est", T0, SWITCH_WATTS)])
            + "\n").encode()


def power_files(skip: int | None = None, switches: bool = True) -> dict[str, bytes]:
    files = {}
    for i, watts in enumerate(WATTS):
        if i != skip:
            for node in range(2):
                files[f"{FOLDER}/power/result_{i}/node_{node}.txt"] = node_log(watts, 60 + 7 * i)
        if switches:
            files[f"{FOLDER}/power/result_{i}/sw_0.txt"] = switch_log()
    return files


def runs(minutes=MINUTES) -> pd.DataFrame:
    return pd.DataFrame([{"file": f"{FOLDER}/result_{i}.txt", "run_start_ms": float(T0),
                          "run_stop_ms": T0 + m * 60_000} for i, m in enumerate(minutes)])


def energy(files, frame=None, counted=None, drop=1, factor=1.0):
    frame = runs() if frame is None else frame
    counted = pd.Series([True] * len(frame)) if counted is None else pd.Series(counted)
    logs = power.find_power_logs(list(files)).get(FOLDER, power.PowerLogs())
    return power.set_energy(files.__getitem__, logs, frame, counted, drop, factor, RULESET)


def joules(i: int, switches: bool = True) -> float:
    """Run i by hand: two nodes at its wattage times the conversion efficiency, plus the switch, over its time."""
    return (2 * WATTS[i] * EFFICIENCY + (SWITCH_WATTS if switches else 0.0)) * MINUTES[i] * 60


def test_run_energy_integrates_nodes_and_switches_over_time_to_train():
    files = power_files()
    logs = power.find_power_logs(list(files))[FOLDER]
    assert power.run_energy(files.__getitem__, logs, "result_1", 31 * 60_000, RULESET) == exactly(joules(1))
    assert joules(1) == exactly(1000 * 31 * 60)


def test_average_keeps_the_runs_the_time_score_keeps():
    # by time to train the 28- (run 4) and 35-minute (run 3) runs are dropped: runs 0, 1, 2 remain
    value, note = energy(power_files())
    assert note == "" and value == exactly((joules(0) + joules(1) + joules(2)) / 3)
    assert value == exactly(3_906_000.0)


def test_without_switch_logs_only_the_nodes_count():
    value, _ = energy(power_files(switches=False))
    assert value == exactly((joules(0, False) + joules(1, False) + joules(2, False)) / 3)


def test_scaling_factor_multiplies_the_energy():
    value, _ = energy(power_files(), factor=2.0)
    assert value == exactly(2 * 3_906_000.0)


def test_a_run_that_does_not_count_is_the_dropped_slowest():
    # run 3 (35 min) does not count: it is the one slowest dropped; the fastest (run 4) is dropped: 2, 0, 1
    value, _ = energy(power_files(skip=3), counted=[True, True, True, False, True])
    assert value == exactly((joules(0) + joules(1) + joules(2)) / 3)
    # run 1 (31 min) does not count instead: 4 goes as the fastest, 2, 0 and 3 remain
    value, _ = energy(power_files(), counted=[True, False, True, True, True])
    assert value == exactly((joules(2) + joules(0) + joules(3)) / 3)


def test_more_runs_left_out_than_may_be_dropped_gives_no_energy():
    assert energy(power_files(), counted=[True, False, True, False, True]) == (None, "")


def test_missing_node_logs_say_which_run_and_give_no_energy():
    value, note = energy(power_files(skip=2))
    assert value is None
    assert note == "power logs incomplete (result_2: no power/result_2/node_*.txt); no energy result"


def test_unreadable_node_log_names_the_file():
    files = power_files()
    files[f"{FOLDER}/power/result_0/node_1.txt"] = b"not a log\n"
    value, note = energy(files)
    assert value is None  # the summarizer's own words after the file's name
    assert note == "power logs incomplete (result_0: result_0/node_1.txt: Power start timestamp not found); no energy result"


def test_power_files_are_grouped_by_result_set_and_run():
    names = [f"{FOLDER}/power/result_1/node_b.txt", f"{FOLDER}/power/result_1/node_a.txt",
             f"{FOLDER}/power/result_1/sw_0.txt", f"{FOLDER}/result_1.txt", "Other/results/y/bert/power/result_0/node_0.txt",
             f"{FOLDER}/power/result_1/readme.txt"]
    found = power.find_power_logs(names)
    assert sorted(found) == ["Acme/results/x1/resnet", "Other/results/y/bert"]
    assert found[FOLDER].nodes == {"result_1": [f"{FOLDER}/power/result_1/node_a.txt", f"{FOLDER}/power/result_1/node_b.txt"]}
    assert found[FOLDER].switches == {"result_1": [f"{FOLDER}/power/result_1/sw_0.txt"]}


def test_power_results_start_with_training_v4_0():
    assert [power.round_has_power(rounds.parse_round(f"training-v{v}")) for v in ("1.0", "3.1", "4.0", "4.1")] == [
        False, False, True, True]


def results_row(status="ok", factor=None) -> dict:
    return {"round": "training-v4.1", "division": "closed", "submitter": "Acme", "system_id": "x1",
            "benchmark": "resnet", "status": status, "status_detail": status, "scaling_factor": factor}


def test_add_energy_fills_scored_sets_and_notes_incomplete_ones():
    frame = runs().assign(round="training-v4.1", division="closed", submitter="Acme", system_id="x1",
                          benchmark="resnet", converged=True)
    other = frame.assign(system_id="x2", file=frame["file"].str.replace("x1", "x2"))
    results = pd.DataFrame([results_row(factor=2.0), {**results_row("not_converged"), "system_id": "x2"}])
    files = power_files()
    files.update({k.replace("/x1/", "/x2/"): v for k, v in power_files(skip=0).items()})
    out = power.add_energy(results, pd.concat([frame, other]), power.find_power_logs(list(files)),
                           files.__getitem__, RULESET)
    assert out.loc[0, "energy_j"] == exactly(2 * 3_906_000.0) and out.loc[0, "status_detail"] == "ok"
    unscaled = power.add_energy(pd.DataFrame([results_row(factor=None)], dtype=object), pd.concat([frame, other]),
                                power.find_power_logs(list(files)), files.__getitem__, RULESET)
    assert unscaled.loc[0, "energy_j"] == exactly(3_906_000.0)
    assert out.loc[1, "energy_j"] is None
    assert out.loc[1, "status_detail"].startswith("not_converged (power logs incomplete (result_0: ")
    assert "energy_j" not in results.columns  # the input table is left as it was


def test_only_scored_sets_get_an_energy():
    # full power logs, but the set is not scored (too few result files, or a benchmark mlperf-logging
    # does not know): no energy to print beside a missing score
    frame = runs().assign(round="training-v4.1", division="closed", submitter="Acme", system_id="x1",
                          benchmark="resnet", converged=True)
    files = power_files()
    for status in ("incomplete", "unknown_benchmark", "invalid"):
        out = power.add_energy(pd.DataFrame([results_row(status)]), frame, power.find_power_logs(list(files)),
                               files.__getitem__, RULESET)
        assert out.loc[0, "energy_j"] is None, status


def test_a_scored_row_without_runs_gets_no_energy_and_no_crash():
    frame = runs().assign(round="training-v4.1", division="closed", submitter="Acme", system_id="x1",
                          benchmark="resnet", converged=True)
    files = power_files()
    lone = pd.DataFrame([{**results_row(), "system_id": "no-runs"}])
    out = power.add_energy(lone, frame, power.find_power_logs(list(files)), files.__getitem__, RULESET)
    assert out.loc[0, "energy_j"] is None and out.loc[0, "status_detail"] == "ok"


def test_the_note_names_at_most_three_runs_without_logs():
    files = {k: v for k, v in power_files().items() if "/node_" not in k or "result_4" in k}
    _, note = energy(files)
    assert [f"result_{i}:" in note for i in range(5)] == [True, True, True, False, False]


def test_a_set_without_power_logs_does_not_stop_the_sets_after_it():
    frame = runs().assign(round="training-v4.1", division="closed", submitter="Acme", system_id="x1",
                          benchmark="resnet", converged=True)
    bert = frame.assign(benchmark="bert", file=frame["file"].str.replace("resnet", "bert"))
    results = pd.DataFrame([{**results_row(), "benchmark": "bert"}, results_row()])
    files = power_files()
    out = power.add_energy(results, pd.concat([bert, frame]), power.find_power_logs(list(files)),
                           files.__getitem__, RULESET)
    assert out.loc[0, "energy_j"] is None and out.loc[1, "energy_j"] == exactly(3_906_000.0)
