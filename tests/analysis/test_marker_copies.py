"""Markers copied without copying their shapes: every chart of a benchmark notebook the same SVG
bytes as with matplotlib's deep copies, a copy independent of its source where it can change, and
matplotlib left as it was after each chart."""

from __future__ import annotations

import pytest
from matplotlib import markers
from matplotlib.transforms import Affine2D

from mlperf_report.analysis import marker_copies, outputs, style
from test_chart_layout import _run_benchmark_notebook, drawn  # noqa: F401 (a fixture)


def _svgs(monkeypatch, tmp_path) -> list[str]:
    svgs = []
    to_svg = style.to_svg

    def kept(fig):
        svgs.append(to_svg(fig))
        return svgs[-1]

    monkeypatch.setattr(style, "to_svg", kept)
    _run_benchmark_notebook("training-v1.0", "resnet", tmp_path)  # bars, scatter, lines, boxes, strips
    monkeypatch.setattr(style, "to_svg", to_svg)
    return svgs


def test_every_chart_of_a_notebook_is_the_same_bytes_with_markers_shared(monkeypatch, tmp_path, drawn):
    shared = _svgs(monkeypatch, tmp_path)
    monkeypatch.setattr(marker_copies, "CHECKED", ())
    assert len(shared) >= 8 and _svgs(monkeypatch, tmp_path) == shared


def test_a_copy_shares_the_shape_and_nothing_that_can_change():
    source = markers.MarkerStyle("o", transform=Affine2D().scale(2))
    with marker_copies.shallow():
        copy = markers.MarkerStyle(source)
    assert copy.get_path() is source.get_path()  # the shape: as every "o" marker shares it
    assert copy.get_user_transform() is not source.get_user_transform()
    copy.get_user_transform().scale(3)
    assert source.get_user_transform().get_matrix()[0, 0] == 2  # the source's own, untouched
    assert copy._marker_function.__self__ is copy


def test_matplotlib_is_left_as_it_was_even_when_a_chart_fails():
    original = markers.MarkerStyle._set_marker

    def fails(ax, lang):
        ax.plot([1, 2], [1, 2], marker="o")
        raise RuntimeError("a chart that fails")

    with pytest.raises(RuntimeError):
        outputs.chart_svg(fails, lang="en")
    assert markers.MarkerStyle._set_marker is original
