"""Inference rounds after v4.1 on small built trees: each round's checker rules (benchmarks, primary
metric fields, units, audit tests, LLM latency limits, seeds), the Interactive scenario (a LoadGen Server
run), results inferred from a SingleStream run, and the v6.0 layout (audit tests inside the result folder)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from mlperf_report.core.sources import open_source
from mlperf_report.suites.inference import checker_rules
from mlperf_report.suites.inference.ingest import ingest
from mlperf_report.suites.inference.rounds import parse_round
from tests.inference_trees import TEST06_PASS, summary, system
from tests.trees import write


def with_params(text: str, *lines: str) -> str:
    """A summary with extra 'Test Parameters Used' / token-latency lines."""
    return text.replace("\nNo errors", "\n" + "\n".join(lines) + "\nNo errors")


def seeds(version) -> list[str]:
    values = checker_rules.RULES[version].seeds
    return [f"{key.removeprefix('effective_')} : {value}" for key, value in values.items()]


def put(top, division, org, sys_id, model, scenario, summary_text, accuracy_text, tests=None, inside=False):
    base = f"{division}/{org}/results/{sys_id}/{model}/{scenario}"
    write(top, f"{base}/performance/run_1/mlperf_log_summary.txt", summary_text)
    write(top, f"{base}/accuracy/accuracy.txt", accuracy_text)
    for test, (name, text) in (tests or {}).items():
        folder = f"{base}/{test}" if inside else f"{division}/{org}/compliance/{sys_id}/{model}/{scenario}/{test}"
        write(top, f"{folder}/{name}", text)


def run(top, round_id):
    source, facts = open_source(str(top))
    try:
        return ingest(source, facts, parse_round(round_id))
    finally:
        source.close()


def one(result, model, scenario, system_id=None):
    r = result.results
    hit = r[(r.model == model) & (r.scenario == scenario) & ((r.system_id == system_id) if system_id else True)]
    assert len(hit) == 1, hit
    return hit.iloc[0]


LLAMA_ACC = ("{'rouge1': 44.7986, 'rouge2': 22.3, 'rougeL': 28.9, 'rougeLsum': 42.1, 'tokens_per_sample': 288.1}"
             "\nhash=ab12\n")
PASS_PERF = ("verify_performance.txt", "TEST PASS\n")
PASS_ACC = ("verify_accuracy.txt", "TEST PASS\n")
T06 = {"TEST06": ("verify_accuracy.txt", TEST06_PASS["TEST06"])}


def llm_server(tokens: float, ttft_ms: float, tpot_ms: float, version) -> str:
    text = summary("Server", ["Completed samples per second    : 10.5", f"Completed tokens per second: {tokens}"])
    return with_params(text, f"99.00 percentile first token latency (ns)   : {int(ttft_ms * 1e6)}",
                       f"99.00 percentile time to output token (ns)   : {int(tpot_ms * 1e6)}",
                       "min_duration (ms): 600000", *seeds(version))


@pytest.fixture(scope="module")
def v50(tmp_path_factory):
    top = tmp_path_factory.mktemp("v50") / "inference_results_v5.0"
    write(top, "closed/Acme/systems/x8.json", system())
    put(top, "closed", "Acme", "x8", "llama2-70b-interactive-99", "Server",
        llm_server(9000.5, 400, 35, (5, 0)), LLAMA_ACC, T06)
    put(top, "closed", "Acme", "x8", "llama2-70b-99", "Server", llm_server(20000.25, 600, 35, (5, 0)), LLAMA_ACC, T06)
    put(top, "closed", "Acme", "x8", "llama2-70b-interactive-99.9", "Server",  # TTFT over v5.0's 450 ms
        llm_server(9100.0, 460, 35, (5, 0)), LLAMA_ACC.replace("44.7986", "44.40"), T06)
    put(top, "closed", "Acme", "x8", "gptj-99", "Offline",
        summary("Offline", ["Samples per second: 144.446", "Tokens per second (inferred): 9966.79"]),
        "{'rouge1': 43.0, 'rouge2': 20.1, 'rougeL': 30.0, 'gen_len': 3967000}\nhash=1\n")
    put(top, "closed", "Acme", "x8", "llama3_1-405b", "Server", llm_server(288.60, 5000, 150, (5, 0)),
        "{'rougeL': 21.7, 'exact_match': 90.1, 'tokens_per_sample': 644.8}\nhash=1\n", T06)
    write(top, "closed/Acme/results/x8/llama3_1-405b/Server/performance/run_1/mlperf_log_detail.txt",
          'harness noise\n:::MLLOG {"key": "result_completed_tokens_per_second", "value": 288.601, '
          '"time_ms": 1.0, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {}}\n')
    write(top, "open/Acme/systems/x8.json", system(division="open"))
    write(top, "open/Acme/model_mapping.json", json.dumps({"Llama-3.3-70B-FP8": "llama2-70b-99"}))
    write(top, "open/Acme/results/x8/Llama-3.3-70B-FP8/Server/performance/run_1/mlperf_log_summary.txt",
          llm_server(134.71, 900, 60, (5, 0)))
    write(top, "open/Acme/results/x8/Llama-3.3-70B-FP8/Server/performance/run_1/mlperf_log_detail.txt",
          'harness noise\n:::MLLOG {"key": "result_completed_samples_per_sec", "value": 0.5, '
          '"time_ms": 1.0, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {}}\n')
    write(top, "open/Acme/results/x8/Llama-3.3-70B-FP8/Server/accuracy/accuracy.txt", LLAMA_ACC)
    write(top, "open/Zeta/model_mapping.json", "[1, 2]")
    put(top, "closed", "Acme", "x8", "resnet50", "Offline",  # the v4.1 seeds in a v5.0 run
        with_params(summary("Offline", ["Samples per second: 700000"]), *seeds((4, 1))),
        "accuracy=76.1%\nhash=1\n", {"TEST01": PASS_PERF, "TEST04": PASS_PERF})
    return run(top, "inference-v5.0")


def test_v50_interactive_benchmark_is_a_server_run_in_tokens(v50):
    inter = one(v50, "llama2-70b-interactive-99", "Server")
    assert inter.valid and inter.result == 9000.5 and inter.metric == "result_completed_tokens_per_second"
    assert inter.unit == "Tokens/s"  # as v5.0's official table prints it
    assert one(v50, "llama2-70b-99", "Server").valid  # 600 ms TTFT is within the plain Server limit


def test_v50_open_model_names_map_through_the_submitters_model_mapping(v50):
    """The checker maps an open model folder to its benchmark with the submitter's model_mapping.json:
    the metric is the benchmark's (tokens/s), the unit v5.0's folder-name lookup (Queries/s)."""
    mapped = one(v50, "Llama-3.3-70B-FP8", "Server")
    assert mapped.metric == "result_completed_tokens_per_second" and mapped.result == 134.71
    assert mapped.unit == "Queries/s" and mapped.valid
    assert mapped.benchmark == "llama2-70b-99" and mapped.model == "Llama-3.3-70B-FP8"  # filed as the table files it
    assert one(v50, "llama3_1-405b", "Server").benchmark == "llama3.1-405b"  # a folder spelling
    assert any(p["file"].endswith("open/Zeta/model_mapping.json") and "not a JSON object" in p["problem"]
               for p in v50.problems)


def test_v50_checker_rules_make_results_invalid(v50):
    late = one(v50, "llama2-70b-interactive-99.9", "Server")
    assert not late.valid and "TTFT p99 460 ms (limit 450)" in late.status_detail
    gptj = one(v50, "gptj-99", "Offline")
    assert gptj.valid and gptj.result == 9966.79 and gptj.unit == "Tokens/s"
    # the v5.0 checker looks units up by the folder's name: llama3_1-405b is not in its table;
    # the value is the detail log's (the summary prints 288.60)
    big = one(v50, "llama3_1-405b", "Server")
    assert big.result == 288.601 and big.unit == "Queries/s" and big.metric == "result_completed_tokens_per_second"
    resnet = one(v50, "resnet50", "Offline")
    assert not resnet.valid and "seeds are not the round's" in resnet.status_detail
    assert v50.manifest["rules"]["checker_rules_of"] == "v5.0" and not v50.manifest["rules"]["carried_over"]


@pytest.fixture(scope="module")
def v51(tmp_path_factory):
    top = tmp_path_factory.mktemp("v51") / "inference_results_v5.1"
    write(top, "closed/Acme/systems/x8.json", system())
    put(top, "closed", "Acme", "x8", "llama2-70b-99", "Interactive", llm_server(8840.42, 430, 38, (5, 1)),
        LLAMA_ACC, T06)
    put(top, "closed", "Acme", "x8", "llama2-70b-99.9", "Interactive",  # within Server's limits, not Interactive's
        llm_server(8000.0, 900, 38, (5, 1)), LLAMA_ACC.replace("44.7986", "44.40"), T06)
    llama8 = ("{'rouge1': 38.9, 'rouge2': 16.0, 'rougeL': 24.6, 'rougeLsum': 35.9, 'gen_len': 8000000}\nhash=1\n")
    put(top, "closed", "Acme", "x8", "llama3.1-8b", "Interactive", llm_server(5000.0, 450, 25, (5, 1)), llama8, T06)
    put(top, "closed", "Acme", "x8", "whisper", "Offline",
        summary("Offline", ["Samples per second: 20.5", "Tokens per second: 1500.75"]),
        "Word Error Rate: 2.06%, accuracy=97.94%\nhash=1\n", {"TEST01": PASS_PERF})
    put(top, "closed", "Acme", "x8", "retinanet", "Offline",  # a 60 s run: too short for the rules
        with_params(summary("Offline", ["Samples per second: 20"]), "min_duration (ms): 60000"),
        "mAP=37.3%\nhash=1\n", {"TEST01": PASS_PERF})
    write(top, "closed/Edgy/systems/e1.json", system("Edgy", name="Edgy E1", system_type="edge", accelerators=1))
    edge_ss = summary("SingleStream", ["90.0th percentile latency (ns) : 2500000000"]).replace(
        "Min latency", "90.00 percentile latency (ns)   : 2500000000\nMin latency")
    put(top, "closed", "Edgy", "e1", "llama3.1-8b-edge", "SingleStream", edge_ss,
        llama8.replace("38.9", "39.2").replace("24.6", "24.7").replace("35.9", "36.2").replace("8000000", "3000000"))
    ss = summary("SingleStream", [" * Early stopping 90.0th percentile estimate: 332412",
                                  " * Early stopping 99.0th percentile estimate: 351200",
                                  "QPS w/o loadgen overhead        : 3100.5"])
    for folder in ("SingleStream", "MultiStream", "Offline"):
        put(top, "closed", "Edgy", "e1", "resnet", folder, ss, "accuracy=76.1%\nhash=1\n",
            {"TEST01": PASS_PERF, "TEST04": PASS_PERF})
    ms = summary("MultiStream", [" * Early stopping 99.0th percentile estimate: 4200000",
                                 "Mean latency (ns)               : 4000000", "samples_per_query : 8"])
    put(top, "closed", "Edgy", "e1", "retinanet", "Offline", ms, "mAP=37.5%\nhash=1\n",
        {"TEST01": PASS_PERF})
    return run(top, "inference-v5.1")


def test_v51_interactive_scenario_reads_a_server_summary(v51):
    inter = one(v51, "llama2-70b-99", "Interactive")
    assert inter.valid and inter.result == 8840.42 and inter.unit == "Tokens/s"
    assert not any("scenario" in p["problem"] for p in v51.problems), v51.problems
    slow = one(v51, "llama2-70b-99.9", "Interactive")
    assert not slow.valid and "TTFT p99 900 ms (limit 450)" in slow.status_detail
    small = one(v51, "llama3.1-8b", "Interactive")
    assert small.valid and small.unit == "Queries/s"  # not in the v5.1 unit table for Interactive


def test_v51_model_fields_and_units(v51):
    whisper = one(v51, "whisper", "Offline")
    assert whisper.valid and whisper.result == 1500.75 and whisper.unit == "Samples/s"
    edge = one(v51, "llama3.1-8b-edge", "SingleStream")
    assert edge.valid and edge.result == 2500.0 and edge.metric == "result_90.00_percentile_latency_ns"
    assert pd.isna(edge.compliance_passed)  # the edge LLM needs no audit test
    short = one(v51, "retinanet", "Offline", system_id="x8")
    assert not short.valid and "min_duration 60000 ms" in short.status_detail


def test_v51_scenarios_inferred_from_a_singlestream_run(v51):
    assert one(v51, "resnet", "SingleStream").result == pytest.approx(0.332412)
    multi = one(v51, "resnet", "MultiStream")
    # eight times the 99th-percentile estimate, not the 90th the SingleStream result uses
    assert multi.valid and multi.result == pytest.approx(0.3512 * 8) and multi.unit == "Latency (ms)"
    offline = one(v51, "resnet", "Offline")
    assert offline.valid and offline.result == 3100.5 and offline.unit == "Samples/s"
    from_multi = one(v51, "retinanet", "Offline", system_id="e1")
    assert from_multi.valid and from_multi.result == pytest.approx(8 * 1000 / 4.0)  # 8 samples per 4 ms


@pytest.fixture(scope="module")
def v60(tmp_path_factory):
    top = tmp_path_factory.mktemp("v60") / "inference_results_v6.0"
    write(top, "closed/Acme/systems/x8.json", system())
    gpt = summary("Offline", ["Samples per second: 10", "Tokens per second: 50000.5"])
    gpt_acc = "{'exact_match': 83.5, 'tokens_per_sample': 1000.0}\nhash=1\n"
    put(top, "closed", "Acme", "x8", "gpt-oss-120b", "Offline", gpt, gpt_acc,
        {"TEST07": PASS_ACC, "TEST09": ("verify_output_len.txt", "TEST PASS\n")}, inside=True)
    put(top, "closed", "Acme", "x8", "gpt-oss-120b", "Server",
        llm_server(40000.0, 2500, 70, (6, 0)), gpt_acc,
        {"TEST07": PASS_ACC, "TEST09": ("verify_output_len.txt", "Output length 900 below range\nTEST FAIL\n")},
        inside=True)
    put(top, "closed", "Acme", "x8", "qwen3-vl-235b-a22b", "Server",
        summary("Server", ["Completed samples per second    : 55.5"]), '{"f1": 0.79, "precision": 0.8}\nhash=1\n')
    put(top, "closed", "Acme", "x8", "dlrm-v3", "Offline", summary("Offline", ["Samples per second: 9000"]),
        "metric/lifetime_ne/rating: 0.867\nmetric/lifetime_accuracy/rating: 0.697\n"
        "metric/lifetime_gauc/rating: 0.787\nhash=1\n")  # TEST08 missing
    write(top, "closed/Acme/results/x8/dlrm-v3/Offline/measurements.json", "{}")
    write(top, "closed/Acme/results/x8/dlrm-v3/Offline/user.conf", "*.Offline.target_qps = 9000\n")
    write(top, "closed/Edgy/systems/e1.json", system("Edgy", name="Edgy E1", system_type="edge", accelerators=1))
    put(top, "closed", "Edgy", "e1", "wan-2.2-t2v-a14b", "SingleStream",
        summary("SingleStream", [" * Early stopping 90.0th percentile estimate: 30500000000"]),
        "{'vbench_score': 70.1}\nhash=1\n", {"TEST04": PASS_PERF}, inside=True)
    put(top, "closed", "Edgy", "e1", "yolo-95", "Offline", summary("Offline", ["Samples per second: 400"]),
        "mAP=51.0\nhash=1\n", {"TEST01": PASS_PERF}, inside=True)
    return run(top, "inference-v6.0")


def test_v60_layout_keeps_audit_tests_in_the_result_folder(v60):
    gpt = one(v60, "gpt-oss-120b", "Offline")
    assert gpt.valid and gpt.compliance_passed == True and gpt.result == 50000.5 and gpt.unit == "Tokens/s"
    failed = one(v60, "gpt-oss-120b", "Server")
    assert not failed.valid and "TEST09 output_len" in failed.status_detail
    dlrm = one(v60, "dlrm-v3", "Offline")
    assert not dlrm.valid and "compliance test missing: TEST08" in dlrm.status_detail
    assert dlrm.accuracy == pytest.approx(0.867)
    assert v60.manifest["counts"]["ignored"] == 0, v60.manifest["ignored"]


def test_v60_new_benchmarks(v60):
    qwen = one(v60, "qwen3-vl-235b-a22b", "Server")  # no audit test, no tokens field
    assert qwen.valid and qwen.result == 55.5 and qwen.unit == "Queries/s" and qwen.accuracy == 0.79
    wan = one(v60, "wan-2.2-t2v-a14b", "SingleStream")
    assert wan.valid and wan.result == pytest.approx(30.5) and wan.unit == "Latency (s)"
    yolo = one(v60, "yolo-95", "Offline")
    assert yolo.valid and yolo.accuracy == 51.0


@pytest.fixture(scope="module")
def v61(tmp_path_factory):
    top = tmp_path_factory.mktemp("v61") / "inference_results_v6.1"
    write(top, "closed/Acme/systems/x8.json", system())
    rag = with_params(summary("Offline", ["Samples per second: 0.464076"]), "min_duration (ms): 0",
                      "samples_per_query : 824", *seeds((6, 1)))
    test09 = {"TEST09": ("verify_output_len.txt", "Max check pass: True\n\nTEST PASS\n")}
    put(top, "closed", "Acme", "x8", "e2e-rag-qna", "Offline", rag, "Accuracy: 35.9223\n\nhash=98f3\n", test09,
        inside=True)
    put(top, "closed", "Acme", "x8", "e2e-rag-db", "Offline", rag.replace("0.464076", "22.6141"),
        "Accuracy: 97.5\n\nhash=c529\n")  # below the 98 % the checker asks
    put(top, "closed", "Acme", "x8", "gpt-oss-120b", "Offline",  # the RAG exemption is not general
        with_params(summary("Offline", ["Samples per second: 10", "Tokens per second: 50000.5"]),
                    "min_duration (ms): 0", *seeds((6, 1))),
        "{'exact_match': 83.5, 'tokens_per_sample': 1000.0}\nhash=1\n",
        {"TEST07": PASS_ACC, "TEST09": ("verify_output_len.txt", "TEST PASS\n")}, inside=True)
    endpoint_run(top, "deepseek-r1", "Offline", {"n_samples_completed": 1600000, "duration_ns": 5124404179908,
                                                  "output_sequence_lengths": {"total": 6063845077}},
                 {"score": 81.358, "output_sequence_lengths": {"avg": 3769.9}}, min_duration_ms=5400000)
    endpoint_run(top, "qwen3.6-27b", "SingleStream", {"n_samples_completed": 1007, "duration_ns": 3834436534116,
                                                      "qps": 0.2626, "latency": {"avg": 3807663511.36}},
                 {"score": 0.8723618090452261})
    endpoint_run(top, "deepseek-r1", "Server", {"n_samples_completed": 100, "n_samples_failed": 3, "qps": 10.0,
                                                 "tps": 40000.0, "duration_ns": 10 * 10**9},
                 {"score": 81.0, "output_sequence_lengths": {"avg": 3800.0}}, min_duration_ms=600000)
    write(top, "closed/Acme/results/x8/qwen3.6-27b/Offline/performance/result_summary.json", "{not json")
    return run(top, "inference-v6.1")


def endpoint_run(top, model, scenario, summary_json, score, min_duration_ms=600000):
    """A result run with MLCommons' endpoints harness: its JSON files and config.yaml, no LoadGen file."""
    base = f"closed/Acme/results/x8/{model}/{scenario}"
    write(top, f"{base}/performance/result_summary.json",
          json.dumps({"state": "complete", "complete": True, "n_samples_failed": 0, **summary_json}))
    write(top, f"{base}/accuracy/accuracy_results.json",
          json.dumps({"accuracy_scores": [{"dataset_type": "accuracy", **score}]}))
    write(top, f"{base}/config.yaml", f"type: offline\nsettings:\n  runtime:\n    min_duration_ms: {min_duration_ms}\n")
    write(top, f"{base}/report.txt", "QPS: ...\n")


def test_v61_endpoints_harness_results(v61):
    """Read as the checker's endpoints parser does: tokens (or samples) over the run, the mean latency for
    the agentic benchmark, accuracy from accuracy_results.json, no audit test asked."""
    offline = one(v61, "deepseek-r1", "Offline")
    assert offline.valid and offline.unit == "Tokens/s", offline.status_detail
    assert offline.result == pytest.approx(6063845077 / 5124.404179908) and offline.accuracy == 81.358
    agent = one(v61, "qwen3.6-27b", "SingleStream")
    assert agent.valid and agent.result == pytest.approx(3807.66351136) and agent.unit == "Latency (ms)"
    assert agent.metric == "result_mean_latency_ns" and agent.accuracy == pytest.approx(0.87236, abs=1e-5)
    failed = one(v61, "deepseek-r1", "Server")
    assert not failed.valid and "endpoints harness: INVALID (no failed samples (3 failed)" in failed.status_detail and failed.result == 40000.0
    broken = one(v61, "qwen3.6-27b", "Offline")
    assert not broken.valid and pd.isna(broken.result)
    assert any(p["file"].endswith("qwen3.6-27b/Offline/performance/result_summary.json") and "not JSON" in p["problem"]
               for p in v61.problems)


def test_v61_end_to_end_rag_benchmarks(v61):
    qna = one(v61, "e2e-rag-qna", "Offline")  # a whole-dataset run: no minimum duration
    assert qna.valid and qna.result == 0.464076 and qna.unit == "Tasks/s" and qna.accuracy == 35.9223, qna.status_detail
    db = one(v61, "e2e-rag-db", "Offline")
    assert not db.valid and db.unit == "Samples/s" and "E2E_ACCURACY" in db.status_detail
    gpt = one(v61, "gpt-oss-120b", "Offline")
    assert not gpt.valid and "min_duration 0 ms" in gpt.status_detail


def test_rules_tables_hold_the_checkers_numbers():
    v51, v60 = checker_rules.RULES[(5, 1)], checker_rules.RULES[(6, 0)]
    assert checker_rules.accuracy_bounds(v51, "llama3.1-405b") == [
        ("ROUGEL", 21.449934, None), ("exact_match", 89.232165, None), ("TOKENS_PER_SAMPLE", 616.212, 753.148)]
    assert checker_rules.accuracy_bounds(v60, "gpt-oss-120b") == [("exact_match", 82.2987, None),
                                                                  ("TOKENS_PER_SAMPLE", None, 10998.900000000001)]
    assert checker_rules.required_tests(v60, "gpt-oss-120b") == ("TEST07", "TEST09")
    assert checker_rules.required_tests(checker_rules.RULES[(4, 1)], "stable-diffusion-xl") == ("TEST01", "TEST04")
    assert checker_rules.required_tests(checker_rules.RULES[(4, 0)], "stable-diffusion-xl") == ()
    assert checker_rules.unit(checker_rules.RULES[(4, 0)], "llama2-70b-99", "Offline") == "Samples/s"
    assert checker_rules.mlperf_model("llama3_1-8b", v51) == "llama3.1-8b"


def test_a_copy_without_any_audit_verdicts_says_so_instead_of_failing_every_result(tmp_path):
    top = tmp_path / "inference_results_v6.0"
    write(top, "closed/Acme/systems/x8.json", system())
    put(top, "closed", "Acme", "x8", "resnet", "Offline", summary("Offline", ["Samples per second: 9"]),
        "accuracy=76.1%\nhash=1\n")
    result = run(top, "inference-v6.0")
    resnet = one(result, "resnet", "Offline")
    assert resnet.valid and pd.isna(resnet.compliance_passed)
    assert any("no audit-test verdicts" in p["problem"] for p in result.problems)
    put(top, "closed", "Acme", "x8", "yolo-99", "Offline", summary("Offline", ["Samples per second: 9"]),
        "mAP=53.0\nhash=1\n", {"TEST01": PASS_PERF}, inside=True)
    resnet = one(run(top, "inference-v6.0"), "resnet", "Offline")  # the submitter has verdicts: now required
    assert not resnet.valid and "compliance test missing: TEST01, TEST04" in resnet.status_detail


# MLCommons' submission checker for v4.1 (mlcommons/inference, tools/submission/submission_checker.py,
# MODEL_CONFIG["v4.1"]: "seeds" and "accuracy-target" / "accuracy-upper-limit"), written here as it
# reads there, so the rules table is checked against the checker, not against itself.
CHECKER_V41_SEEDS = {"qsl_rng_seed": 3066443479025735752, "sample_index_rng_seed": 10688027786191513374,
                     "schedule_rng_seed": 14962580496156340209}
CHECKER_V41_BOUNDS = {
    "resnet": [("acc", 76.46 * 0.99, None)],
    "retinanet": [("mAP", 37.55 * 0.99, None)],
    "bert-99": [("F1", 90.874 * 0.99, None)],
    "bert-99.9": [("F1", 90.874 * 0.999, None)],
    "dlrm-v2-99": [("AUC", 80.31 * 0.99, None)],
    "dlrm-v2-99.9": [("AUC", 80.31 * 0.999, None)],
    "3d-unet-99": [("DICE", 0.86170 * 0.99, None)],
    "3d-unet-99.9": [("DICE", 0.86170 * 0.999, None)],
    "gptj-99": [("ROUGE1", 42.9865 * 0.99, None), ("ROUGE2", 20.1235 * 0.99, None),
                ("ROUGEL", 29.9881 * 0.99, None), ("GEN_LEN", 4016878 * 0.9, None)],
    "gptj-99.9": [("ROUGE1", 42.9865 * 0.999, None), ("ROUGE2", 20.1235 * 0.999, None),
                  ("ROUGEL", 29.9881 * 0.999, None), ("GEN_LEN", 4016878 * 0.9, None)],
    "llama2-70b-99": [("ROUGE1", 44.4312 * 0.99, None), ("ROUGE2", 22.0352 * 0.99, None),
                      ("ROUGEL", 28.6162 * 0.99, None), ("TOKENS_PER_SAMPLE", 294.45 * 0.9, 294.45 * 1.1)],
    "llama2-70b-99.9": [("ROUGE1", 44.4312 * 0.999, None), ("ROUGE2", 22.0352 * 0.999, None),
                        ("ROUGEL", 28.6162 * 0.999, None), ("TOKENS_PER_SAMPLE", 294.45 * 0.9, 294.45 * 1.1)],
    "stable-diffusion-xl": [("CLIP_SCORE", 31.68631873, 31.81331801), ("FID_SCORE", 23.01085758, 23.95007626)],
    "mixtral-8x7b": [("ROUGE1", 45.4911 * 0.99, None), ("ROUGE2", 23.2829 * 0.99, None),
                     ("ROUGEL", 30.3615 * 0.99, None), ("TOKENS_PER_SAMPLE", 145.9 * 0.9, 145.9 * 1.1),
                     ("gsm8k_accuracy", 73.78 * 0.99, None), ("mbxp_accuracy", 60.12 * 0.99, None)],
}


def test_v41_seeds_are_the_checkers():
    rules = checker_rules.RULES[(4, 1)]
    assert {key.removeprefix("effective_"): int(value) for key, value in rules.seeds.items()} == CHECKER_V41_SEEDS


@pytest.mark.parametrize("model", sorted(CHECKER_V41_BOUNDS))
def test_v41_accuracy_targets_are_the_checkers(model):
    bounds = checker_rules.accuracy_bounds(checker_rules.RULES[(4, 1)], model)
    expected = CHECKER_V41_BOUNDS[model]
    assert [name for name, *_ in bounds] == [name for name, *_ in expected]
    for (_, low, high), (_, want_low, want_high) in zip(bounds, expected):
        assert low == pytest.approx(want_low, rel=1e-12)
        assert (high is None and want_high is None) or high == pytest.approx(want_high, rel=1e-12)
