"""Metrics on small frames with known numbers (the press release's official v1.0 figures)."""

import math

import pandas as pd
import pytest

from mlperf_report.suites.training import metrics
from mlperf_report.core.rounds import latest_before
from mlperf_report.analysis import figures as shared_figures
from mlperf_report.core import paths
from mlperf_report.core.config import Baseline, load_config
from mlperf_report.core.prices import load_prices
from synthetic_round import V07, V10, _result_rows

CATALOGUE = load_prices(paths.PRICES)
BASELINE = load_config(paths.REPORT_CONFIG).baseline


def frame(rows, round_id="training-v1.0"):
    return metrics.prepare_results(pd.DataFrame(_result_rows(round_id, rows)), CATALOGUE, round_id)


@pytest.fixture(scope="module")
def v10():
    return frame(V10)


def test_prepare_results_types_counts_and_names(v10):
    assert str(v10["accelerators"].dtype) == "Int64"
    row = v10[v10["system_id"] == "dgxa100_ngc21.05_mxnet"].iloc[0]
    assert row["display_name"] == "NVIDIA DGX A100 640GB" and row["score_min"] == 28.77


def test_scored_excludes_unscored_and_sorts_fastest_first(v10):
    df = metrics.scored(v10, benchmark="resnet")
    assert df["score_min"].tolist() == [4.5, 14.48, 28.77, 37.12, 80.0]
    un = metrics.unscored(v10, benchmark="resnet")
    assert un[["system_id", "status"]].values.tolist() == [["acme-box-8", "incomplete"]]


def test_fastest_per_division(v10):
    fastest = metrics.fastest(v10, benchmark="bert")
    assert fastest["closed"]["system_id"] == "ipu-pod64-POPART-closed" and fastest["closed"]["score_min"] == 11.08
    assert fastest["open"]["score_min"] == 9.39
    assert metrics.fastest(v10, benchmark="resnet")["open"] is None


def test_focus_results_per_division(v10):
    focus = metrics.focus_results(v10, benchmark="bert", submitter="graphcore")
    assert focus["closed"]["score_min"].tolist() == [11.08, 34.49]
    assert focus["open"]["system_id"].tolist() == ["ipu-pod64-POPART-open"]


def test_baseline_by_name_and_by_default_accelerator_count(v10):
    assert metrics.resolve_baseline(v10, benchmark="resnet", baseline=BASELINE, round_id="training-v1.0")["system_id"] == "dgxa100_ngc21.05_mxnet"
    default = Baseline(submitter="NVIDIA", accelerators=8)
    assert metrics.resolve_baseline(v10, benchmark="bert", baseline=default)["system_id"] == "dgxa100_ngc21.05_pytorch"
    assert metrics.resolve_baseline(v10, benchmark="bert", baseline=Baseline(submitter="Nobody")) is None
    # a pinned system this round does not have: the rule, and the record says so
    renamed = Baseline(submitter="NVIDIA", accelerators=8, systems={"resnet": "dgxa100_ngc21.09_mxnet"})
    row, rule = metrics.choose_baseline(v10, benchmark="resnet", baseline=renamed)
    assert row["system_id"] == "dgxa100_ngc21.05_mxnet" and rule["used"] == "rule"
    assert metrics.choose_baseline(v10, benchmark="resnet", baseline=BASELINE, round_id="training-v1.0")[1]["used"] == "pinned"
    # pins are per round: v1.0's pin does not apply to another round's figures
    assert BASELINE.system_for("resnet", "training-v1.1") is None


def test_default_baseline_is_a_competitor_at_the_focus_system_s_accelerator_count(v10):
    from mlperf_report.core.config import Focus

    rule_only = Baseline(competitor="NVIDIA")
    row, rule = metrics.choose_baseline(v10, benchmark="resnet", baseline=rule_only, focus=Focus("submitter", "Graphcore"))
    assert row is not None and row["system_id"] == "dgxa100_n8_ngc21.05_mxnet" and rule["accelerators"] == 64
    row, rule = metrics.choose_baseline(v10, benchmark="resnet", baseline=Baseline(competitor="NVIDIA", accelerators=8),
                                        focus=Focus("submitter", "Graphcore"))
    assert row["system_id"] == "dgxa100_ngc21.05_mxnet" and rule["candidates"] == 1
    # focus NVIDIA with competitor NVIDIA: another vendor's accelerator at NVIDIA's count (Graphcore's 64-IPU POD)
    row, rule = metrics.choose_baseline(v10, benchmark="resnet", baseline=rule_only, focus=Focus("submitter", "NVIDIA"))
    assert row["system_id"] == "ipu-pod64-TF1" and rule["accelerators"] == 64 and rule["vendors"] == ["NVIDIA"]
    # an accelerator focus across submitters: every system on it is the focus, never its own baseline
    row, _ = metrics.choose_baseline(v10, benchmark="resnet", baseline=Baseline(competitor="auto"),
                                     focus=Focus("accelerator", "A100"))
    assert row["submitter"] == "Graphcore" and row["accelerators"] == 64


@pytest.mark.parametrize("benchmark, system, expected", [
    ("resnet", "ipu-pod16-TF1", 28.77 * 300000 / (37.12 * 149995)),   # 1.55, the press release's "1.6x"
    ("bert", "ipu-pod16-POPART-closed", 21.69 * 300000 / (34.49 * 149995)),  # 1.26, "1.3x"
])
def test_perf_per_dollar_ratio_is_the_published_one(v10, benchmark, system, expected):
    base = metrics.resolve_baseline(v10, benchmark=benchmark, baseline=BASELINE, round_id="training-v1.0")
    perf = metrics.perf_per_dollar(v10, benchmark=benchmark, baseline_row=base, catalogue=CATALOGUE, round_id="training-v1.0")
    row = perf[perf["system_id"] == system].iloc[0]
    assert row["ratio"] == pytest.approx(expected, rel=1e-12)
    assert row["perf_per_dollar"] == pytest.approx(1 / 37.12 / 149995 if benchmark == "resnet" else 1 / 34.49 / 149995)
    assert round(float(row["ratio"]), 2) == (1.55 if benchmark == "resnet" else 1.26)
    assert perf[perf["is_baseline"]]["ratio"].iloc[0] == 1.0
    # unpriced systems stay in the frame, after the priced ones, without a ratio
    unpriced = perf[perf["price_amount"].isna()]
    assert len(unpriced) and unpriced["ratio"].isna().all()
    assert perf["ratio"].notna().tolist() == sorted(perf["ratio"].notna().tolist(), reverse=True)
    assert set(perf["division"]) == {"closed"}


def test_perf_per_dollar_without_baseline_has_no_ratio(v10):
    perf = metrics.perf_per_dollar(v10, benchmark="resnet", baseline_row=None, catalogue=CATALOGUE, round_id="training-v1.0")
    assert perf["ratio"].isna().all() and perf["perf_per_dollar"].notna().sum() == 2


def test_ideal_scaling_keeps_work_constant(v10):
    points = metrics.scaling_points(v10, benchmark="resnet")
    ideal = metrics.ideal_scaling(points)
    gc = ideal[ideal["submitter"] == "Graphcore"]
    assert gc["accelerators"].tolist() == [16, 64]
    assert gc["minutes"].tolist() == pytest.approx([37.12, 37.12 * 16 / 64])
    assert "Acme" not in set(ideal["submitter"])  # one system: no line to draw


def test_round_bests_previous_round_and_speedup(v10):
    rounds = {"training-v1.0": v10, "training-v0.7": frame(V07, "training-v0.7")}
    bests = metrics.round_bests(rounds, benchmark="resnet")
    assert bests[["round", "submitter", "score_min"]].values.tolist() == [
        ["training-v0.7", "NVIDIA", 39.78], ["training-v0.7", "Acme", 95.0],
        ["training-v1.0", "NVIDIA", 4.5], ["training-v1.0", "Graphcore", 14.48], ["training-v1.0", "Acme", 80.0]]
    assert latest_before("training-v1.0", ["training-v1.1", "training-v0.7", "training-v1.0", "inference-v0.9"]) == "training-v0.7"
    assert latest_before("training-v0.7", ["training-v0.7"]) is None
    before = metrics.best_of(rounds["training-v0.7"], benchmark="resnet", submitter="Acme")
    after = metrics.best_of(v10, benchmark="resnet", submitter="Acme")
    assert metrics.speedup(before, after) == pytest.approx(95 / 80)
    assert metrics.speedup(None, after) is None


def test_run_times_keep_unconverged_runs_marked():
    runs = pd.DataFrame({"benchmark": ["bert"] * 3, "division": ["closed"] * 3, "submitter": ["Acme"] * 3,
                         "system_id": ["b"] * 3, "run": ["0", "1", "2"], "file": ["f0", "f1", "f2"],
                         "time_to_train_min": ["10.5", "11", ""], "converged": ["True", "False", "False"]})
    systems = pd.DataFrame({"division": ["closed"], "submitter": ["Acme"], "system_id": ["b"], "display_name": ["B"]})
    df = metrics.run_times(runs, benchmark="bert", systems=systems)
    assert df["time_to_train_min"].tolist() == [10.5, 11.0] and df["converged"].tolist() == [True, False]


def test_summary_shapes(v10):
    table = metrics.submissions(v10)
    assert table.loc["Acme"].tolist() == [0, 1] and table.loc["Graphcore"].tolist() == [3, 2]
    pos = metrics.focus_positions(v10, submitter="Graphcore").set_index("benchmark")
    assert pos.loc["bert", "system_position"] == 1 and pos.loc["resnet", "system_position"] == 2
    assert pos.loc["resnet", "systems"] == 5 and math.isclose(pos.loc["resnet", "fastest_minutes"], 4.5)


def test_summary_figures_positions_and_perf_per_dollar_across_benchmarks(v10):
    from mlperf_report.suites.training import figures

    summary = figures.summary_figures(v10, round_id="training-v1.0", focus_submitter="Graphcore", baseline=BASELINE,
                                      catalogue=CATALOGUE)
    assert summary["benchmarks"] == ["bert", "resnet"]
    positions = {p["benchmark"]: p for p in summary["positions"]}
    assert positions["resnet"]["system_position"] == 2 and isinstance(positions["resnet"]["system_position"], int)
    assert positions["resnet"]["focus_minutes"] == 14.48
    ratios = {(e["benchmark"], e["system"]["system_id"]): round(e["ratio"], 2) for e in summary["perf_per_dollar"]}
    assert ratios == {("bert", "ipu-pod16-POPART-closed"): 1.26, ("resnet", "ipu-pod16-TF1"): 1.55}
    assert shared_figures.to_json(summary) == shared_figures.to_json(figures.summary_figures(
        v10, round_id="training-v1.0", focus_submitter="Graphcore", baseline=BASELINE, catalogue=CATALOGUE))


@pytest.mark.skipif(not (paths.DATA / "training-v1.0" / "results.csv").is_file(), reason="embedded v1.0 tables not ingested yet")
def test_embedded_v10_tables_give_the_press_release_figures():
    from mlperf_report.suites.training import context

    found = {}
    for benchmark in ("resnet", "bert"):
        a = context.load_benchmark(round_id="training-v1.0", benchmark=benchmark, focus_submitter="Graphcore",
                                    data_dir=paths.DATA, prices_file=paths.PRICES, config_file=paths.REPORT_CONFIG)
        got = a.figures()
        found[benchmark] = got
        assert got["baseline"]["display_name"] == "NVIDIA DGX A100 640GB"
    resnet, bert = found["resnet"], found["bert"]
    assert round(resnet["baseline"]["minutes"], 2) == 28.77 and round(bert["baseline"]["minutes"], 2) == 21.69
    assert [round(r["minutes"], 2) for r in resnet["focus"]["closed"]] == [14.48, 37.12]
    assert [round(r["minutes"], 2) for r in bert["focus"]["closed"]] == [11.08, 34.49]
    assert round(bert["focus"]["open"][0]["minutes"], 2) == 9.39 and bert["fastest"]["open"]["submitter"] == "Graphcore"
    assert [round(e["ratio"], 2) for e in resnet["perf_per_dollar"]] == [1.55]
    assert [round(e["ratio"], 2) for e in bert["perf_per_dollar"]] == [1.26]


def test_a_result_without_division_is_kept_and_compares_cleanly():
    rows = [r for r in V10 if r[4] == "resnet"] + [("", "Alibaba", "a100-8", "", "resnet", None, 8, 2, 1, "", "incomplete")]
    df = frame(rows)
    assert df[df["system_id"] == "a100-8"]["division"].tolist() == [""]
    assert "a100-8" in metrics.unscored(df, benchmark="resnet")["system_id"].tolist()
    assert len(metrics.scored(df, benchmark="resnet", division="closed")) == 5
    from mlperf_report.suites.training.tables import results_table

    table = results_table(df[df["benchmark"] == "resnet"], lang="en")
    row = table[table["System"] == "a100-8"].iloc[0]
    assert (row["Division"], row["Status"]) == ("", "incomplete: 1 of 5 runs present")


def test_unscored_reasons_are_written_in_the_tables_language():
    from mlperf_report.suites.training.tables import status_text

    incomplete = {"status": "incomplete", "status_detail": "incomplete: 1 of 10 runs present (9 listed as absent "
                  "from this copy of the tree)", "runs_found": 1, "runs_required": 10, "runs_converged": 1,
                  "runs_absent": 9, "benchmark": "bert"}
    assert status_text(incomplete, "en") == incomplete["status_detail"]
    assert status_text(incomplete, "zh-Hant") == "不完整：僅有 1 / 10 次執行結果（另有 9 個結果檔不在此份資料副本中）"
    failed = {**incomplete, "status": "not_converged", "runs_found": 10, "runs_converged": 0, "runs_absent": 0}
    assert status_text(failed, "zh-Hant") == "未收斂：10 / 10 次執行失敗，奧林匹克計分最多捨去 1 次"
    assert status_text({**failed, "status": "ok"}, "zh-Hant") == "已計分"


def test_scored_is_kept_per_frame_and_handed_out_as_copies():
    """Asked again of the same frame, the kept answer: equal to a fresh one, a copy of its own; another
    frame (even equal) gets its own; a frame gone takes its answers with it."""
    import gc

    results = frame(V10)
    first = metrics.scored(results, benchmark="resnet")
    first.loc[:, "score_min"] = -1.0  # a caller changing its copy
    again = metrics.scored(results, benchmark="resnet")
    pd.testing.assert_frame_equal(again, metrics.scored(frame(V10), benchmark="resnet"))
    assert (again["score_min"] > 0).all()
    assert id(results) in metrics._SCORED and len(metrics._SCORED[id(results)][2]) == 1
    fewer = results[results["benchmark"] != "resnet"]  # another frame: asked afresh, nothing found
    assert metrics.scored(fewer, benchmark="resnet").empty
    key = id(results)
    del results, first, again
    gc.collect()
    assert key not in metrics._SCORED or metrics._SCORED[key][0]() is not None
