"""The Inference power-efficiency chart and its table: the checker's efficiency per result, most
efficient first, and a note that says why when no power result could be computed."""

import pandas as pd
import matplotlib.colors as mcolors
import pytest

from mlperf_report.analysis import style
from mlperf_report.suites.inference import charts as inference_charts
from mlperf_report.suites.inference import tables as inference_tables


def rows(scenario: str, entries) -> pd.DataFrame:
    return pd.DataFrame([{"submitter": s, "system_id": s.lower(), "system_name": f"{s} box", "scenario": scenario,
                          "result": r, "unit": unit, "power_result": p, "power_unit": "Watts" if p else "Watts"}
                         for s, r, unit, p in entries])


@pytest.fixture
def ax():
    with style.house_style("en"):
        yield style.figure(3).subplots()


def test_throughput_per_watt_most_efficient_first():
    data = rows("Offline", [("Acme", 1000.0, "Samples/s", 500.0), ("Bolt", 900.0, "Samples/s", 300.0),
                            ("Cold", 800.0, "Samples/s", None)])
    got = inference_tables.with_power(data, "Offline")
    assert got["submitter"].tolist() == ["Bolt", "Acme"] and got["per_joule"].tolist() == [3.0, 2.0]


def test_streams_count_samples_per_joule():
    data = rows("MultiStream", [("Acme", 40.0, "Latency (ms)", 2000.0)])
    assert inference_tables.with_power(data, "MultiStream")["per_joule"].tolist() == [8 * 1000 / 2000.0]


def test_bars_and_axis_say_what_is_derived(ax):
    data = inference_tables.with_power(rows("Server", [("Acme", 30000.0, "Tokens/s", 6000.0)]), "Server")
    inference_charts.power_efficiency(data, scenario="Server", model="Llama 2 70B",
                                      colours=inference_charts.result_colours(data, focus="Acme"), ax=ax)
    assert [p.get_width() for p in ax.patches] == [5.0]
    assert [mcolors.to_hex(p.get_facecolor()) for p in ax.patches] == [style.FOCUS_COLOR]
    assert ax.get_xlabel().startswith("Power efficiency, tokens/J (derived")


@pytest.mark.parametrize("lang, words", [("en", "3 results were measured with power"), ("zh-Hant", "共 3 項成績")])
def test_no_computed_power_says_why(lang, words):
    with style.house_style(lang):
        ax = style.figure(2).subplots()
        inference_charts.power_efficiency(rows("Offline", [])[0:0], scenario="Offline", model="ResNet-50",
                                          measured=3, lang=lang, ax=ax)
    assert words in ax.texts[0].get_text() and "spl.txt" in ax.texts[0].get_text()


def test_measured_counts_per_scenario():
    data = pd.concat([rows("Offline", [("Acme", 1.0, "Samples/s", None)]).assign(power_unit="Watts"),
                      rows("Server", [("Acme", 1.0, "Queries/s", None)]).assign(power_unit="")])
    assert inference_tables.measured_with_power(data) == {"Offline": 1}
