"""Inference charts on log axes print plain tick numbers: matplotlib's default log labels are mathtext
(``$\\mathdefault{10^{3}}$``), which the report's text-to-path SVG step shows as raw source."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from mlperf_report.analysis import inference_charts  # noqa: E402


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
    assert ax.get_title(loc="right").startswith("端到端 RAG 問答")
    assert "0.464" in [t.get_text() for t in ax.texts]  # the bar's value keeps three significant digits
