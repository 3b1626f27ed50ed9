"""Ingest on the real rounds in ../shared/mlperf (skipped where that folder is absent)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from mlperf_report.core import paths
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import ingest, write_tables
from mlperf_report.core.sources import open_source

SHARED = paths.SHARED_MLPERF
ABSENT = SHARED / "ABSENT.txt"
pytestmark = pytest.mark.skipif(not (SHARED / "training_results_v1.0.zip").exists(),
                                reason=f"real MLPerf archives not found in {SHARED}")


@pytest.fixture(scope="module")
def v10():
    source, facts = open_source(str(SHARED / "training_results_v1.0.zip"))
    absent = ABSENT.read_text().splitlines()
    try:
        return ingest(source, facts, rounds.parse_round("training-v1.0"), absent=absent)
    finally:
        source.close()


@pytest.mark.parametrize("submitter, system, benchmark, minutes", [
    ("Graphcore", "ipu-pod64-TF1", "resnet", 14.48),
    ("Graphcore", "ipu-pod16-TF1", "resnet", 37.12),
    ("Graphcore", "ipu-pod16-POPART-closed", "bert", 34.49),
    ("Graphcore", "ipu-pod64-POPART-closed", "bert", 11.08),
    ("Graphcore", "ipu-pod64-POPART-open", "bert", 9.39),
    ("NVIDIA", "dgxa100_ngc21.05_mxnet", "resnet", 28.77),
    ("NVIDIA", "dgxa100_ngc21.05_pytorch", "bert", 21.69),
])
def test_published_v10_scores(v10, submitter, system, benchmark, minutes):
    rows = v10.results
    row = rows[(rows.submitter == submitter) & (rows.system_id == system) & (rows.benchmark == benchmark)].iloc[0]
    assert row.status == "ok"
    assert f"{row.score_min:.2f}" == f"{minutes:.2f}"


def test_dell_bert_is_incomplete(v10):
    rows = v10.results
    row = rows[(rows.system_id == "XE8545x4A100-SXM-80GB") & (rows.benchmark == "bert")].iloc[0]
    assert row.status == "incomplete" and pd.isna(row.score_min)
    assert row.status_detail.startswith("incomplete: 1 of 10 runs present")


def test_every_absent_result_set_says_incomplete(v10):
    prefix = "training_results_v1.0/"
    expected = set()
    for line in ABSENT.read_text().splitlines():
        if line.startswith(prefix) and Path(line).name.startswith("result_"):
            org, _, system, benchmark, _ = line[len(prefix):].split("/")
            expected.add((system, benchmark))
    rows = v10.results.set_index(["system_id", "benchmark"])
    assert expected
    for key in expected:
        assert rows.loc[key, "status"] == "incomplete", key


@pytest.mark.parametrize("version", ["0.7", "1.0", "1.1"])
def test_embedded_data_is_what_ingest_produces(tmp_path, version):
    """data/<round>/ must be the output of this project's own ingest of the archive, byte for byte."""
    round_ = rounds.parse_round(f"training-v{version}")
    source, facts = open_source(str(SHARED / f"training_results_v{version}.zip"))
    try:
        res = ingest(source, facts, round_, absent=ABSENT.read_text().splitlines())
    finally:
        source.close()
    write_tables(res, tmp_path)
    for name in ("runs.csv", "results.csv", "systems.csv", "manifest.json"):
        assert (tmp_path / name).read_bytes() == (paths.round_data(round_.id) / name).read_bytes(), name
    assert res.manifest["counts"]["scored"] > 100
