"""Charts painted per focus: a chart that takes ``colours`` is drawn once for every focus, and the
chart a focus gets is the same bytes whichever focus drew it first, with that focus's colours."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mlperf_report.analysis import chart_memo, outputs, paint, style
from mlperf_report.suites.training import charts

DRAWN: list[str] = []


def painted_bars(data: pd.DataFrame, *, colours=None, lang: str = "en", ax=None):
    """A small chart coloured by ``colours`` (name -> colour); counts how often it really draws."""
    DRAWN.append(lang)
    ax.barh(data["name"].astype(str), data["value"], color=[(colours or {}).get(n, "#a9b1ba") for n in data["name"]])
    ax.set_title("#fe0001 and other text")  # a label may spell a placeholder: it is not a colour
    return ax


FRAME = pd.DataFrame({"name": ["alpha", "beta", "gamma"], "value": [3.0, 2.0, 1.0]})


@pytest.fixture(autouse=True)
def own_memo(tmp_path, monkeypatch):
    monkeypatch.setattr(chart_memo, "memo_dir", lambda: tmp_path / "charts")
    DRAWN.clear()


def fills(svg: str) -> list[str]:
    return re.findall(r"fill: (#[0-9a-f]{6})", svg)


def focus_on(name: str) -> dict[str, str]:
    return {n: style.FOCUS_COLOR if n == name else style.OTHER_COLOR for n in FRAME["name"]}


def test_every_focus_shares_one_drawing_and_gets_its_own_colours():
    beta = outputs.chart_svg(painted_bars, lang="en", data=FRAME, colours=focus_on("beta"))
    gamma = outputs.chart_svg(painted_bars, lang="en", data=FRAME, colours=focus_on("gamma"))
    assert DRAWN == ["en"]
    assert fills(beta).count(style.FOCUS_COLOR) == 1 and fills(gamma).count(style.FOCUS_COLOR) == 1
    assert beta != gamma
    assert "#fe0001 and other text" in beta  # the title's text, untouched in its text


def test_a_focus_chart_is_the_same_bytes_whichever_focus_drew_first(tmp_path, monkeypatch):
    after_other = [outputs.chart_svg(painted_bars, lang="en", data=FRAME, colours=focus_on(n)) for n in ("alpha", "beta")]
    monkeypatch.setattr(chart_memo, "memo_dir", lambda: tmp_path / "empty")
    alone = outputs.chart_svg(painted_bars, lang="en", data=FRAME, colours=focus_on("beta"))
    assert alone == after_other[1] and DRAWN == ["en", "en"]


def test_a_real_chart_painted_equals_its_drawing_in_those_colours():
    """The painted time-to-train chart has exactly the bar colours the chart gives when drawn with
    the real colours (read from the plot itself), bar for bar."""
    data = pd.DataFrame({"division": ["closed", "closed", "open"], "submitter": ["Acme", "Beta", "Acme"],
                         "system_id": ["a", "b", "c"], "display_name": ["Acme A", "Beta B", "Acme C"],
                         "score_min": [10.0, 20.0, 5.0], "accelerators": [8, 8, 8]})
    colours = charts.result_colours(data, focus="Acme", baseline=("Beta", "b"))
    svg = outputs.chart_svg(charts.time_to_train, lang="en", rows=3, data=data, colours=colours, benchmark="X")
    with style.house_style("en"):
        ax = style.figure(3).subplots()
        charts.time_to_train(data, colours=colours, benchmark="X", ax=ax)
    direct = [f"#{''.join(f'{round(c * 255):02x}' for c in p.get_facecolor()[:3])}" for p in ax.containers[-1]]
    bars = [c for c in fills(svg) if c in (style.FOCUS_COLOR, style.BASELINE_COLOR, style.OTHER_COLOR)]
    assert bars == direct == [style.FOCUS_COLOR, style.BASELINE_COLOR, style.FOCUS_COLOR]  # fastest first; open last


def test_a_colour_no_key_stands_for_is_an_error():
    with pytest.raises(paint.PaintError, match="#fe0009"):
        paint.repaint('<path style="fill: #fe0009"/>', {"a": "#fe0001"}, {"a": "#000000"})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=4), st.text(max_size=4)), max_size=30),
       st.text(alphabet="#fe0123456789abcdef-<>!: ", max_size=40))
@example(keys=[("a", "b")], label="#fe0001 & <#fd0001>")  # a label spelling placeholders: never painted
def test_placeholders_are_distinct_stable_and_only_colours_are_painted(keys, label):
    mapping = paint.placeholders(keys)
    assert mapping == paint.placeholders(list(reversed(keys)))
    assert len(set(mapping.values())) == len(mapping) == len(set(keys))
    comment = "<!-- " + label.replace("--", "- -").replace(">", "&gt;") + " -->"
    escaped = label.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")  # as matplotlib writes text
    fill = ' style="fill: {}"' if mapping else ""  # text on the first placeholder's bar, when there is one
    text = f"<text{fill.format('#fd0001')}>{escaped}</text>"
    svg = comment + text + "".join(f'<path style="fill: {p}"/>' for p in mapping.values())
    painted = paint.repaint(svg, mapping, {key: "#123456" for key in mapping})
    kept = f"<text{fill.format('#ffffff')}>{escaped}</text>"  # the text on a #123456 bar: white; its label as written
    assert painted == comment + kept + '<path style="fill: #123456"/>' * len(mapping)
