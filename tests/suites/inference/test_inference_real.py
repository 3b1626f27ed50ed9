"""Inference ingest on the shared v4.1 round (skipped where ../shared/mlperf is absent)."""

from __future__ import annotations

import pytest

from mlperf_report.core import paths
from mlperf_report.core.sources import open_source
from mlperf_report.suites.inference.ingest import ingest
from mlperf_report.suites.inference.rounds import parse_round

ARCHIVE = paths.SHARED_MLPERF / "inference_results_v4.1.zip"
pytestmark = pytest.mark.skipif(not ARCHIVE.exists(), reason=f"{ARCHIVE} not found")


@pytest.fixture(scope="module")
def v41():
    source, facts = open_source(str(ARCHIVE))
    try:
        return ingest(source, facts, parse_round("inference-v4.1"))
    finally:
        source.close()


@pytest.mark.parametrize("submitter, system, model, scenario, value, unit", [
    ("NVIDIA", "H200-SXM-141GB-CTSx8_TRT", "llama2-70b-99", "Offline", 34864.2, "Tokens/s"),
    ("NVIDIA", "H200-SXM-141GB-CTSx8_TRT", "llama2-70b-99", "Server", 32789.74, "Tokens/s"),
    ("AMD", "8xMI300X_2xEPYC-9374F", "llama2-70b-99", "Server", 21028.23, "Tokens/s"),
    ("AMD", "8xMI300X_2xEPYC-TURIN", "llama2-70b-99", "Offline", 24109.8, "Tokens/s"),
    # The copy keeps mlperf_log_detail.txt, whose value (six significant digits) is the one MLCommons'
    # table prints; the summary's rounding of the same run reads 480131.10.
    ("NVIDIA", "H200-SXM-141GBx8_TRT_MaxQ", "resnet50", "Server", 480131.0, "Queries/s"),
])
def test_published_v41_results(v41, submitter, system, model, scenario, value, unit):
    r = v41.results
    hit = r[(r.submitter == submitter) & (r.system_id == system) & (r.model == model) & (r.scenario == scenario)]
    assert len(hit) == 1
    assert hit.iloc[0].result == pytest.approx(value, rel=1e-9) and hit.iloc[0].unit == unit
    assert hit.iloc[0].valid and hit.iloc[0].division == "closed"


# Read by hand from the copy's LoadGen logs (`unzip -p ... mlperf_log_summary.txt`), in the unit the
# submission checker reports: SingleStream / MultiStream the "Early stopping 90th / 99th percentile
# estimate" (ns, here in ms), Offline "Samples per second" (LoadGen's "Tokens per second" for the
# Llama 2 run), Server "Completed samples per second" (v4.1's field); the accuracy from
# accuracy/accuracy.txt (resnet50's "accuracy=75.730%", BERT's "f1"). The code's tables take no part.
@pytest.mark.parametrize("division, submitter, system, model, scenario, value, unit, accuracy", [
    ("closed", "Dell", "XR8620_L4x1_TRT", "retinanet", "SingleStream", 4.830777, "Latency (ms)", None),
    ("closed", "Dell", "XR8620_L4x1_TRT", "retinanet", "MultiStream", 42.019927, "Latency (ms)", None),
    ("closed", "UntetherAI", "h13_u1_slim", "resnet50", "SingleStream", 0.121029, "Latency (ms)", None),
    ("closed", "Intel", "1-node-2S-EMR-PyTorch", "resnet50", "Offline", 25204.5, "Samples/s", 75.730),
    ("closed", "Intel", "1-node-2S-EMR-PyTorch", "bert-99", "Server", 1281.58, "Queries/s", 90.53885196505269),
    ("closed", "Intel", "1-node-2S-EMR-PyTorch", "3d-unet-99.9", "Offline", 1.93632, "Samples/s", None),
    ("open", "NeuralMagic", "4xH100-SXM-80GB_vLLM_GPTQ-reference-cpu-pytorch-v2.3.1-default_config", "llama2-70b-99",
     "Offline", 1577.11, "Tokens/s", None),
])
def test_results_read_by_hand_from_the_loadgen_logs(v41, division, submitter, system, model, scenario, value, unit,
                                                    accuracy):
    r = v41.results
    hit = r[(r.division == division) & (r.submitter == submitter) & (r.system_id == system) & (r.model == model)
            & (r.scenario == scenario)]
    assert len(hit) == 1
    row = hit.iloc[0]
    assert row.result == pytest.approx(value, rel=1e-12) and row.unit == unit
    assert row.valid, row.status_detail
    if accuracy is not None:
        assert row.accuracy == pytest.approx(accuracy, rel=1e-12) and row.accuracy_target_met


def test_every_published_result_is_valid_and_scored(v41):
    r = v41.results
    assert len(r) == 937 and r["result"].notna().all()
    assert r["valid"].all(), r.loc[~r["valid"], ["system_id", "model", "scenario", "status_detail"]].head().to_string()
    assert set(r["scenario"]) == {"Offline", "Server", "SingleStream", "MultiStream"}
    assert (r.category == "datacenter,edge").any() and set(r.division) == {"closed", "open"}
    assert v41.manifest["counts"]["with_power"] > 0 and v41.problems == []


def test_submitters_and_benchmarks_as_mlcommons_table_names_them(v41):
    """The submitter is the results folder (Cisco's systems JSONs also say CISCO, Supermicro's
    supermicro), and each folder spelling has the benchmark the checker files it under."""
    r = v41.results
    assert {"Cisco", "Supermicro"} <= set(r.submitter) and not {"CISCO", "supermicro"} & set(r.submitter)
    assert {"CISCO", "Cisco"} <= set(v41.systems.submitter)  # the systems JSON's spelling stays there
    assert set(r.loc[r.model == "resnet50", "benchmark"]) == {"resnet"}
    assert set(r.loc[r.model == "bert-large-pruned80_quant-none-vnni-bert-99", "benchmark"]) == {"bert-99"}
    assert (r.loc[r.division == "closed", "benchmark"].isin(parse_round("inference-v4.1").rules.models)).all()


def test_embedded_tables_are_this_ingest_of_the_shared_round(v41, tmp_path):
    from mlperf_report.suites.inference.ingest import write_tables

    write_tables(v41, tmp_path)
    for name in ("results.csv", "systems.csv", "manifest.json"):
        assert (tmp_path / name).read_bytes() == (paths.DATA / "inference-v4.1" / name).read_bytes(), name


# The checker's arithmetic done by hand (awk over spl.txt, outside the code): the mean of the positive
# Watts samples strictly between the detail log's power_begin and power_end; for the streams
# mean W x window s x 1000 / result_query_count (both runs below are native, not inferred).
#   NVIDIA MaxQ resnet50 Offline: 653 samples in 23:36:17.787-23:47:10.390, mean 4954.0315467075 W
#   NVIDIA MaxQ resnet50 Server: 600 samples in 23:40:08.786-23:50:08.794, mean 5013.7911666667 W
#   UntetherAI h13 resnet50 SingleStream: 600 samples, mean 231.1185 W, 600 s, 4742678 queries
#   UntetherAI h13 resnet50 MultiStream: 600 samples, mean 303.1723333333 W, 600 s, 2966621 queries
@pytest.mark.parametrize("submitter, system, scenario, value, unit", [
    ("NVIDIA", "H200-SXM-141GBx8_TRT_MaxQ", "Offline", 4954.0315467075, "Watts"),
    ("NVIDIA", "H200-SXM-141GBx8_TRT_MaxQ", "Server", 5013.7911666667, "Watts"),
    ("UntetherAI", "h13_u3_slim", "SingleStream", 231.1185 * 600 * 1000 / 4742678, "millijoules"),
    ("UntetherAI", "h13_u3_slim", "MultiStream", 303.1723333333 * 600 * 1000 / 2966621, "millijoules"),
])
def test_power_results_equal_the_checker_arithmetic_by_hand(v41, submitter, system, scenario, value, unit):
    r = v41.results
    hit = r[(r.submitter == submitter) & (r.system_id == system) & (r.model == "resnet50") & (r.scenario == scenario)]
    assert len(hit) == 1 and hit.iloc[0].power_unit == unit
    assert hit.iloc[0].power_result == pytest.approx(value, rel=1e-9)


def test_every_power_measured_folder_has_its_power_result(v41):
    measured = v41.results[v41.results.power_unit != ""]
    assert len(measured) == 31 and measured.power_result.notna().all() and (measured.power_result > 0).all()
