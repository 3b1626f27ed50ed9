"""Notebook outputs: a table with no rows is never shown (the like-for-like table of a benchmark the
focus did not enter used to print as a header with nothing under it)."""

from __future__ import annotations

import os

import pandas as pd

from mlperf_report.analysis import outputs


def test_a_table_without_rows_is_not_displayed(capsys):
    rows = pd.DataFrame({"System": ["A"], "Minutes": ["1.00"]})
    outputs.show_table("kept", lambda lang: rows, languages=["en", "zh-Hant"])
    outputs.show_table("empty", lambda lang: rows.iloc[0:0], languages=["en", "zh-Hant"])
    shown = capsys.readouterr().out  # outside a kernel IPython prints what it would display
    assert shown.count("<table") == 2 and shown.count("<td>A</td>") == 2


def test_two_spellings_of_a_submitter_get_the_same_colours_in_every_process():
    """'Supermicro' and 'SUPERMICRO' (two rounds' spellings) tie when sorted ignoring case; the order
    a set gives them in changes with each process's string hashing, and with it the colours and the
    drawing order of a round-over-round chart. The palette must not."""
    import subprocess
    import sys

    from mlperf_report.core import paths

    code = ("from mlperf_report.analysis.style import submitter_palette;"
            "print(submitter_palette(['SUPERMICRO', 'Supermicro', 'Dell', 'DELL', 'dell', 'Acme'], focus='Acme'))")
    palettes = {subprocess.run([sys.executable, "-c", code], cwd=paths.ROOT, capture_output=True, text=True, check=True,
                               env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(8)}
    assert len(palettes) == 1, palettes


def test_a_chart_laid_out_before_saving_is_the_chart_savefig_lays_out():
    """``style.to_svg`` runs the constrained layout itself and saves with no engine, sparing savefig
    a walk of the figure; the bytes must be those of savefig's own layout, for Latin and CJK labels
    and a legend outside the axes, or a matplotlib upgrade has changed how savefig measures."""
    import io

    from mlperf_report.analysis import style, svg_canvas

    def chart():
        fig = style.figure(6)
        ax = fig.subplots()
        ax.barh(["Dell PowerEdge XE9680", "超微 SYS-821GE", "Acme"], [3.5, 12.25, 7.0], label="分鐘 minutes")
        ax.set_title("Time to train · 訓練時間", loc="left")
        ax.set_xlabel("minutes (lower is better)")
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
        fig.suptitle("ResNet-50 v1.5")
        return fig

    with style.house_style("zh-Hant"):
        ours = style.to_svg(chart())
        theirs, fig = io.StringIO(), chart()
        svg_canvas.Canvas(fig)  # the house's SVG writer (labels at their start), savefig's layout
        fig.savefig(theirs, format="svg", metadata={"Date": None})
    assert ours == theirs.getvalue()
    assert ">超微 SYS-821GE</text>" in ours  # labels are text


def test_seaborn_leaves_the_axis_labels_to_the_chart():
    """Around a seaborn call the labels hold a placeholder (so seaborn neither names the axes after
    columns nor lays out the ticks to decide), and come back empty, never as a column's name."""
    import seaborn as sns

    from mlperf_report.analysis import style
    from mlperf_report.analysis.axes import labels_of_our_own

    rows = pd.DataFrame({"minutes": [3.0, 5.0], "system": ["A", "B"]})
    with style.house_style("en"):
        ax = style.figure(2).subplots()
        with labels_of_our_own(ax):
            sns.barplot(data=rows, x="minutes", y="system", orient="h", ax=ax)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("", "")
    assert ax.xaxis.label.get_visible() and ax.yaxis.label.get_visible()
