"""Inference charts on log axes print plain tick numbers: matplotlib's default log labels are mathtext
(``$\\mathdefault{10^{3}}$``), which the report's text-to-path SVG step shows as raw source."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from mlperf_report.suites.inference import charts as inference_charts  # noqa: E402


@pytest.fixture
def ax():
    fig, axes = plt.subplots()
    yield axes
    plt.close(fig)


def _ticks(ax) -> list[str]:
    ax.figure.canvas.draw()
    return [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels() if t.get_text()]


def test_scaling_and_round_over_round_ticks_are_plain_numbers(ax):
    data = pd.DataFrame({"submitter": ["Acme", "Zeta", "Acme"], "accelerators": [1, 8, 64],
                         "result": [0.46, 120.0, 9000.0], "unit": ["Tasks/s"] * 3})
    inference_charts.throughput_scaling(data, scenario="Offline", model="RAG", ax=ax)
    ticks = _ticks(ax)
    assert ticks and not any("$" in t or "mathdefault" in t for t in ticks), ticks
    assert {"1", "8", "64"} <= set(ticks)
    ax.clear()
    rounds = pd.DataFrame({"submitter": ["Acme", "Acme"], "scenario": ["Offline"] * 2,
                           "round": ["inference-v6.0", "inference-v6.1"], "result": [3.0, 3000.0]})
    inference_charts.round_over_round(rounds, model="RAG", round_id="inference-v6.1", previous="inference-v6.0", ax=ax)
    ticks = _ticks(ax)
    assert not any("$" in t for t in ticks), ticks


def test_round_over_round_puts_the_previous_round_first_and_long_titles_wrap(ax):
    rounds = pd.DataFrame({"submitter": ["Acme", "Acme"], "scenario": ["Offline"] * 2,
                           "round": ["inference-v6.1", "inference-v6.0"], "result": [3000.0, 3.0]})
    model = "End-to-end RAG question answering with a long name"
    inference_charts.round_over_round(rounds, model=model, round_id="inference-v6.1", previous="inference-v6.0", ax=ax)
    assert [t.get_text().split("\n")[-1] for t in ax.get_xticklabels()] == ["inference-v6.0", "inference-v6.1"]
    title = ax.get_title()
    assert "\n" in title and all(len(line) <= 60 for line in title.split("\n"))


@pytest.mark.parametrize("text", ["Wan 2.2 T2V A14B: best result per submitter, inference-v6.0 and inference-v6.1",
                                  "端到端 RAG 問答，離線：每個提交者的最佳成績，inference-v6.0 與 inference-v6.1 的比較結果"])
def test_titles_wrap_by_display_width(text):
    import unicodedata

    from mlperf_report.analysis import style

    wrapped = style.wrap_title(text, width=40)
    assert wrapped.replace("\n", "").replace(" ", "") == text.replace(" ", "")
    for line in wrapped.split("\n"):
        assert sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in line) <= 40
    assert style.wrap_title("short") == "short"


def test_chart_titles_name_the_model_in_the_chart_language(ax):
    data = pd.DataFrame({"submitter": ["Acme"], "system_id": ["x8"], "system_name": ["Acme X8"], "accelerators": [8],
                         "result": [0.464076], "unit": ["Tasks/s"], "scenario": ["Offline"]})
    inference_charts.ranking(data, scenario="Offline", model="e2e-rag-qna", lang="zh-Hant", ax=ax)
    assert ax.figure.get_suptitle().startswith("端到端 RAG 問答")
    assert "0.464" in [t.get_text() for t in ax.texts]  # the bar's value keeps three significant digits


LONG_NAMES = ["Supermicro AS-4125GS-TNHR2-LCC (8x H100-SXM-80GB, TensorRT, with a much longer tail of words)",
              "Dell PowerEdge XE9680 (8x H200-SXM-141GB, TensorRT)", "Quanta_Cloud_Technology D54U_3U_H100_PCIe_80GBx4_TRT",
              "Lenovo ThinkSystem SR680a V3 (8x H200-SXM-141GB, TensorRT)", "超微 極長的系統名稱 " * 4]


def _long_ranking(lang: str):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from mlperf_report.analysis import style

    data = pd.DataFrame({"system_name": LONG_NAMES, "system_id": list("abcde"), "submitter": ["Supermicro", "Dell",
                         "Quanta", "Lenovo", "超微"], "division": ["closed"] * 5,
                         "result": [754_321.25, 500_000.0, 250_000.5, 125_000.0, 1_234.5], "unit": ["Samples/s"] * 5})
    with style.house_style(lang):
        fig = style.figure(len(data))
        FigureCanvasAgg(fig)  # the renderer that measures text as the SVG places it
        ax = fig.subplots()
        inference_charts.ranking(data, scenario="Offline", model="resnet50", lang=lang, ax=ax)
        fig.canvas.draw()
    return fig, ax


def _extents(texts, renderer):
    return [t.get_window_extent(renderer) for t in texts if t.get_visible() and t.get_text()]


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_ranking_with_long_names_and_large_values_is_fit_for_print(lang):
    fig, ax = _long_ranking(lang)
    renderer = fig.canvas.get_renderer()
    ticks = _extents(ax.get_xticklabels(), renderer)
    assert len(ticks) >= 3
    for left, right in zip(ticks, ticks[1:]):
        assert left.x1 < right.x0, [t.get_text() for t in ax.get_xticklabels()]  # no "0 250000500000"
    box = fig.bbox
    inside = [fig.get_suptitle() and fig._suptitle, ax.xaxis.label, *ax.get_yticklabels(), *ax.texts]
    for text in _extents(inside, renderer):  # title, axis label, names and values inside the figure
        assert box.x0 - 0.5 <= text.x0 and text.x1 <= box.x1 + 0.5 and box.y0 - 0.5 <= text.y0 and text.y1 <= box.y1 + 0.5
    assert ax.get_position().width > 0.5  # the bars keep most of the width
    names = [t.get_text() for t in ax.get_yticklabels()]
    assert all(n.count("\n") <= 1 for n in names) and any(n.endswith("…") for n in names)
    values = {t.get_text() for t in ax.texts}
    assert {"754,321.2", "1,234.5"} <= values or {"754,321.3", "1,234.5"} <= values  # the table's precision


def test_value_ticks_are_compact_in_each_language():
    from mlperf_report.i18n import formatting

    en = [t.get_text() for t in _long_ranking("en")[1].get_xticklabels() if t.get_text()]
    zh = [t.get_text() for t in _long_ranking("zh-Hant")[1].get_xticklabels() if t.get_text()]
    assert any(t.endswith("K") for t in en) and not any(len(t) > 5 for t in en), en
    assert any(t.endswith("萬") for t in zh), zh
    assert [formatting.compact(v, "en") for v in (250_000, 1_200_000, 0.25)] == ["250K", "1.2M", "0.25"]
    assert [formatting.compact(v, "zh-Hant") for v in (250_000, 1_200_000)] == ["25萬", "120萬"]
    # a tick matplotlib computes as 0.6000000000000001 (a SingleStream latency axis) reads 0.6
    assert [formatting.compact(v, "en") for v in (0.6000000000000001, 2.0000000004, 0.0004)] == ["0.6", "2", "0.0004"]
