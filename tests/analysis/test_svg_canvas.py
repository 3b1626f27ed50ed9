"""The house's SVG canvas: matplotlib's own SVG, but every label written at the start matplotlib
laid it out from, never left to the reader's measurement to align."""

from __future__ import annotations

import io
import re

import matplotlib as mpl
from matplotlib.backends.backend_svg import FigureCanvasSVG

from mlperf_report.analysis import style, svg_canvas

_TEXT = re.compile(r"<text\b[^>]*>[^<]*</text>")


def _chart(canvas, fonttype: str) -> str:
    with style.house_style("zh-Hant"), mpl.rc_context({"svg.fonttype": fonttype}):
        fig = style.figure(3)
        ax = fig.subplots()
        ax.barh(["Graphcore IPU-POD16", "NVIDIA 系統", "Dell\nXE8545"], [28.3, 31.0, 12.5], color="#0b5cad")
        ax.set_title("訓練時間：ResNet")
        ax.set_xlabel("minutes")
        ax.text(31.0, 1, "31.0", ha="right", va="center", color="white")
        canvas(fig)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
        return buffer.getvalue()


def test_labels_are_written_at_their_start_and_everything_else_is_matplotlibs():
    ours, theirs = _chart(svg_canvas.Canvas, "none"), _chart(FigureCanvasSVG, "none")
    assert _TEXT.sub("", ours) == _TEXT.sub("", theirs)  # every other byte is savefig's
    assert "text-anchor" in theirs and "text-anchor" not in ours
    labels = _TEXT.findall(ours)
    assert len(labels) == len(_TEXT.findall(theirs)) and all('transform="translate(' in label for label in labels)
    # the right-aligned value starts where matplotlib put its glyph outlines, left of its anchor
    start = re.search(r'translate\(([-\d.]+ [-\d.]+)\)">31.0<', ours).group(1)
    outlined = re.search(r'<!-- 31.0 -->\s*<g [^>]*transform="translate\(([-\d.]+ [-\d.]+)\)', _chart(FigureCanvasSVG, "path"))
    anchor = float(re.search(r'x="([-\d.]+)"[^>]*>31.0<', theirs).group(1))
    assert start == outlined.group(1) and anchor - float(start.split()[0]) > 10


def test_with_glyph_outlines_it_writes_savefigs_bytes():
    assert _chart(svg_canvas.Canvas, "path") == _chart(FigureCanvasSVG, "path")
