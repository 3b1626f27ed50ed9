"""The house style's choices a brand changes: text on a brand's bar is white or black, whichever
contrasts more with the bar (WCAG), while the house's colours keep their labels' colours; a brand's typeface is set in one place
(``house_style``), so a branded chart uses it and an unbranded one is drawn exactly as before."""

from __future__ import annotations

import matplotlib.colors as mcolors
import matplotlib.figure
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mlperf_report.analysis import claim_charts, style

colours = st.tuples(*[st.integers(0, 255)] * 3).map(lambda rgb: "#%02x%02x%02x" % rgb)


@settings(max_examples=300, deadline=None)
@given(colours)
@example("#ffe135")   # a light brand colour: dark text
@example("#1a237e")   # a dark one: white text
def test_text_on_a_brand_s_bar_contrasts_at_least_as_much_as_the_other_choice(colour):
    if colour.lower() in style._HOUSE_COLOURS:
        return  # the house's colours keep their labels' colours (below)
    chosen = style.text_on(colour)
    other = style.DARK_TEXT if chosen == style.LIGHT_TEXT else style.LIGHT_TEXT
    assert style.contrast(chosen, colour) >= style.contrast(other, colour)


def test_the_house_colours_keep_their_labels_colours():
    """White on the focus's and the baseline's colours, black on the others: today's charts, unchanged
    (the house red would get black by contrast alone: 4.8 against 4.4)."""
    assert style.text_on("#d1495b") == style.text_on("#00798c") == style.LIGHT_TEXT
    assert {style.text_on(c) for c in (*style.SUBMITTER_PALETTE, style.OTHER_COLOR)} == {style.DARK_TEXT}


def test_contrast_is_wcag_s():
    assert style.contrast("black", "white") == pytest.approx(21.0)
    assert style.contrast("#777777", "#777777") == pytest.approx(1.0)
    assert style.contrast("white", "#767676") == pytest.approx(4.54, abs=0.01)  # WCAG's grey on white


def _inside_label_colour(bar_colour: str) -> str:
    """The colour of the value written inside the longest bar of a claim chart in ``bar_colour``."""
    data = pd.DataFrame({"value": [10.0, 4.0], "mine": [True, False], "_label": ["mine", "other"]})
    with style.branded(bar_colour), style.house_style("en"):
        ax = matplotlib.figure.Figure().subplots()
        claim_charts.draw(data, measure="throughput", ax=ax)
    inside = [t for t in ax.texts if t.get_ha() == "right"]
    assert len(inside) == 1
    return mcolors.to_hex(inside[0].get_color())


@pytest.mark.parametrize("brand, text", [("#ffe135", "#000000"), ("#1a237e", "#ffffff"), ("#f0f0f0", "#000000"),
                                         ("#d1495b", "#ffffff")])  # the house red: white, as before
def test_a_brand_s_bar_gets_the_text_colour_that_reads_on_it(brand, text):
    assert _inside_label_colour(brand) == text


def _png(brand: dict | None = None) -> bytes:
    import contextlib
    import io

    data = pd.DataFrame({"value": [10.0, 4.0], "mine": [True, False], "_label": ["Alpha 8", "Beta 8"]})
    with style.branded(**brand) if brand is not None else contextlib.nullcontext(), style.house_style("en"):
        fig = matplotlib.figure.Figure(figsize=(3, 1.5))
        claim_charts.draw(data, measure="throughput", title="Title", ax=fig.subplots())
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()


def test_a_branded_chart_uses_the_brand_face_and_an_unbranded_one_is_drawn_as_before():
    import matplotlib as mpl

    before = dict(mpl.rcParams)
    with style.branded(font="DejaVu Serif"):
        assert dict(mpl.rcParams) == before  # ``branded`` alone sets nothing: house_style sets the face
        with style.house_style("en"):
            assert mpl.rcParams["font.family"][0] == "DejaVu Serif"
            assert "DejaVu Sans" in mpl.rcParams["font.family"]  # the house faces after it, for what it lacks
    with style.house_style("en"):
        assert mpl.rcParams["font.family"][0] == "DejaVu Sans"  # the brand's face left with ``branded``
    plain = _png()
    assert _png({"colour": None, "font": None}) == plain  # no brand: the same bytes as without ``branded``
    assert _png({"font": "DejaVu Serif"}) != plain        # the brand's face changes the drawing


@settings(max_examples=200, deadline=None)
@given(colours, st.booleans())
def test_a_figure_printed_large_reads_on_white_whatever_the_brand_s_colour(colour, mine):
    with style.branded(colour):
        chosen = style.figure_colour(mine)
        assert style.contrast(chosen, "white") >= 3
        assert chosen == (colour if mine and style.contrast(colour, "white") >= 3 else "#1f2933")


def _long_bars(ax, lang, colours, **_):
    """Two bars that nearly fill the axis: their values are written inside them."""
    from mlperf_report.analysis import axes

    bars = ax.barh(["focus", "baseline"], [9.7, 9.3], color=[colours["focus"], colours["baseline"]])
    ax.set_xlim(0, 10.2)
    axes.value_labels(ax, bars, lambda value: f"{value:g}")


def _fills(svg: str) -> list[str]:
    import re

    return re.findall(r"fill: ?(#[0-9a-f]{6})", svg)


def _value_colour(svg: str, value: str) -> str:
    """The colour of the value label ``value`` (matplotlib writes it as one ``<text>``, its fill in its style)."""
    import re

    return re.search(rf'<text style="[^"]*?fill: (#[0-9a-f]{{6}})[^"]*"[^>]*>{re.escape(value)}</text>', svg).group(1)


@pytest.mark.parametrize("brand, text", [(None, style.FOCUS_TEXT), ("#ffe135", "#000000"), ("#1a237e", "#ffffff")])
def test_a_value_inside_the_focus_bar_is_written_in_the_colour_that_reads_on_it_brand_or_not(brand, text):
    from mlperf_report.analysis import outputs

    svg = outputs.chart_svg(_long_bars, lang="en", colours={"focus": style.FOCUS_COLOR, "baseline": style.BASELINE_COLOR})
    assert not [f for f in _fills(svg) if f.startswith(("#fe", "#fd"))]  # every placeholder painted
    assert _value_colour(svg, "9.7") == style.FOCUS_TEXT and _value_colour(svg, "9.3") == "#ffffff"
    shown = style.recolour(svg, brand)
    assert _value_colour(shown, "9.7") == text and _value_colour(shown, "9.3") == "#ffffff"  # the baseline's: the house's
    if brand:
        assert brand in _fills(shown) and style.FOCUS_COLOR not in _fills(shown)


def test_recolouring_leaves_a_label_that_spells_the_focus_colour_as_written():
    svg = f'<path style="fill: {style.FOCUS_COLOR}"/><text style="fill: #262626">Team {style.FOCUS_COLOR}</text>'
    shown = style.recolour(svg, "#1a237e")
    assert shown == f'<path style="fill: #1a237e"/><text style="fill: #262626">Team {style.FOCUS_COLOR}</text>'


def test_a_brand_colour_that_looks_like_a_placeholder_is_a_colour_outside_a_painted_drawing():
    from mlperf_report.analysis import paint

    assert paint.text_placeholder("#fe6a00") is None  # a brand's orange, drawn by the kit directly
    with paint.drawing_with(paint.placeholders(["a", "b"])):
        assert paint.text_placeholder("#fe0002") == "#fd0002" and paint.text_placeholder("#fe6a00") is None
    assert style.text_on("#fe6a00") in (style.LIGHT_TEXT, style.DARK_TEXT)


def _debut_figure(ax, lang, **_):
    ax.set_axis_off()
    ax.text(0.5, 0.5, "10.25", transform=ax.transAxes, fontsize=30, color=style.figure_colour(True))
    ax.text(0.5, 0.2, "8.5", transform=ax.transAxes, fontsize=30, color=style.figure_colour(False))


@pytest.mark.parametrize("brand, colour", [(None, style.FOCUS_FIGURE), ("#ffe135", style.INK), ("#1a237e", "#1a237e")])
def test_the_focus_s_figure_printed_large_reads_on_white_whatever_the_brand(brand, colour):
    """The brief's chart is drawn in the house colours and recoloured for the brand: a light brand's
    primary would leave the focus's large figure unreadable on white (yellow on white), so it is ink."""
    from mlperf_report.analysis import outputs

    shown = style.recolour(outputs.chart_svg(_debut_figure, lang="en"), brand)
    assert _value_colour(shown, "10.25") == colour and _value_colour(shown, "8.5") == style.INK
    with style.branded(brand):  # drawn in the brand (the deck's and the cards' PNGs): the same choice
        assert mcolors.to_hex(style.figure_colour(True)) == colour
