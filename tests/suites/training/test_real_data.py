"""Ingest on the real rounds in ../shared/mlperf (skipped where that folder is absent), each with a
fresh compliance cache of its own (never the checkout's .cache/), once per round for this module."""

from __future__ import annotations

import math
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
def ingested(tmp_path_factory):
    """version -> the ingest of that round's archive (with ABSENT.txt), compliance verdicts computed
    afresh into a cache under tmp_path; each round is ingested once for the module."""
    done = {}

    def of(version: str):
        archive = SHARED / f"training_results_v{version}.zip"
        if not archive.exists():
            pytest.skip(f"{archive} not found")
        if version not in done:
            source, facts = open_source(str(archive))
            try:
                done[version] = ingest(source, facts, rounds.parse_round(f"training-v{version}"),
                                       absent=ABSENT.read_text().splitlines(),
                                       cache_dir=tmp_path_factory.mktemp(f"cache-v{version}"))
            finally:
                source.close()
            assert done[version].verdicts_from_cache == 0  # a fresh cache: every verdict computed now
        return done[version]

    return of


@pytest.fixture(scope="module")
def v10(ingested):
    return ingested("1.0")


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


@pytest.mark.parametrize("version", ["0.7", "1.0", "1.1", "4.1"])
def test_embedded_data_is_what_ingest_produces(ingested, tmp_path, version):
    """data/<round>/ must be the output of this project's own ingest of the archive, byte for byte
    (this says data/ is current; that the numbers are right is the independent test below)."""
    round_ = rounds.parse_round(f"training-v{version}")
    res = ingested(version)
    write_tables(res, tmp_path)
    for name in ("runs.csv", "results.csv", "systems.csv", "manifest.json"):
        assert (tmp_path / name).read_bytes() == (paths.round_data(round_.id) / name).read_bytes(), name
    assert res.manifest["counts"]["scored"] > 100


# --- expected scores from outside the code ---------------------------------------------------------
# For each set: the first run_start and first run_stop time_ms (and run_stop's status) of every
# result file, read by hand from the archive (`unzip -p ZIP FILE | grep -a run_start` / `run_stop`;
# None: the file has no run_stop), and the score worked out from them by hand (awk): time to train
# = (run_stop - run_start) / 60000 min, sort, a run that did not succeed counts as the slowest, drop
# the `drop` fastest and slowest (4 of 40 for unet3d), mean of the rest, times the set's scaling.json
# factor (Training v4.1's dlrm_dcnv2 set here; read from its scaling.json). The code's tables take no
# part: a wrong reader, scorer or compliance verdict would be caught here, not copied into data/.
INDEPENDENT = [
    ("0.7", "NVIDIA/results/dgxa100_ngc20.06_mxnet/resnet", 1, 1.0, 39.779661111, [
        (1592669212356, 1592671579019, "success"), (1592669288183, 1592671653448, "success"),
        (1592669289807, 1592671649688, "success"), (1592669324063, 1592671758533, "success"),
        (1592669321699, 1592671750110, "success"),
    ]),
    ("0.7", "Google/results/tpu-v3-32-TF2.0/bert", 1, 1.0, 56.744566667, [
        (1594329454695, 1594332595108, "success"), (1594323057773, 1594326202699, "success"),
        (1594322890685, 1594326553616, "success"), (1594322893121, 1594326559481, "success"),
        (1594322964567, 1594326629415, "success"), (1594331361734, 1594334506067, "success"),
        (1594315569379, 1594318713693, "success"), (1594329481527, 1594333146187, "success"),
        (1594322999607, 1594326665336, "success"), (1594322972301, 1594326117952, "success"),
    ]),
    ("0.7", "Fujitsu/results/gx_V100x8_ngc20.06_pytorch/gnmt", 1, 1.0, 18.171108333, [
        (1593830676522, 1593831763249, "success"), (1593831790520, 1593832878563, "success"),
        (1593832905066, 1593834266622, "success"), (1593834293621, 1593835386172, "success"),
        (1594174499512, 1594175588921, "success"), (1593836804410, 1593837889531, "success"),
        (1593837917028, 1593839004630, "success"), (1593839032111, 1593840119989, "success"),
        (1593840146408, 1593841244514, "success"), (1593841271990, 1593842363806, "success"),
    ]),
    ("0.7", "Google/results/tpu-v4-128-TF/minigo", 1, 1.0, 150.947414583, [
        (1592457619580, 1592467755000, "success"), (1592457612989, 1592467385000, "success"),
        (1592509668345, 1592518879000, "success"), (1592457768016, 1592467717000, "success"),
        (1592433366050, 1592441344000, "success"), (1592440959195, 1592449054000, "success"),
        (1592440909950, 1592449404000, "success"), (1592440804587, 1592449136000, "success"),
        (1592509771198, 1592518737000, "success"), (1592440641961, 1592450279000, "success"),
    ]),
    ("1.0", "Google/results/tpu-v4-128-JAX/unet3d", 4, 1.0, 27.516964063, [
        (1620934534891, 1620936134704, "success"), (1620849202248, 1620850769466, "success"),
        (1620849284989, 1620850672391, "success"), (1620849120444, 1620850198085, "success"),
        (1620849239343, 1620850936731, "success"), (1620849239344, 1620850969290, "success"),
        (1620870500005, 1620872474751, "success"), (1620941222229, 1620942724007, "success"),
        (1620870507595, 1620872629121, "success"), (1620850492522, 1620851896301, "success"),
        (1620850409048, 1620852791414, "success"), (1620850340083, 1620851238236, "success"),
        (1620850280712, 1620851863831, "success"), (1620850260245, 1620852838598, "success"),
        (1620850219077, 1620851883869, "success"), (1620850157178, 1620852180858, "success"),
        (1620849020840, 1620850701952, "success"), (1620850077493, 1620851627899, "success"),
        (1620849986078, 1620851585622, "success"), (1620849984215, 1620851665190, "success"),
        (1620849920413, 1620851568776, "success"), (1620849970150, 1620851455516, "success"),
        (1620849864151, 1620851887436, "success"), (1620850019625, 1620851341696, "success"),
        (1620849674344, 1620850980463, "success"), (1620849646072, 1620854067970, "success"),
        (1620849616036, 1620852226823, "success"), (1620848971832, 1620852088398, "success"),
        (1620849570892, 1620850534490, "success"), (1620849585800, 1620851511726, "success"),
        (1620849682661, 1620850499540, "success"), (1620849515798, 1620850838415, "success"),
        (1620849630792, 1620851181543, "success"), (1620849375510, 1620851089382, "success"),
        (1620849411896, 1620850668844, "success"), (1620849424988, 1620850567708, "success"),
        (1620849388220, 1620850694340, "success"), (1620849284358, 1620851128338, "success"),
        (1620848941948, 1620851161161, "success"), (1620848913458, 1620850529088, "success"),
    ]),
    ("1.0", "Dell/results/DSS8440x8A100-PCIE-40GB/ssd", 1, 1.0, 11.006533333, [
        (1622739353649, 1622740013834, "success"), (1622740092508, 1622740752811, "success"),
        (1622740820625, 1622741480949, "success"), (1622741560752, 1622742221301, "success"),
        (1622742292606, 1622742953585, "success"),
    ]),
    ("1.0", "NVIDIA/results/dgxa100_n16_ngc21.05_pytorch/rnnt", 1, 1.0, 4.413795833, [
        (1621296931808, 1621297199580, "success"), (1621297337236, 1621297605272, "success"),
        (1621297743861, 1621298008233, "success"), (1621296150504, 1621296429672, "success"),
        (1621296566313, 1621296813067, "success"), (1621296950312, 1621297204962, "success"),
        (1621297341559, 1621297588364, "success"), (1621297725699, 1621297968349, "success"),
        (1621296159450, 1621296466924, "success"), (1621296603627, 1621296894692, "success"),
    ]),
    ("1.0", "Inspur/results/nf5488a5_pytorch/bert", 1, 1.0, 21.146525000, [
        (1623979861463, 1623981325263, "aborted"), (1623981362126, 1623982670204, "success"),
        (1623982707050, 1623984101352, "success"), (1623984138065, 1623985484411, "success"),
        (1623985521008, 1623986695508, "success"), (1623986732131, 1623988070696, "success"),
        (1623988107440, 1623989365327, "success"), (1623989402362, 1623990416373, "success"),
        (1623990453353, 1623991647853, "success"), (1623991684602, 1623992820756, "success"),
    ]),
    ("1.1", "Azure/results/nd96amsr_a100_v4_ngc21.09_mxnet/resnet", 1, 1.0, 29.720005556, [
        (1634588172645, 1634589955627, "success"), (1634588171211, 1634589957400, "success"),
        (1634588174846, 1634589957751, "success"), (1634588174487, 1634589958201, "success"),
        (1634588175402, 1634589958084, "success"),
    ]),
    ("1.1", "Dell/results/2xXE8545x4A100-SXM-80GB/rnnt", 1, 1.0, 35.067964583, [
        (1636582734433, 1636584858798, "success"), (1636563544912, 1636565667895, "success"),
        (1636565689569, 1636567811569, "success"), (1636567833661, 1636569842145, "success"),
        (1636569864986, 1636572027497, "success"), (1636572050708, 1636574171917, "success"),
        (1636574193655, 1636576240487, "success"), (1636576263759, 1636578387998, "success"),
        (1636578410910, 1636580716636, "success"), (1636580739930, 1636582711230, "success"),
    ]),
    ("1.1", "Azure/results/nd96amsr_a100_v4_n34_ngc21.09_pytorch/maskrcnn", 1, 1.0, 3.907872222, [
        (1634599138586, 1634599372648, "success"), (1634600978062, 1634601212842, "success"),
        (1634602313570, 1634602547795, "success"), (1634602828369, 1634603064796, "success"),
        (1634604208455, 1634604442867, "success"),
    ]),
    ("4.1", "ASUSTeK/results/ESC_N8_E11/dlrm_dcnv2", 1, 1.0152777777777777, 3.619344714, [
        (1728633128609, 1728633341342, "success"), (1728633559486, 1728633774064, "success"),
        (1728633991443, 1728634206046, "success"), (1728634423098, 1728634665466, "success"),
        (1728634881982, 1728635096262, "success"), (1728635313034, 1728635526942, "success"),
        (1728635743918, 1728635957081, "success"), (1728636175588, 1728636389523, "success"),
        (1728636606737, 1728636806256, "success"), (1728637023210, 1728637237153, "success"),
    ]),
    ("4.1", "Dell/results/XE9680x8H100-SXM-80GB/gnn", 1, 1.0, 11.301652083, [
        (1727784906116, 1727785573643, "success"), (1727786061730, 1727786767036, "success"),
        (1727787261394, 1727788007257, "success"), (1727788498263, 1727789128067, "success"),
        (1727789614054, 1727790320650, "success"), (1727790807696, 1727791476685, "success"),
        (1727791965021, 1727792633133, "success"), (1727793129892, 1727793798731, "success"),
        (1727794289000, 1727794959642, "success"), (1727795452712, 1727796121494, "success"),
    ]),
    ("4.1", "Cisco/results/C885a-8xH100-SXM-80G/ssd", 1, 1.0, 36.271450000, [
        (1728501036257, 1728503290345, "success"), (1728503739375, 1728505914335, "success"),
        (1728506481776, 1728508656558, "success"), (1728509225422, 1728511402284, "success"),
        (1728511966885, 1728514143924, "success"),
    ]),
    ("4.1", "ASUSTeK/results/ESC_N8_E11/llama2_70b_lora", 1, 1.0, 25.723464583, [
        (1728262553120, 1728264023614, "success"), (1728264302109, 1728265772713, "success"),
        (1728266048061, 1728267518958, "success"), (1728267796762, 1728269460902, "success"),
        (1728269742774, 1728271213176, "success"), (1728271492320, 1728273156356, "success"),
        (1728273437829, 1728274909007, "success"), (1728275187643, 1728276657905, "success"),
        (1728276936177, 1728278601689, "success"), (1728278913548, 1728280596875, "success"),
    ]),
    ("4.1", "tinycorp/results/tinybox_green/bert", 1, 1.0, 360.516497917, [
        (1728518110874, 1728538316186, "success"), (1728539466234, 1728563851218, "success"),
        (1728564973303, None, None), (1728591929057, 1728609142725, "success"),
        (1728610281092, 1728634127805, "success"), (1728526077625, 1728548489163, "success"),
        (1728549635270, 1728570027957, "success"), (1728571169188, 1728594414864, "success"),
        (1728591929057, 1728609142725, "success"), (1728619943087, 1728641290428, "success"),
    ]),
]


def _olympic(runs, drop: int) -> float:
    """The test's own arithmetic (not the package's), to keep the literals above honest."""
    minutes = sorted((stop - start) / 60000 if status == "success" else math.inf for start, stop, status in runs)
    kept = minutes[drop:len(minutes) - drop]
    return sum(kept) / len(kept)


@pytest.mark.parametrize("version, folder, drop, factor, minutes, runs", INDEPENDENT,
                         ids=[f"v{v}-{f.split('/')[2]}-{f.split('/')[3]}" for v, f, *_ in INDEPENDENT])
def test_scores_worked_out_by_hand_from_the_logs(ingested, version, folder, drop, factor, minutes, runs):
    assert _olympic(runs, drop) * factor == pytest.approx(minutes, abs=1e-8)
    res = ingested(version)
    org, _, system, benchmark = folder.split("/")
    mine = res.runs[res.runs.file.str.startswith(folder + "/")]
    assert sorted(zip(mine.run_start_ms, mine.run_stop_ms.fillna(-1))) == sorted(
        (start, -1 if stop is None else stop) for start, stop, _ in runs)
    row = res.results[(res.results.system_id == system) & (res.results.benchmark == benchmark)]
    assert len(row) == 1
    row = row.iloc[0]
    assert row.status == "ok", row.status_detail
    assert (row.runs_found, row.runs_converged) == (len(runs), sum(status == "success" for *_, status in runs))
    assert row.score_min == pytest.approx(minutes, abs=1e-8)
    assert row.scaling_factor == pytest.approx(factor)
