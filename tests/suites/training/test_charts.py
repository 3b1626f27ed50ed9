"""Charts through their plot objects (bar widths, labels, colours), labels in every language, and
byte-identical SVG for identical inputs."""

import re

import matplotlib.colors as mcolors
import pandas as pd
import pytest

from mlperf_report.suites.training import charts

from mlperf_report.analysis import outputs
from mlperf_report.suites.training import metrics
from mlperf_report.core import paths
from mlperf_report.analysis import axes, style
from mlperf_report.core.config import load_config
from mlperf_report.core.prices import load_prices
from synthetic_round import V07, V10, _result_rows

CATALOGUE = load_prices(paths.PRICES)
BASELINE = load_config(paths.REPORT_CONFIG).baseline
FOCUS = mcolors.to_rgba(style.FOCUS_COLOR)
BASE = mcolors.to_rgba(style.BASELINE_COLOR)
OTHER = mcolors.to_rgba(style.OTHER_COLOR)


def frame(rows, round_id="training-v1.0"):
    return metrics.prepare_results(pd.DataFrame(_result_rows(round_id, rows)), CATALOGUE, round_id)


@pytest.fixture(scope="module")
def v10():
    return frame(V10)


@pytest.fixture
def ax():
    with style.house_style("en"):
        fig = style.figure(6)
        yield fig.subplots()


def bars(ax):
    """(y label, width, colour) of every horizontal bar, top to bottom."""
    ticks = {round(t): lab.get_text() for t, lab in zip(ax.get_yticks(), ax.get_yticklabels())}
    found = [(p.get_y() + p.get_height() / 2, p.get_width(), p.get_facecolor()) for p in ax.patches if p.get_width() > 0]
    return [(ticks[round(y)], w, c) for y, w, c in sorted(found)]


def test_time_to_train_bars_in_scale_classes_divisions_apart_focus_highlighted(v10, ax):
    data = metrics.scored(v10, benchmark="bert")
    charts.time_to_train(data, colours=charts.result_colours(data, focus="Graphcore", baseline=("NVIDIA", "dgxa100_ngc21.05_pytorch")),
                         benchmark="BERT", ax=ax)
    got = bars(ax)
    assert [(name, round(w, 2)) for name, w, _ in got] == [   # smallest scale class first; open last
        ("NVIDIA DGX A100 640GB", 21.69), ("Graphcore IPU-POD16", 34.49),
        ("Graphcore IPU-POD64 (closed)", 11.08), ("Graphcore IPU-POD64 (open)", 9.39)]
    assert [c for *_, c in got] == [BASE, FOCUS, FOCUS, FOCUS]
    assert ax.get_title() == "Time to train, BERT" and "minutes" in ax.get_xlabel()
    texts = {t.get_text() for t in ax.texts}
    assert texts >= {"Closed division", "Open division", "8 accelerators", "16 accelerators", "64 accelerators"}


def test_time_to_train_highlights_the_focus_results_by_key(v10, ax):
    """An accelerator focus highlights systems of several submitters, given as (submitter, system) keys."""
    data = metrics.scored(v10, benchmark="resnet")
    keys = {("Graphcore", "ipu-pod16-TF1"), ("Acme", "acme-box-4")}
    charts.time_to_train(data, colours=charts.result_colours(data, focus=keys), benchmark="ResNet", ax=ax)
    colours = {name: c for name, _, c in bars(ax)}
    assert colours["Graphcore IPU-POD16"] == FOCUS and colours["Acme Box 4"] == FOCUS
    assert colours["Graphcore IPU-POD64"] == OTHER


def test_labels_tell_look_alike_systems_apart():
    df = pd.DataFrame({"submitter": ["Acme", "Acme", "Acme", "Beta"], "division": ["closed", "open", "closed", "closed"],
                       "system_id": ["a1", "a2", "a3", "b"], "display_name": ["Box", "Box", "Box", "Beta Crate"]})
    assert axes.system_labels(df) == ["Acme Box (closed) [a1]", "Acme Box (open)", "Acme Box (closed) [a3]", "Beta Crate"]
    assert axes.system_labels(df, "zh-Hant")[1] == "Acme Box (開放)"


def test_perf_per_dollar_bars_are_ratios_and_skip_unpriced(v10, ax):
    base = metrics.resolve_baseline(v10, benchmark="resnet", baseline=BASELINE, round_id="training-v1.0")
    perf = metrics.perf_per_dollar(v10, benchmark="resnet", baseline_row=base, catalogue=CATALOGUE, round_id="training-v1.0")
    charts.perf_per_dollar(perf, colours=charts.perf_per_dollar_colours(perf, focus="Graphcore"),
                           baseline_name="NVIDIA DGX A100 640GB", benchmark="ResNet-50", ax=ax)
    got = bars(ax)
    assert [(n, round(w, 4), c) for n, w, c in got] == [("Graphcore IPU-POD16", 1.5502, FOCUS),
                                                        ("NVIDIA DGX A100 640GB", 1.0, BASE)]
    assert "NVIDIA DGX A100 640GB" in ax.get_xlabel()
    assert [t.get_text() for t in ax.texts if "×" in t.get_text()] == ["1.55×", "1.00×"]


def test_scaling_is_log_log_with_ideal_lines(v10, ax):
    points = metrics.scaling_points(v10, benchmark="resnet")
    charts.scaling(points, ideal=metrics.ideal_scaling(points), colours=charts.submitter_colours(points, focus="Graphcore"),
                   benchmark="ResNet-50", ax=ax)
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    offsets = sorted(map(tuple, ax.collections[0].get_offsets().tolist()))
    assert offsets == sorted([(16, 37.12), (64, 14.48), (8, 28.77), (64, 4.5), (4, 80.0)])
    dashed = [line for line in ax.get_lines() if line.get_linestyle() == "--" and len(line.get_xdata())]
    assert len(dashed) == 2  # Graphcore and NVIDIA, not single-system Acme
    gc = [line for line in dashed if mcolors.to_rgba(line.get_color()) == FOCUS]
    assert len(gc) == 1 and list(gc[0].get_ydata()) == pytest.approx([37.12, 9.28])


def test_run_spread_marks_unconverged_runs(ax):
    runs = pd.DataFrame({"division": "closed", "submitter": ["Graphcore"] * 3 + ["NVIDIA"] * 2,
                         "system_id": ["pod16"] * 3 + ["dgx"] * 2, "display_name": ["POD16"] * 3 + ["DGX"] * 2,
                         "time_to_train_min": [30.0, 31.0, 40.0, 20.0, 21.0], "converged": [True, True, False, True, True]})
    charts.run_spread(runs, focus="Graphcore", baseline=("NVIDIA", "dgx"), benchmark="BERT", ax=ax)
    crosses = [c for c in ax.collections if len(c.get_offsets()) and c.get_label() == "did not converge"]
    assert len(crosses) == 1 and crosses[0].get_offsets().tolist() == [[40.0, 0.0]]
    strip = [c for c in ax.collections if c not in crosses and len(c.get_offsets())]
    colours = {tuple(o): mcolors.to_rgba(c.get_facecolor()[0]) for c in strip for o in c.get_offsets().tolist()}
    assert colours[(30.0, 0.0)] == FOCUS and colours[(20.0, 1.0)] == BASE


def test_round_over_round_one_line_per_submitter(v10, ax):
    rounds = {"training-v0.7": frame(V07, "training-v0.7"), "training-v1.0": v10}
    bests = metrics.round_bests(rounds, benchmark="resnet")
    charts.round_over_round(bests, rounds=list(rounds), colours=charts.submitter_colours(bests, focus="Graphcore"),
                            benchmark="ResNet-50", ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["v0.7", "v1.0"]
    palette = style.submitter_palette(["Acme", "Graphcore", "NVIDIA"], focus="Graphcore")
    by_colour = {mcolors.to_rgba(line.get_color()): line for line in ax.get_lines() if len(line.get_xdata())}
    assert list(by_colour[mcolors.to_rgba(palette["NVIDIA"])].get_ydata()) == [39.78, 4.5]
    assert list(by_colour[FOCUS].get_xdata()) == [1.0]  # Graphcore: first submission in v1.0
    assert ax.get_legend() is None  # under the figure, where the layout makes room for it
    assert [t.get_text() for t in ax.figure.legends[0].get_texts()] == ["Acme", "Graphcore", "NVIDIA"]


def test_empty_data_draws_a_note_not_an_error(ax):
    charts.time_to_train(pd.DataFrame(columns=["division", "score_min"]), ax=ax)
    assert [t.get_text() for t in ax.texts] == ["no scored results"]


def test_svg_is_deterministic_undated_and_chinese_renders(v10):
    data = metrics.scored(v10, benchmark="resnet")
    lang = style.chart_language("zh-Hant")
    first = outputs.chart_svg(charts.time_to_train, lang=lang, rows=len(data), data=data,
                                colours=charts.result_colours(data, focus="Graphcore"), benchmark="ResNet")
    second = outputs.chart_svg(charts.time_to_train, lang=lang, rows=len(data), data=data,
                                colours=charts.result_colours(data, focus="Graphcore"), benchmark="ResNet")
    assert first == second
    assert "<dc:date>" not in first and "<!--" not in first  # labels as text, no glyph outlines
    assert re.search(r"<text\b[^>]*>[^<]*[\u4e00-\u9fff][^<]*</text>", first)  # a Chinese label, as text
    assert first != outputs.chart_svg(charts.time_to_train, lang="en", rows=len(data), data=data,
                                colours=charts.result_colours(data, focus="Graphcore"), benchmark="ResNet")


def test_energy_to_train_bars_only_results_with_power_least_first(ax):
    data = pd.DataFrame([
        {"division": "closed", "submitter": "Dell", "system_id": "a", "display_name": "Dell A", "score_min": 30.0,
         "energy_j": 16_380_000.0},
        {"division": "closed", "submitter": "Acme", "system_id": "b", "display_name": "Acme B", "score_min": 20.0,
         "energy_j": 9_000_000.0},
        {"division": "closed", "submitter": "Beta", "system_id": "c", "display_name": "Beta C", "score_min": 10.0,
         "energy_j": None},
    ])
    charts.energy_to_train(data, colours=charts.result_colours(charts.energy_rows(data), focus="Dell"),
                           benchmark="Llama 2 70B-LoRA", lang="zh-Hant", ax=ax)
    widths = [round(p.get_width(), 2) for p in sorted(ax.patches, key=lambda p: p.get_y()) if p.get_width() > 0]
    assert widths == [9.0, 16.38]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Acme B", "Dell A"]
    assert ax.get_xlabel() == "訓練耗能（百萬焦耳，越低越好）"
    assert len(charts.energy_rows(data.drop(columns="energy_j"))) == 0


def test_a_wide_time_to_train_chart_is_log_scaled_with_no_minor_ticks(v10):
    """Minor ticks are never shown in the house style, yet each was made and laid out at every
    measuring (thirty to fifty a wide chart): none are made, and the chart shows the same."""
    from matplotlib import ticker

    data = metrics.scored(v10, benchmark="bert")
    data = data.assign(score_min=[1.0 * 40 ** i for i in range(len(data))])  # past WIDE_RANGE
    with style.house_style("en"):
        fig = style.figure(len(data))
        ax = fig.subplots()
        charts.time_to_train(data, benchmark="BERT", ax=ax)
        svg = style.to_svg(fig)
    assert ax.get_xscale() == "log" and isinstance(ax.xaxis.get_minor_locator(), ticker.NullLocator)
    assert len(ax.xaxis.minorTicks) <= 1 and svg.count('<g id="xtick_') <= len(ax.xaxis.get_majorticklocs())
