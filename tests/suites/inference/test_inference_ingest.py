"""Inference ingest on trees the tests build: every scenario kind, invalid runs, failed accuracy and
compliance, power and no power, a system in both categories."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest

from mlperf_report.core.errors import InputError
from mlperf_report.core.sources import open_source
from mlperf_report.suites import suite_for
from mlperf_report.suites.inference import checker_rules, models
from mlperf_report.suites.inference.ingest import RESULT_COLUMNS, ingest, write_tables
from mlperf_report.suites.inference.loadgen import SummaryError, parse_summary
from mlperf_report.suites.inference.rounds import parse_round
from tests.inference_trees import LLM_SERVER, SERVER, inference_tree

V41 = parse_round("inference-v4.1")


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    top = inference_tree(tmp_path_factory.mktemp("inf"))
    source, facts = open_source(str(top))
    try:
        result = ingest(source, facts, V41)
    finally:
        source.close()
    out = tmp_path_factory.mktemp("out")
    write_tables(result, out)
    return result, out


def row(result, system, model, scenario):
    r = result.results
    found = r[(r.system_id == system) & (r.model == model) & (r.scenario == scenario)]
    assert len(found) == 1
    return found.iloc[0]


@pytest.mark.parametrize("system, model, scenario, value, unit, metric", [
    ("x8", "resnet50", "Offline", 756960.0, "Samples/s", "result_samples_per_second"),
    ("x8", "resnet50", "Server", 480131.10, "Queries/s", "result_completed_samples_per_sec"),
    ("x8", "llama2-70b-99", "Offline", 31302.7, "Tokens/s", "result_tokens_per_second"),
    ("x8", "llama2-70b-99", "Server", 29228.22, "Tokens/s", "result_completed_tokens_per_second"),
    ("x8", "gptj-99", "Offline", 9966.79, "Tokens/s", "result_inferred_tokens_per_second"),
    ("e1", "resnet50", "SingleStream", 0.332412, "Latency (ms)", "early_stopping_latency_ss"),
    ("e1", "resnet50", "MultiStream", 42.019927, "Latency (ms)", "early_stopping_latency_ms"),
    ("o1", "resnet50", "Offline", 756960.0, "Samples/s", "result_samples_per_second"),
])
def test_primary_metric_per_scenario(tables, system, model, scenario, value, unit, metric):
    got = row(tables[0], system, model, scenario)
    assert got.result == pytest.approx(value, rel=1e-12) and got.unit == unit and got.metric == metric


def test_v40_server_is_scheduled_and_llm_server_in_queries():
    v40 = parse_round("inference-v4.0")
    from mlperf_report.suites.inference.metrics import primary_metric
    assert primary_metric(v40.rules, "resnet", "Server", parse_summary(SERVER)).value == pytest.approx(480136.99)
    llama = primary_metric(v40.rules, "llama2-70b-99", "Server", parse_summary(LLM_SERVER))
    assert (llama.value, llama.unit) == (pytest.approx(100.35), "Queries/s")


def test_validity_reasons(tables):
    result = tables[0]
    assert row(result, "x8", "resnet50", "Offline").valid
    invalid = row(result, "x8", "retinanet", "Offline")
    assert not invalid.valid and "LoadGen: INVALID (Performance constraints satisfied: no)" in invalid.status_detail
    acc = row(result, "x8", "dlrm-v2-99", "Offline")
    assert not acc.valid and acc.accuracy_target_met == False and "AUC 70 below target 79.5" in acc.status_detail
    comp = row(result, "x8", "bert-99", "Offline")
    assert not comp.valid and comp.compliance_passed == False and "TEST05 performance" in comp.status_detail
    gptj = row(result, "x8", "gptj-99", "Offline")  # language models need no TEST01/04/05
    assert gptj.valid and pd.isna(gptj.compliance_passed)
    llama = row(result, "x8", "llama2-70b-99", "Server")
    assert llama.valid and llama.compliance_passed == True and llama.accuracy == pytest.approx(44.7986)
    open_row = row(result, "o1", "resnet50", "Offline")  # open: accuracy below target allowed, no audit
    assert open_row.valid and open_row.accuracy_target_met == False


def test_power_categories_and_systems(tables):
    result, out = tables
    assert row(result, "x8", "resnet50", "Offline").power_unit == "Watts"
    assert row(result, "e1", "resnet50", "SingleStream").power_unit == "millijoules"
    assert row(result, "x8", "resnet50", "Server").power_unit == ""
    assert result.results["power_result"].isna().all()  # needs spl.txt + the detail log; manifest says so
    both = row(result, "e1", "resnet50", "MultiStream")
    assert both.category == "datacenter,edge" and both.availability == "preview" and both.accelerators == 1
    assert row(result, "x8", "resnet50", "Offline").category == "datacenter"
    written = pd.read_csv(out / "results.csv")
    assert list(written.columns) == RESULT_COLUMNS and len(written) == 11
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["counts"]["by_status"] == {"invalid": 3, "valid": 8}
    assert any("spl.txt" in rule for rule in manifest["rules"]["not_checked"])
    systems = pd.read_csv(out / "systems.csv")
    assert sorted(systems.system_id) == ["e1", "o1", "x8"]


def test_folder_and_zip_give_identical_tables(tables, tmp_path):
    top = inference_tree(tmp_path / "t")
    archive = shutil.make_archive(str(tmp_path / "inference_results_v4.1"), "zip", top.parent)
    source, facts = open_source(archive)
    try:
        zipped = ingest(source, facts, V41)
    finally:
        source.close()
    pd.testing.assert_frame_equal(zipped.results, tables[0].results)


def test_bad_input_named(tmp_path):
    from tests.trees import write
    write(tmp_path, "closed/Acme/results/x/resnet50/Offline/performance/run_1/mlperf_log_summary.txt", "garbage\n")
    write(tmp_path, "closed/Acme/systems/x.json", "{not json")
    source, facts = open_source(str(tmp_path))
    result = ingest(source, facts, V41)
    files = {p["file"]: p["problem"] for p in result.problems}
    assert "not a LoadGen summary" in files["closed/Acme/results/x/resnet50/Offline/performance/run_1/mlperf_log_summary.txt"]
    assert "not valid JSON" in files["closed/Acme/systems/x.json"]
    assert not result.results.iloc[0].valid
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="no result folders"):
        ingest(*open_source(str(empty)), V41)
    with pytest.raises(SummaryError):
        parse_summary("nothing")


def test_catalogue_and_registry():
    assert models.title("llama2-70b-99") == "Llama 2 70B (99 % of reference accuracy)"
    assert "參考模型準確度的 99.9%" in models.title("bert-99.9", "zh-Hant")
    for version, rules in checker_rules.RULES.items():  # every benchmark of every known round is named
        for model in rules.models:
            assert models.is_known(model), (version, model)
            assert checker_rules.accuracy_bounds(rules, model), (version, model)
            assert checker_rules.required_tests(rules, model) is not None
    assert models.is_known("resnet50") and checker_rules.mlperf_model("resnet50", checker_rules.RULES[(4, 1)]) == "resnet"
    assert suite_for("inference-v4.1").name == "inference"
    assert not suite_for("inference-v5.0").parse_round("inference-v5.0").rules_carried_over
    later = suite_for("inference-v7.0").parse_round("inference-v7.0")
    assert later.rules_carried_over and later.rules_version == max(checker_rules.RULES)
    older = parse_round("inference-v3.1")  # read with v4.0's rules, reported and not enforced
    assert older.rules_carried_over and older.rules_version == min(checker_rules.RULES)
    with pytest.raises(ValueError, match="before v2.0 are not supported.*samples per query"):
        parse_round("inference-v1.1")


@pytest.mark.parametrize("folder, version, benchmark", [
    ("resnet50", (6, 1), "resnet"), ("llama3_1-8b", (5, 1), "llama3.1-8b"),
    ("llama3_1-405b_pruned", (5, 1), "llama3.1-405b"), ("mobilenet-v1-precision_float-0.75-128", (4, 1), "resnet"),
    ("bert-large-pruned80_quant-none-vnni-bert-99", (4, 1), "bert-99"),
    ("obert-large-base-none-bert-99.9", (4, 1), "bert-99.9"),
    ("neuralmagic_Llama-2-7b-chat-hf-FP8", (4, 1), "neuralmagic_Llama-2-7b-chat-hf-FP8"),  # no benchmark: kept as is
])
def test_folder_spellings_and_open_variants_get_the_checker_s_benchmark(folder, version, benchmark):
    """The results table's benchmark (the checker's ``MlperfModel``) for folder spellings and open variants."""
    assert checker_rules.mlperf_model(folder, checker_rules.RULES[version]) == benchmark
    assert models.title(benchmark) != benchmark or benchmark == folder  # every mapped name has a catalogue title


def test_a_newer_round_reports_earlier_rules_without_enforcing_them(tmp_path):
    top = inference_tree(tmp_path)
    source, facts = open_source(str(top))
    result = ingest(source, facts, parse_round("inference-v7.0"))
    assert result.manifest["rules"] == {**result.manifest["rules"], "checker_rules_of": "v6.1", "carried_over": True}
    r = result.results
    dlrm = r[(r.model == "dlrm-v2-99")].iloc[0]  # accuracy below the v4.1 target: said, not enforced
    assert dlrm.valid and "not enforced" in dlrm.status_detail
    bert = r[(r.model == "bert-99")].iloc[0]  # a failed audit test still counts
    assert not bert.valid


def test_an_older_round_is_read_with_the_oldest_known_rules_not_enforced(tmp_path):
    top = inference_tree(tmp_path)
    source, facts = open_source(str(top))
    result = ingest(source, facts, parse_round("inference-v3.1"))
    assert result.manifest["rules"]["checker_rules_of"] == "v4.0" and result.manifest["rules"]["carried_over"]
    r = result.results
    assert r["result"].notna().all()
    dlrm = r[(r.model == "dlrm-v2-99")].iloc[0]
    assert dlrm.valid and "checker rules of another round, not enforced" in dlrm.status_detail
