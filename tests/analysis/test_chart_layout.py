"""Every chart a benchmark notebook and the summary draw, in both languages, for Training v1.0 (the
default build's round) and v4.1, and every chart of Inference v4.1's model notebooks for NVIDIA,
laid out in one measuring pass (``layout``): every text it draws lies inside the figure (titles and
axis labels too long for it broken into lines) and the legend under the figure is clear of the plot
and its labels; a margin made too small is caught."""

from __future__ import annotations

import json
import math

import IPython.display
import matplotlib.text
import pandas as pd
import pytest

from mlperf_report.analysis import chart_memo, layout, style
from mlperf_report.core import paths

TOLERANCE = 0.5  # points


def problems(fig) -> list[str]:
    """What is cut off by the figure's edge or lies under the legend below it, measured as in the SVG."""
    dpi, fig.dpi = fig.dpi, 72
    try:
        renderer = fig._get_renderer()
        edge = fig.bbox
        found = []
        for text in _drawn_texts(fig):
            box = text.get_window_extent(renderer)
            if (box.x0 < edge.x0 - TOLERANCE or box.y0 < edge.y0 - TOLERANCE or box.x1 > edge.x1 + TOLERANCE
                    or box.y1 > edge.y1 + TOLERANCE):
                found.append(f"cut off: {text.get_text()!r} at {box.bounds}")
        for legend in fig.legends:
            box = legend.get_window_extent(renderer)
            for ax in fig.axes:
                plot = ax.get_tightbbox(renderer)
                if box.y1 > plot.y0 + TOLERANCE and box.x0 < plot.x1 and box.x1 > plot.x0:
                    found.append(f"legend {box.bounds} over the plot {plot.bounds}")
        return found
    finally:
        fig.dpi = dpi


def _drawn_texts(fig):
    """Every visible, non-empty text of the figure, the tick labels of ticks outside the view (made,
    never drawn) left out."""
    undrawn = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            drawn = {id(tick) for tick in axis.get_major_ticks()
                     if low <= tick.get_loc() <= high or math.isclose(tick.get_loc(), low) or math.isclose(tick.get_loc(), high)}
            undrawn |= {id(label) for tick in (*axis.majorTicks, *axis.minorTicks) if id(tick) not in drawn
                        for label in (tick.label1, tick.label2)}
    return [text for text in fig.findobj(matplotlib.text.Text)
            if text.get_visible() and text.get_text().strip() and id(text) not in undrawn]


@pytest.fixture
def drawn(monkeypatch):
    """Every figure ``style.to_svg`` writes, drawn afresh (no memo), with the problems found in it."""
    figures = []
    to_svg = style.to_svg

    def checked(fig):
        svg = to_svg(fig)
        figures.append((fig.axes[0].get_title() if fig.axes else "", fig, problems(fig)))
        return svg

    monkeypatch.setattr(style, "to_svg", checked)
    monkeypatch.setattr(chart_memo, "recall", lambda key: None)
    monkeypatch.setattr(chart_memo, "keep", lambda key, svg: None)
    monkeypatch.setattr(IPython.display, "display", lambda *args, **kwargs: None)
    return figures


def _run_notebook(notebook: str, output_dir, **parameters):
    nb = json.loads((paths.ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))
    cells = ["".join(cell["source"]) for cell in nb["cells"] if cell["cell_type"] == "code"]
    namespace: dict = {}
    exec(cells[0], namespace)  # the parameters, then this run's
    namespace.update(data_dir=str(paths.DATA), output_dir=str(output_dir), **parameters)
    namespace.update({name: str(path) for name, path in (("prices_file", paths.PRICES), ("config_file", paths.REPORT_CONFIG))
                      if name in namespace})
    for cell in cells[1:]:
        exec(cell, namespace)


def _run_benchmark_notebook(round_id, benchmark, output_dir):
    _run_notebook("training/benchmark.ipynb", output_dir, round_id=round_id, benchmark=benchmark)


@pytest.mark.parametrize("round_id", ["training-v1.0", "training-v4.1"])
def test_every_chart_of_a_round_keeps_its_text_inside_and_its_legend_clear(round_id, drawn, tmp_path):
    results = paths.DATA / round_id / "results.csv"
    if not results.exists():
        pytest.skip(f"{results} not in this tree")
    for benchmark in sorted(pd.read_csv(results)["benchmark"].dropna().unique()):
        _run_benchmark_notebook(round_id, benchmark, tmp_path)
    _run_notebook("training/summary.ipynb", tmp_path, round_id=round_id)  # its per-dollar chart's long title
    assert len(drawn) >= 40
    assert sum(1 for _, fig, _ in drawn if fig.legends) >= 10  # the scaling and round-over-round charts
    assert [(title, found) for title, _, found in drawn if found] == []


def test_every_chart_of_an_inference_round_keeps_its_text_inside_and_its_legend_clear(drawn, tmp_path):
    results = paths.DATA / "inference-v4.1"
    if not results.is_dir():
        pytest.skip(f"{results} not in this tree")
    for benchmark in ("llama2-70b-99", "resnet", "stable-diffusion-xl"):
        _run_notebook("inference/model.ipynb", tmp_path, round_id="inference-v4.1", benchmark=benchmark,
                      focus_submitter="NVIDIA")
    assert len(drawn) >= 10
    assert [(title, found) for title, _, found in drawn if found] == []


def test_a_margin_made_too_small_is_caught(drawn, tmp_path):
    _run_benchmark_notebook("training-v1.0", "resnet", tmp_path)
    with_legend = next(fig for _, fig, found in drawn if fig.legends and not found)
    ax = with_legend.axes[0]
    pos = ax.get_position()
    ax.set_position([pos.x0 - 0.04, pos.y0, pos.width, pos.height])  # the y tick labels past the left edge
    assert any(found.startswith("cut off") for found in problems(with_legend))
    ax.set_position([pos.x0, pos.y0 - 0.06, pos.width, pos.height])  # the x label down into the legend
    assert any(found.startswith("legend") for found in problems(with_legend))
    ax.set_position(pos)
    assert problems(with_legend) == []


def test_a_figure_it_does_not_know_is_left_to_constrained_layout():
    with style.house_style("en"):
        fig = style.figure()
        ax = fig.subplots()
        ax.plot([1, 2], [3, 4])
        fig.suptitle("A title over the whole figure")
        before = ax.get_position().bounds
        assert layout.lay_out(fig) is False and ax.get_position().bounds == before
        fig.suptitle("")
        ax.figure.legend(*ax.get_legend_handles_labels(), loc="upper right")  # a legend not ``below``
        assert layout.lay_out(fig) is False


def test_on_a_matplotlib_it_was_not_checked_with_every_chart_is_left_to_constrained_layout(monkeypatch):
    monkeypatch.setattr(layout, "CHECKED", ())
    with style.house_style("en"):
        fig = style.figure()
        ax = fig.subplots()
        ax.plot([1, 2], [3, 4])
        before = ax.get_position().bounds
        assert layout.lay_out(fig) is False and ax.get_position().bounds == before
        monkeypatch.undo()
        assert layout.lay_out(fig) is True  # the same figure, on this machine's (checked) matplotlib
