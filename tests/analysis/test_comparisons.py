"""Like for like on a v5-style round the tests build: scale classes, the baseline on a competitor's
accelerator, no prices (equal-scale comparison instead of perf/$), an accelerator focus across three
submitters, a round without any focus result, and two systems that share a display name."""

import pytest

from mlperf_report.analysis import vendors
from mlperf_report.suites.training import context
from mlperf_report.suites.training import tables as html_tables
from mlperf_report.analysis import html_tables as shared_tables
from mlperf_report.cli import report
from mlperf_report.core import paths
from mlperf_report.core.config import Focus
from mlperf_report.core.errors import UserError

ROUND = "training-v5.0"


def analysis(v5_tables, benchmark, focus="AMD", accelerator=None):
    return context.load_benchmark(round_id=ROUND, benchmark=benchmark, focus_submitter=focus,
                                  focus_accelerator=accelerator, data_dir=v5_tables, prices_file=paths.PRICES,
                                  config_file=paths.REPORT_CONFIG)


def test_vendors_are_read_from_accelerator_model_names():
    assert vendors.vendor_of("AMD Instinct MI300X 192GB") == "AMD"
    assert vendors.vendor_of("H100 NVL Tensor Core GPU (PCIe)") == "NVIDIA"
    assert vendors.vendor_of("TPU-v5p") == "Google"
    assert vendors.vendor_of("Intel Gaudi 2") == "Intel"
    assert vendors.vendor_of("GC200 IPU") == "Graphcore"
    assert vendors.vendor_of("Acme A1") is None


def test_focus_submitter_is_placed_in_its_scale_class_and_compared_with_a_competitor(v5_tables):
    a = analysis(v5_tables, "llama2_70b_lora")
    fig = a.figures()
    eight = next(s for s in fig["scales"] if s["accelerators"] == 8)
    assert (eight["systems"], eight["focus_position"], eight["common"]) == (5, 2, True)
    assert eight["fastest"]["system_id"] == "dgxb200_ngc25.04_nemo"
    # the baseline: fastest closed, available system on NVIDIA accelerators at AMD's 8 accelerators
    assert fig["baseline"]["system_id"] == "dgxb200_ngc25.04_nemo"
    assert fig["baseline_rule"]["used"] == "rule" and fig["baseline_rule"]["accelerators"] == 8
    # no price on file: no perf/$ entry, no chart (never a one-bar chart), an equal-scale comparison instead
    assert fig["perf_per_dollar"] == [] and a.priced.empty
    assert fig["equal_scale"]["focus"]["system_id"] == "mi300x_x8" and fig["equal_scale"]["accelerators"] == 8
    assert fig["equal_scale"]["speedup"] == pytest.approx(11.0 / 29.0)
    assert "No price is on file" in html_tables.equal_scale_sentence(a.equal_scale, no_price=True, lang="en")
    assert "沒有可引用的價格" in html_tables.equal_scale_sentence(a.equal_scale, no_price=True, lang="zh-Hant")
    assert html_tables.equal_scale_sentence(a.equal_scale, no_price=False, lang="en").startswith("Like for like")
    table = html_tables.equal_scale_table(a.equal_scale, focus=a.focus_keys, baseline=a.baseline_key, lang="en")
    assert table["Compared as"].tolist() == ["baseline", "focus", "", "", ""]
    assert "no price" not in shared_tables.to_html(table).lower()


def test_an_accelerator_focus_spans_every_submitter_building_on_it(v5_tables):
    a = analysis(v5_tables, "llama2_70b_lora", accelerator="mi300x")
    assert a.focus == Focus("accelerator", "mi300x")
    assert sorted(a.focus_keys) == [("AMD", "mi300x_x8"), ("Dell", "xe9680x8_mi300x"), ("Lenovo", "sr685a_mi300x")]
    fig = a.figures()
    assert fig["focus_submitter"] == "accelerator:mi300x"
    assert [r["submitter"] for r in fig["focus"]["closed"]] == ["AMD", "Dell", "Lenovo"]
    assert fig["baseline"]["submitter"] == "NVIDIA"     # never one of the focus's own systems


def test_competitor_of_an_nvidia_focus_is_another_vendor(v5_tables):
    fig = analysis(v5_tables, "llama2_70b_lora", focus="NVIDIA").figures()
    assert fig["baseline"]["system_id"] == "mi300x_x8"   # fastest non-NVIDIA system with 8 accelerators
    assert fig["baseline_rule"]["vendors"] == ["NVIDIA"]


def test_no_focus_has_no_baseline_and_names_the_common_scale(v5_tables):
    fig = analysis(v5_tables, "llama2_70b_lora", focus="none").figures()
    assert fig["focus_submitter"] == "none" and fig["focus"] == {"closed": [], "open": []}
    assert fig["baseline"] is None and fig["equal_scale"] is None
    assert [s["accelerators"] for s in fig["scales"] if s["common"]] == [8]
    a = analysis(v5_tables, "llama2_70b_lora", focus="none")
    assert a.spread.empty                                  # the notebook then draws no run-spread chart
    table = html_tables.equal_scale_table(a.equal_scale, focus=a.focus_keys, baseline=a.baseline_key, lang="en")
    assert len(table) == 5 and "Compared as" not in table   # no column that is empty on every row


def test_systems_sharing_a_name_are_told_apart_by_their_software(v5_tables):
    a = analysis(v5_tables, "rgat", focus="NVIDIA")
    names = sorted(a.scored["display_name"])
    assert names == ["DGX B200 (DGL 25.04)", "DGX B200 (DGL 25.05)", "PowerEdge XE9680 H200"]
    table = html_tables.results_table(a.entries, lang="en")
    assert table["System"].nunique() == len(table)
    # in another benchmark the name is unique, so it stays as it is
    assert analysis(v5_tables, "retinanet", focus="NVIDIA").scored["display_name"].tolist()[0] == "DGX B200"


def test_a_focus_without_results_stops_in_the_plan_listing_the_submitters(v5_tables, tmp_path):
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(UserError) as error:
        report.make_plan(round_id=ROUND, data_dir=v5_tables, output_dir=tmp_path, focus_submitter="Graphcore")
    message = str(error.value)
    assert "--focus Graphcore: no scored result" in message and ROUND in message
    assert "NVIDIA (5), Dell (3), AMD (1)" in message and "--focus none" in message
    assert sorted(tmp_path.rglob("*")) == before  # stopped in the plan: nothing written, no folder made
    with pytest.raises(UserError, match=r"--focus-accelerator Gaudi: .*AMD Instinct MI300X \(1\)"):
        report.make_plan(round_id=ROUND, data_dir=v5_tables, output_dir=tmp_path, focus_accelerator="Gaudi")
    plan = report.make_plan(round_id=ROUND, data_dir=v5_tables, output_dir=tmp_path, focus_submitter="none")
    assert plan.jobs[0].parameters["focus_submitter"] == "none"
    plan = report.make_plan(round_id=ROUND, data_dir=v5_tables, output_dir=tmp_path, focus_accelerator="MI300X")
    assert plan.jobs[0].parameters["focus_accelerator"] == "MI300X"
