"""MLPerf Inference rules on hand-made summaries, with hand arithmetic: which result is valid and why
not, the primary metric and its unit, and the power metric (average watts inside the window,
millijoules per query for the streams, efficiency). (Fast: `make mutate` judges metrics.py,
validity.py and power.py's mutants by this file.)"""

from __future__ import annotations

from datetime import datetime

import pytest

from mlperf_report.suites.inference import power
from mlperf_report.suites.inference.checker_rules import rules_for
from mlperf_report.suites.inference.loadgen import Summary
from mlperf_report.suites.inference.metrics import higher_is_better, primary_metric
from mlperf_report.suites.inference.validity import NOT_ENFORCED, Compliance, judge_compliance, run_problems, verdict

V41 = rules_for((4, 1))
PASS, FAIL = "TEST PASS\n", "TEST FAIL\n"


def summary(scenario: str, **logged) -> Summary:
    return Summary(scenario, "PerformanceOnly", True, logged=logged)


# --- validity -----------------------------------------------------------------------------------------

def test_a_closed_result_needs_loadgen_accuracy_and_compliance():
    ok = Compliance(True)
    assert verdict("closed", True, [], True, "", ok) == (True, [])
    assert verdict("closed", None, [], True, "", ok) == (False, ["no LoadGen summary"])
    assert verdict("closed", False, ["min queries"], True, "", ok) == (False, ["LoadGen: INVALID (min queries: no)"])
    assert verdict("closed", False, [], True, "", ok, harness="Harness") == (False, ["Harness: INVALID"])
    assert verdict("closed", True, [], False, "76.1 < 75.7", ok) == (False, ["accuracy target not met: 76.1 < 75.7"])
    assert verdict("network", True, [], True, "", Compliance(False, "compliance test failed: TEST01 performance")) == (
        False, ["compliance test failed: TEST01 performance"])
    assert verdict("closed", True, [], True, "", Compliance(None, "compliance test missing: TEST04")) == (
        False, ["compliance test missing: TEST04"])


def test_an_unchecked_accuracy_is_said_but_does_not_invalidate():
    assert verdict("closed", True, [], None, "no accuracy.txt", Compliance(True)) == (
        True, ["accuracy not checked: no accuracy.txt"])
    assert verdict("closed", True, [], None, "", Compliance(None, "")) == (True, [])


def test_the_open_division_may_trade_accuracy_and_skip_the_audit():
    assert verdict("open", True, [], False, "50 < 75.7", Compliance(False, "compliance test failed: TEST01")) == (True, [])
    assert verdict("open", False, [], True, "", Compliance(True)) == (False, ["LoadGen: INVALID"])


def test_rules_of_another_round_report_accuracy_and_missing_tests_without_holding_them():
    valid, reasons = verdict("closed", True, [], False, "50 < 75.7", Compliance(None, "compliance test missing: TEST04"),
                             enforce=False)
    assert valid and reasons == [f"accuracy target not met: 50 < 75.7 {NOT_ENFORCED}",
                                 f"compliance test missing: TEST04 {NOT_ENFORCED}"]
    valid, reasons = verdict("closed", True, [], True, "", Compliance(False, "compliance test failed: TEST01"),
                             enforce=False)
    assert not valid and reasons == ["compliance test failed: TEST01"]


def test_compliance_tests_pass_fail_or_are_missing():
    good = {"TEST01": {"verify_performance.txt": PASS, "verify_accuracy.txt": FAIL},  # TEST01 accuracy: not held
            "TEST04": {"verify_performance.txt": PASS}}
    assert judge_compliance(good, ("TEST01", "TEST04")) == Compliance(True)
    assert judge_compliance(good, ("TEST01", "TEST04", "TEST05")) == Compliance(None, "compliance test missing: TEST05")
    bad = {**good, "TEST04": {"verify_performance.txt": FAIL}, "TEST07": {"verify_accuracy.txt": FAIL},
           "TEST09": {"verify_output_len.txt": FAIL}}
    assert judge_compliance(bad, ("TEST01", "TEST05")) == Compliance(
        False, "compliance test failed: TEST04 performance, TEST07 accuracy, TEST09 output_len")
    assert judge_compliance({}, None) == Compliance(None, "")
    assert judge_compliance({"TEST08": {"verify_accuracy.txt": PASS}}, None) == Compliance(True)


def test_test06_needs_every_check_true_or_skipped():
    passing = "First token check pass: True\nEOS check pass: Skipped\nTEST06 verify_accuracy\n"
    assert judge_compliance({"TEST06": {"verify_accuracy.txt": passing}}, ("TEST06",)) == Compliance(True)
    failing = "First token check pass: True\nEOS check pass: False\n"
    assert judge_compliance({"TEST06": {"verify_accuracy.txt": failing}}, ("TEST06",)) == Compliance(
        False, "compliance test failed: TEST06 accuracy")
    assert judge_compliance({"TEST06": {"verify_accuracy.txt": "no checks\n"}}, ("TEST06",)).passed is False


def test_llm_latency_limits_apply_to_token_latencies():
    limits = "llama2-70b-99"  # v4.1: TTFT p99 < 2 s and TPOT p99 < 200 ms in Server
    fast = summary("Server", **{"result_first_token_99.00_percentile_latency_ns": 1_999_999_999,
                               "result_time_per_output_token_99.00_percentile_ns": 199_999_999})
    assert run_problems(V41, limits, "Server", fast, enforce=False) == []
    slow = summary("Server", **{"result_first_token_99.00_percentile_latency_ns": 2_000_000_000,
                               "result_time_per_output_token_99.00_percentile_ns": 100_000_000})
    assert run_problems(V41, limits, "Server", slow, enforce=False) == [
        "LLM latency limits not met: TTFT p99 2000 ms (limit 2000), TPOT p99 100 ms (limit 200)"]
    slow_tokens = summary("Server", **{"result_first_token_99.00_percentile_latency_ns": 1,
                                      "result_time_per_output_token_99.00_percentile_ns": 200_000_000})
    assert run_problems(V41, limits, "Server", slow_tokens, enforce=False) != []
    far_over = summary("Server", **{"result_first_token_99.00_percentile_latency_ns": 3_500_000_000,
                                   "result_time_per_output_token_99.00_percentile_ns": 150_000_000})
    assert run_problems(V41, limits, "Server", far_over, enforce=False) == [
        "LLM latency limits not met: TTFT p99 3500 ms (limit 2000), TPOT p99 150 ms (limit 200)"]
    tokens_over = summary("Server", **{"result_first_token_99.00_percentile_latency_ns": 1_000_000_000,
                                      "result_time_per_output_token_99.00_percentile_ns": 250_000_000})
    assert run_problems(V41, limits, "Server", tokens_over, enforce=False) != []
    assert run_problems(V41, limits, "Offline", slow, enforce=False) == []       # no limits in Offline
    assert run_problems(V41, "resnet", "Server", slow, enforce=False) == []      # not a language model
    unprinted = summary("Server", **{"result_first_token_99.00_percentile_latency_ns": 9e12})
    assert run_problems(V41, limits, "Server", unprinted, enforce=False) == []


def test_v5_holds_llm_limits_only_in_server_and_interactive():
    v51 = rules_for((5, 1))
    model = next(m for m, by in v51.llm_limits.items() if "Server" in by)
    slow = {"result_first_token_99.00_percentile_latency_ns": 9e12,
            "result_time_per_output_token_99.00_percentile_ns": 9e12}
    assert run_problems(v51, model, "Server", summary("Server", **slow), enforce=False) != []
    assert run_problems(v51, model, "Offline", summary("Offline", **slow), enforce=False) == []


def test_minimum_duration_and_the_rounds_seeds():
    short = summary("Offline", effective_min_duration_ms=599_999)
    assert run_problems(V41, "resnet", "Offline", short, enforce=False) == [
        "min_duration 599999 ms is below the rules' 600000 ms"]
    assert run_problems(V41, "resnet", "Offline", summary("Offline", effective_min_duration_ms=600_000), False) == []
    assert run_problems(V41, "resnet", "Offline", summary("Offline", effective_min_duration_ms=900_000), False) == []
    assert run_problems(V41, "e2e-rag-db", "Offline", short, enforce=False) == []
    seeds = dict(V41.seeds)
    assert run_problems(V41, "resnet", "Offline", summary("Offline", **seeds), enforce=True) == []
    wrong = {**seeds, "effective_qsl_rng_seed": "1"}
    assert run_problems(V41, "resnet", "Offline", summary("Offline", **wrong), enforce=True) == [
        "LoadGen seeds are not the round's: qsl_rng_seed"]
    assert run_problems(V41, "resnet", "Offline", summary("Offline", **wrong), enforce=False) == []
    assert run_problems(V41, "resnet", "Offline", summary("Offline"), enforce=True) == []  # seeds not printed


# --- the primary metric --------------------------------------------------------------------------------

def test_throughput_is_read_as_printed():
    metric = primary_metric(V41, "resnet", "Offline", summary("Offline", result_samples_per_second=81234.5))
    assert (metric.key, metric.unit, metric.value, metric.inferred) == (
        "result_samples_per_second", "Samples/s", 81234.5, False)
    assert higher_is_better("Offline") and higher_is_better("Server") and not higher_is_better("SingleStream")


def test_latencies_go_from_ns_to_ms():
    metric = primary_metric(V41, "resnet", "SingleStream", summary("SingleStream", early_stopping_latency_ss=412_345))
    assert metric.value == pytest.approx(0.412345) and metric.unit == "Latency (ms)"
    ms = primary_metric(V41, "resnet", "MultiStream", summary("MultiStream", early_stopping_latency_ms=3_000_000))
    assert ms.value == pytest.approx(3.0)


def test_language_models_report_tokens_per_second():
    metric = primary_metric(V41, "llama2-70b-99", "Server",
                            summary("Server", result_completed_tokens_per_second=9000.0,
                                    result_completed_samples_per_sec=30.0))
    assert (metric.key, metric.unit, metric.value) == ("result_completed_tokens_per_second", "Tokens/s", 9000.0)


def test_a_benchmark_newer_than_the_rules_uses_its_tokens_when_printed():
    tokens = primary_metric(V41, "some-new-llm", "Offline",
                            summary("Offline", result_tokens_per_second=500.0, result_samples_per_second=2.0))
    assert (tokens.key, tokens.unit, tokens.value) == ("result_tokens_per_second", "Tokens/s", 500.0)
    samples = primary_metric(V41, "some-new-llm", "Offline", summary("Offline", result_samples_per_second=2.0))
    assert (samples.key, samples.value) == ("result_samples_per_second", 2.0) and samples.unit != "Tokens/s"


def test_a_missing_value_or_scenario_says_why():
    missing = primary_metric(V41, "resnet", "Offline", summary("Offline"))
    assert missing.value is None and missing.why_missing == "the summary has no 'result_samples_per_second' value"
    odd = primary_metric(V41, "resnet", "Sideways", summary("Offline"))
    assert odd.value is None and odd.why_missing == "scenario 'Sideways' is not one the tool knows"


def test_scenarios_inferred_from_another_run():
    ms = primary_metric(V41, "resnet", "MultiStream", summary("SingleStream", early_stopping_latency_ms=500_000))
    assert ms.inferred and ms.value == pytest.approx(4.0)  # 8 samples per query x 0.5 ms
    offline = primary_metric(V41, "resnet", "Offline", summary("SingleStream", result_qps_without_loadgen_overhead=2500.0))
    assert offline.inferred and offline.value == 2500.0
    from_ms = primary_metric(V41, "resnet", "Offline",
                             summary("MultiStream", result_mean_query_latency_ns=4_000_000, effective_samples_per_query=8))
    assert from_ms.value == pytest.approx(2000.0)  # 8 samples x 1000 / 4 ms
    none = primary_metric(V41, "resnet", "MultiStream", summary("SingleStream"))
    assert none.value is None and none.why_missing == "the SingleStream summary has no 'early_stopping_latency_ms' value"
    wrong = primary_metric(V41, "resnet", "SingleStream", summary("Offline"))
    assert wrong.value is None and wrong.why_missing.startswith("folder SingleStream holds a Offline run")


# --- power -------------------------------------------------------------------------------------------------

T = datetime(2024, 7, 11, 23, 35, 41)


def spl(*samples: tuple[int, float]) -> list[str]:
    """spl.txt lines: (seconds after T, watts)."""
    return [f"Time,07-11-2024 23:35:{41 + s:02d}.000,Watts,{w},Volts,230.0\n" for s, w in samples]


def detail(begin_s: int = 0, end_s: int = 10, queries=None) -> dict:
    value = {"power_begin": f"07-11-2024 23:35:{41 + begin_s:02d}.000", "power_end": f"07-11-2024 23:35:{41 + end_s:02d}.000"}
    return value if queries is None else {**value, "result_query_count": queries}


def test_average_watts_counts_positive_samples_strictly_inside_the_window():
    lines = spl((0, 999.0), (1, 300.0), (5, 500.0), (6, 0.0), (7, -5.0), (10, 999.0)) + ["Header,x\n", "Time,bad\n"]
    assert power.average_watts(lines, T, datetime(2024, 7, 11, 23, 35, 51)) == (400.0, 2)


def test_throughput_power_is_the_average_watts():
    result = power.power_result("Offline", detail(), spl((2, 400.0), (3, 600.0)))
    assert (result.value, result.unit, result.samples) == (500.0, "Watts", 2)


def test_stream_power_is_millijoules_per_query():
    result = power.power_result("SingleStream", detail(queries=2000), spl((2, 400.0), (3, 600.0)))
    assert result.value == pytest.approx(500.0 * 10 * 1000 / 2000)  # 500 W over 10 s, per query, in mJ
    assert power.power_result("SingleStream", detail(queries=0), spl((2, 400.0))).why_missing == "result_query_count is 0"
    assert power.power_result("MultiStream", detail(), spl((2, 400.0))).why_missing == (
        "mlperf_log_detail.txt has no result_query_count")


def test_power_missing_marks_or_samples_say_why():
    assert power.power_result("Offline", {}, []).why_missing == "mlperf_log_detail.txt has no power_begin or power_end"
    empty = power.power_result("Offline", detail(), spl((20, 400.0)))
    assert empty.value is None and empty.why_missing.startswith("spl.txt has no power samples between")
    with pytest.raises(power.PowerLogError, match="power_begin 'soon' is not a timestamp"):
        power.power_result("Offline", {"power_begin": "soon", "power_end": "later"}, [])


def test_detail_values_take_the_first_of_each_wanted_key():
    lines = [':::MLLOG {"key": "power_begin", "value": "a"}\n', 'noise :::MLLOG {"key": "power_begin", "value": "b"}\n',
             ':::MLLOG {"key": "power_end"\n', ':::MLLOG {"key": "other", "value": 1}\n',
             'x :::MLLOG {"key": "result_query_count", "value": 7}\n']
    assert power.detail_values(lines) == {"power_begin": "a", "result_query_count": 7}


def test_efficiency_per_watt_or_per_joule():
    assert power.efficiency("Offline", 1000.0, 250.0) == 4.0
    assert power.efficiency("SingleStream", 0.4, 500.0) == pytest.approx(2.0)   # 1 sample x 1000 / 500 mJ
    assert power.efficiency("MultiStream", 3.0, 500.0) == pytest.approx(16.0)   # 8 samples x 1000 / 500 mJ
    assert power.efficiency("Offline", 1000.0, 0.0) is None and power.efficiency("Offline", 1.0, -3.0) is None
    assert power.efficiency_unit("SingleStream", "Latency (ms)") == "samples/J"
    assert power.efficiency_unit("Offline", "Tokens/s") == "tokens/J"
    assert power.efficiency_unit("Offline", "Widgets/s") == "Widgets/s per W"
