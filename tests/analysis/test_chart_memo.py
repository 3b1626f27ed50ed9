"""The chart memo: a chart whose inputs were drawn before is read back, byte for byte, and nothing
that differs in any input (a cell, a type, a category order, the focus, the drawing code) is ever
answered from it."""

from __future__ import annotations

import importlib
import sys

import pandas as pd
import pytest

from mlperf_report.analysis import chart_memo, outputs

DRAWN: list[str] = []


def bars(data: pd.DataFrame, *, focus=None, lang: str = "en", ax=None):
    """A small chart drawing; counts how often it really draws."""
    DRAWN.append(lang)
    colors = ["#d1495b" if focus and name in focus else "#a9b1ba" for name in data["name"]]
    ax.barh(data["name"].astype(str), data["value"], color=colors)
    ax.set_title(f"{len(data)} systems")
    return ax


class Opaque(frozenset):
    """A value of a type the memo has no spelling for (a set subclass that could compare otherwise)."""


FRAME = pd.DataFrame({"name": ["alpha", "beta", "gamma"], "value": [3.0, 2.0, 1.0]})


@pytest.fixture(autouse=True)
def own_memo(tmp_path, monkeypatch):
    monkeypatch.setenv("MLPERF_REPORT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(chart_memo, "memo_dir", lambda: tmp_path / "cache" / "charts")
    DRAWN.clear()


def test_the_same_inputs_are_drawn_once_and_read_back_byte_for_byte():
    first = outputs.chart_svg(bars, lang="en", rows=3, data=FRAME, focus=frozenset({"beta"}))
    again = outputs.chart_svg(bars, lang="en", rows=3, data=FRAME.copy(), focus=frozenset({"beta"}))
    assert again == first and DRAWN == ["en"]


@pytest.mark.parametrize("change", [
    dict(data=FRAME.assign(value=[3.0, 2.0, 1.5])),              # one cell
    dict(data=FRAME.assign(value=[3, 2, 1])),                      # the same numbers as integers
    dict(data=FRAME.assign(name=pd.Categorical(FRAME["name"], categories=["gamma", "beta", "alpha"]))),
    dict(focus=frozenset({"alpha"})),                              # another focus
    dict(focus=None),
    dict(lang="zh-Hant"),
    dict(rows=4),
])
def test_any_different_input_is_drawn_again(change):
    base = dict(lang="en", rows=3, data=FRAME, focus=frozenset({"beta"}))
    outputs.chart_svg(bars, **base)
    outputs.chart_svg(bars, **{**base, **change})
    assert len(DRAWN) == 2


def test_equal_values_spelled_differently_share_a_key_and_different_ones_never_do():
    def key(**options):
        return chart_memo.chart_key(bars, lang="en", rows=None, height=None, options=options)

    assert key(focus=frozenset({("a", "1"), ("b", "2")})) == key(focus=frozenset({("b", "2"), ("a", "1")}))
    assert key(data=FRAME) == key(data=FRAME.copy())
    distinct = [key(x=1), key(x=1.0), key(x=True), key(x="1"), key(x=None), key(x=(1,)), key(x=[1]),
                key(x=float("nan")), key(x=0.1 + 0.2), key(x=0.3), key(data=FRAME.iloc[::-1])]
    assert len(set(distinct)) == len(distinct)


def test_a_stand_in_function_or_an_unknown_option_type_is_always_drawn():
    def stand_in(data, *, lang="en", ax=None):  # not its module's own attribute: a test's stand-in
        DRAWN.append("stand-in")
        ax.plot(data["value"])
        return ax

    for _ in range(2):
        outputs.chart_svg(stand_in, lang="en", data=FRAME)
        outputs.chart_svg(bars, lang="en", data=FRAME, focus=Opaque())
    assert DRAWN == ["stand-in", "en", "stand-in", "en"]


def test_a_damaged_memo_is_drawn_again(tmp_path):
    first = outputs.chart_svg(bars, lang="en", data=FRAME)
    (kept,) = (tmp_path / "cache" / "charts").glob("*.svg")
    kept.write_text(first[: len(first) // 2], encoding="utf-8")
    assert outputs.chart_svg(bars, lang="en", data=FRAME) == first and DRAWN == ["en", "en"]


def test_a_change_to_the_drawing_code_changes_the_key(tmp_path, monkeypatch):
    module = tmp_path / "memo_probe.py"
    module.write_text("def draw(data, *, lang='en', ax=None):\n    return ax.plot(data['value'])\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = importlib.import_module("memo_probe")
    try:
        before = chart_memo.chart_key(probe.draw, lang="en", rows=None, height=None, options={"data": FRAME})
        module.write_text("def draw(data, *, lang='en', ax=None):\n    return ax.plot(data['value'], 'o')\n")
        after = chart_memo.chart_key(probe.draw, lang="en", rows=None, height=None, options={"data": FRAME})
    finally:
        sys.modules.pop("memo_probe", None)
    assert before and after and before != after


def test_the_memo_keeps_at_most_its_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(chart_memo, "MAX_ENTRIES", 4)
    for value in range(6):
        outputs.chart_svg(bars, lang="en", data=FRAME.assign(value=[float(value)] * 3))
    assert len(list((tmp_path / "cache" / "charts").glob("*.svg"))) <= 4
