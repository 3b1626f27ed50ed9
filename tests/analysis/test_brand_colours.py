"""A brand's primary among a chart's other colours: CIEDE2000 as published, and every house colour too
alike to the primary replaced by one that is not, nothing else changed, two series never merged,
the text on a replaced bar still readable; the press kit's grey and teal too, put back after."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from mlperf_report.analysis import brand_colours, style
from mlperf_report.core import contrast

#: Sharma, Wu and Dalal (2005), table 1: L*a*b* pairs and their CIEDE2000 difference.
SHARMA = [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425), ((50, 3.1571, -77.2803), (50, 0, -82.7485), 2.8615),
          ((50, 0, 0), (50, -1, 2), 2.3669), ((50, 2.5, 0), (73, 25, -18), 27.1492),
          ((50, 2.5, 0), (61, -5, 29), 22.8977), ((50, 2.5, 0), (56, -27, -3), 31.9030),
          ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644)]

_FILL = re.compile(r"fill: (#[0-9a-f]{6})")


@pytest.mark.parametrize("first, second, expected", SHARMA)
def test_the_colour_difference_is_ciede2000_as_published(first, second, expected):
    assert contrast.lab_difference(first, second) == pytest.approx(expected, abs=1e-4)
    assert contrast.lab_difference(second, first) == pytest.approx(expected, abs=1e-4)


def _chart(colours) -> str:
    """A chart's SVG as matplotlib writes fills, with a label's comment naming a house colour."""
    return "<svg><!-- #edae49 -->" + "".join(f'<path style="fill: {c}"/>' for c in colours) + "</svg>"


def test_a_yellow_brand_moves_the_palette_s_mustard_and_gold_and_nothing_else():
    svg = _chart([style.FOCUS_COLOR, "#30638e", "#edae49", "#e9c46a", "#66a182"])
    fills = _FILL.findall(style.recolour(svg, "#ffd60a"))
    assert fills[0] == "#ffd60a" and fills[1] == "#30638e" and fills[4] == "#66a182"
    assert fills[2] not in ("#edae49", "#e9c46a") and fills[3] not in ("#edae49", "#e9c46a")
    assert len(set(fills)) == len(fills)
    assert "<!-- #edae49 -->" in style.recolour(svg, "#ffd60a")  # a label's text is not a colour


def test_without_a_clash_the_chart_only_changes_its_focus():
    svg = _chart([style.FOCUS_COLOR, style.BASELINE_COLOR, style.OTHER_COLOR, "#30638e", "#edae49"])
    assert style.recolour(svg, "#76b900") == svg.replace(style.FOCUS_COLOR, "#76b900")


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 0xFFFFFF), st.lists(st.sampled_from(style.SUBMITTER_PALETTE), max_size=5, unique=True))
def test_every_series_of_a_chart_stands_apart_from_any_brand(primary, palette):
    brand = f"#{primary:06x}"
    series = [style.BASELINE_COLOR, style.OTHER_COLOR, *palette]
    fills = _FILL.findall(style.recolour(_chart([style.FOCUS_COLOR, *series]), brand))
    assert fills[0] == brand
    others = fills[1:]
    assert len(set(others)) == len(others)  # no two series merged
    moved = {old: new for old, new in zip(series, others) if old != new}
    for old, new in moved.items():
        assert contrast.difference(contrast.rgb(new), contrast.rgb(brand)) >= contrast.ALIKE
        text = {"white": (1, 1, 1), "black": (0, 0, 0)}[style.text_on(old)]
        assert contrast.ratio(contrast.rgb(new), text) >= contrast.TEXT  # the bar's text still reads
    if brand != style.FOCUS_COLOR:  # (the house's own focus colour leaves the chart as it is)
        for colour in others:  # with up to five palette colours there is always a reserve colour to take
            assert contrast.difference(contrast.rgb(colour), contrast.rgb(brand)) >= contrast.ALIKE

def test_the_press_kit_s_grey_and_teal_step_away_from_the_brand_and_come_back():
    before = style.OTHER_COLOR, style.BASELINE_COLOR
    with style.branded("#a0a8b0"):  # a grey brand: the others get another grey
        assert style.OTHER_COLOR != before[0] and brand_colours._grey(style.OTHER_COLOR)
        assert style.BASELINE_COLOR == before[1]
    with style.branded(style.BASELINE_COLOR):  # the baseline's own teal as the brand's
        assert style.BASELINE_COLOR != before[1] and style.OTHER_COLOR == before[0]
    assert (style.OTHER_COLOR, style.BASELINE_COLOR) == before
