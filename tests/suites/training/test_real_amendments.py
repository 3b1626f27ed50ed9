"""Training v1.1 as it was reviewed, on the real logs in ../shared/mlperf (skipped where absent): BERT,
MiniGo and 3D U-Net sets that today's checker fails for missing weight-initialization lines score,
and their scores are the olympic averages worked out by hand from the logs' run_start/run_stop lines.
The embedded tables (data/training-v1.1/) score every complete result set."""

from __future__ import annotations

import zipfile

import pandas as pd
import pytest

from mlperf_report.core import paths
from mlperf_report.core.sources import open_source
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.ingest import ingest

ARCHIVE = paths.SHARED_MLPERF / "training_results_v1.1.zip"
TOP = "training_results_v1.1/"

# run_stop.time_ms - run_start.time_ms of each result file, read off the logs (result_0 first)
BERT_MS = [1117909, 1291015, 1060632, 1068257, 1300580, 1327803, 1353360, 1140346, 1178807, 1176835]
MINIGO_MS = [15561126, 14790301, 14664953, 15679993, 17900373, 16219948, 15147935, 18919427, 16278041, 15558690]
UNET3D_MS = [267696, 160844, 261355, 241459, 215359, 291664, 203316, 295855, 197903, 192049,
             151603, 481450, 187513, 167933, 181730, 242119, 184073, 191811, 281349, 197298,
             169225, 363427, 241434, 193562, 267620, 165734, 283537, 184931, 160556, 148308,
             225427, 152538, 265219, 407370, 209338, 338634, 300902, 261118, 265084, 219275]

# Olympic averages by hand. BERT: drop 1060632 and 1353360; the other eight sum to 9601552 ms,
# 9601552 / 8 / 60000 = 20.0032333... min. MiniGo: drop 14664953 and 18919427; 127136407 / 8 / 60000
# = 264.8675145833... min. 3D U-Net (40 runs, 4 dropped each side): drop 148308, 151603, 152538,
# 160556 and 481450, 407370, 363427, 338634; the other 32 sum to 7213732 ms, / 32 / 60000 = 3.7571520833 min.
EXPECTED = {
    ("NVIDIA", "dgxa100_ngc21.09_pytorch", "bert"): 9601552 / 8 / 60000,
    ("NVIDIA", "dgxa100_ngc21.09_tensorflow", "minigo"): 127136407 / 8 / 60000,
    ("NVIDIA", "dgxa100_n9_ngc21.09_mxnet", "unet3d"): 7213732 / 32 / 60000,
}


def test_hand_arithmetic_matches_the_durations():
    """The sums above are of the durations listed (a typo in either fails here, not silently)."""
    for durations, drop, total in [(BERT_MS, 1, 9601552), (MINIGO_MS, 1, 127136407), (UNET3D_MS, 4, 7213732)]:
        assert sum(sorted(durations)[drop:-drop]) == total


@pytest.fixture(scope="module")
def v11_sets(tmp_path_factory):
    if not ARCHIVE.exists():
        pytest.skip(f"real MLPerf archives not found in {paths.SHARED_MLPERF}")
    tree = tmp_path_factory.mktemp("v11") / "training_results_v1.1"
    with zipfile.ZipFile(ARCHIVE) as archive:
        for name in archive.namelist():
            rel = name[len(TOP):]
            wanted = any(rel.startswith(f"{org}/results/{system}/{bench}/") or rel == f"{org}/systems/{system}.json"
                         for org, system, bench in EXPECTED)
            if wanted and not name.endswith("/"):
                (tree / rel).parent.mkdir(parents=True, exist_ok=True)
                (tree / rel).write_bytes(archive.read(name))
    source, facts = open_source(str(tree))
    try:  # a fresh verdict cache: today's checker really runs, and the amendment with it
        return ingest(source, facts, rounds.parse_round("training-v1.1"), jobs=2,
                      cache_dir=tmp_path_factory.mktemp("cache"))
    finally:
        source.close()


@pytest.mark.parametrize("key", sorted(EXPECTED), ids=lambda k: k[2])
def test_v11_sets_score_as_reviewed(v11_sets, key):
    results = v11_sets.results.set_index(["submitter", "system_id", "benchmark"])
    row = results.loc[key]
    assert row.status == "ok", row.status_detail
    assert row.score_min == pytest.approx(EXPECTED[key], rel=1e-12)
    runs = v11_sets.runs[(v11_sets.runs.system_id == key[1]) & (v11_sets.runs.benchmark == key[2])]
    assert runs["compliant"].all() and set(runs["amendment"]) == {"v1.1-weights-initialization"}
    assert runs["checker_warning"].str.contains("weights_initialization").all()


def test_embedded_v11_tables_score_every_complete_result_set():
    results = pd.read_csv(paths.round_data("training-v1.1") / "results.csv")
    complete = results[results.status != "incomplete"]
    assert len(complete) == 183 and (complete.status == "ok").all()
    manifest = pd.read_json(paths.round_data("training-v1.1") / "manifest.json", typ="series")
    assert [a["id"] for a in manifest["compliance"]["amendments"]] == ["v1.1-weights-initialization"]
    assert manifest["compliance"]["drift"] == []
