"""Inference power results as the submission checker computes them, on trees the tests build: the
window from the detail log, samples strictly inside it, energy per query for the streams, and copies
that lack the checker's inputs (said, never estimated)."""

from __future__ import annotations

from datetime import datetime

import pandas as pd
import pytest

from mlperf_report.core.sources import open_source
from mlperf_report.suites.inference import power
from mlperf_report.suites.inference.ingest import ingest
from mlperf_report.suites.inference.rounds import parse_round
from tests.inference_trees import MULTI, OFFLINE, PASS, RESNET_ACC, SINGLE, detail_log, result, spl, system
from tests.trees import write

BEGIN, END = "07-11-2024 23:35:41.000", "07-11-2024 23:35:45.000"
SAMPLES = [("07-11-2024 23:35:40.500", 9000.0),   # before the window
           ("07-11-2024 23:35:41.000", 9000.0),   # on the boundary: the checker excludes it
           ("07-11-2024 23:35:42.000", 4000.0),
           ("07-11-2024 23:35:43.000", 5000.0),
           ("07-11-2024 23:35:43.500", 0.0),      # not positive: left out
           ("07-11-2024 23:35:44.000", 6000.0),
           ("07-11-2024 23:35:45.000", 9000.0)]   # on the boundary


def test_average_of_positive_samples_strictly_inside_the_window():
    begin, end = (datetime.strptime(t, power.TIME_FORMAT) for t in (BEGIN, END))
    assert power.average_watts(spl(SAMPLES).splitlines(), begin, end) == (5000.0, 3)


def test_detail_values_take_the_first_of_each_key():
    values = power.detail_values(detail_log(BEGIN, END, 1200).splitlines())
    assert values == {"power_begin": BEGIN, "power_end": END, "result_query_count": 1200}


def test_energy_per_query_for_the_streams():
    detail = {"power_begin": BEGIN, "power_end": END, "result_query_count": 1000}
    got = power.power_result("SingleStream", detail, spl(SAMPLES).splitlines())
    assert got.value == pytest.approx(5000.0 * 4.0 * 1000 / 1000) and got.unit == "millijoules"
    offline = power.power_result("Offline", detail, spl(SAMPLES).splitlines())
    assert (offline.value, offline.unit, offline.samples) == (5000.0, "Watts", 3)


def test_missing_marks_and_empty_windows_are_said():
    assert "no power_end" in power.power_result("Offline", {"power_begin": BEGIN}, []).why_missing
    late = {"power_begin": "07-12-2024 00:00:00.000", "power_end": "07-12-2024 00:10:00.000"}
    assert "no power samples between" in power.power_result("Server", late, spl(SAMPLES).splitlines()).why_missing
    no_count = power.power_result("MultiStream", {"power_begin": BEGIN, "power_end": END}, spl(SAMPLES).splitlines())
    assert no_count.value is None and "result_query_count" in no_count.why_missing
    with pytest.raises(power.PowerLogError, match="power_begin '2024-07-11T23:35' is not a timestamp"):
        power.power_result("Offline", {"power_begin": "2024-07-11T23:35", "power_end": END}, [])


@pytest.fixture()
def powered(tmp_path):
    top = tmp_path / "inference_results_v4.1"
    write(top, "closed/Acme/systems/x8.json", system())
    full = (detail_log(BEGIN, END, 1000), spl(SAMPLES))
    result(top, "closed", "Acme", "x8", "resnet50", "Offline", OFFLINE, RESNET_ACC, tests=PASS, power_files=full)
    result(top, "closed", "Acme", "x8", "resnet50", "SingleStream", SINGLE, RESNET_ACC, tests=PASS, power_files=full)
    result(top, "closed", "Acme", "x8", "resnet50", "MultiStream", MULTI,
           RESNET_ACC, tests=PASS, power=True)  # a cut copy: power measured, inputs left out
    late = (detail_log("07-12-2024 00:00:00.000", "07-12-2024 00:10:00.000"), spl(SAMPLES))
    result(top, "closed", "Acme", "x8", "resnet50", "Server", OFFLINE.replace("Offline", "Server"), RESNET_ACC,
           tests=PASS, power_files=late)
    write(top, "closed/Acme/results/x8/resnet50/Server/performance/run_1/mlperf_log_summary.txt",
          OFFLINE.replace("Offline", "Server").replace("Samples per second", "Completed samples per second"))
    source, facts = open_source(str(top))
    try:
        return ingest(source, facts, parse_round("inference-v4.1"))
    finally:
        source.close()


def _row(frame: pd.DataFrame, scenario: str):
    return frame[frame.scenario == scenario].iloc[0]


def test_ingest_computes_power_where_the_inputs_are_present(powered):
    r = powered.results
    offline, single = _row(r, "Offline"), _row(r, "SingleStream")
    assert offline.power_result == pytest.approx(5000.0) and offline.power_unit == "Watts" and offline.valid
    assert single.power_result == pytest.approx(20000.0) and single.power_unit == "millijoules"
    assert powered.manifest["counts"]["power_results"] == 2 and powered.manifest["counts"]["with_power"] == 4


def test_a_cut_copy_says_why_and_keeps_the_result_valid(powered):
    cut = _row(powered.results, "MultiStream")
    assert pd.isna(cut.power_result) and cut.power_unit == "millijoules" and cut.valid
    assert cut.power_detail == ("not computed: performance/run_1/ lacks mlperf_log_detail.txt and spl.txt "
                                "(the checker's inputs)")


def test_no_samples_in_the_window_makes_the_result_invalid(powered):
    server = _row(powered.results, "Server")
    assert not server.valid and "power: spl.txt has no power samples between" in server.status_detail


def test_multistream_inferred_from_a_singlestream_run_counts_eight_samples_per_query():
    # The checker: scenario_fixed MultiStream, effective_scenario SingleStream -> x samples_per_query (8),
    # since result_query_count then counts single-sample queries.
    inferred = {"power_begin": BEGIN, "power_end": END, "result_query_count": 1000, "effective_scenario": "SingleStream"}
    got = power.power_result("MultiStream", inferred, spl(SAMPLES).splitlines())
    assert got.value == pytest.approx(5000.0 * 4.0 * 1000 / 1000 * 8)
    native = {**inferred, "effective_scenario": "MultiStream"}
    assert power.power_result("MultiStream", native, spl(SAMPLES).splitlines()).value == pytest.approx(20000.0)
    # a SingleStream folder is never scaled, whatever the log says
    assert power.power_result("SingleStream", inferred, spl(SAMPLES).splitlines()).value == pytest.approx(20000.0)
    assert power.efficiency("MultiStream", 0.0, got.value) == pytest.approx(8 * 1000 / 160000.0)


def test_ingest_scales_an_inferred_multistream_and_reads_a_copy_without_the_power_folder(tmp_path):
    top = tmp_path / "inference_results_v4.1"
    write(top, "closed/Acme/systems/e1.json", system(system_type="edge"))
    ss = SINGLE.replace("Early Stopping Result:", "Early Stopping Result:\n * Early stopping 99.0th percentile "
                                                  "estimate: 351200")
    inferred = (detail_log(BEGIN, END, 1000, scenario="SingleStream"), spl(SAMPLES))
    result(top, "closed", "Acme", "e1", "resnet50", "MultiStream", ss, RESNET_ACC, tests=PASS, power_files=inferred)
    # a copy that kept run_1's detail log and spl.txt but not performance/power/
    result(top, "closed", "Acme", "e1", "resnet50", "SingleStream", ss, RESNET_ACC, tests=PASS)
    write(top, "closed/Acme/results/e1/resnet50/SingleStream/performance/run_1/mlperf_log_detail.txt",
          detail_log(BEGIN, END, 1000, scenario="SingleStream"))
    write(top, "closed/Acme/results/e1/resnet50/SingleStream/performance/run_1/spl.txt", spl(SAMPLES))
    source, facts = open_source(str(top))
    try:
        r = ingest(source, facts, parse_round("inference-v4.1")).results
    finally:
        source.close()
    assert _row(r, "MultiStream").power_result == pytest.approx(160000.0)
    single = _row(r, "SingleStream")
    assert single.power_result == pytest.approx(20000.0) and single.power_unit == "millijoules"
