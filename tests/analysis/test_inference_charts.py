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
