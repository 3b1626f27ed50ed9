"""Chart text measured once per kernel: the same SVG bytes as matplotlib measuring it per renderer,
far fewer measurements, and matplotlib left as it was after each chart."""

from __future__ import annotations

import pytest

from mlperf_report.analysis import measured_text, style


def _chart(lang: str, names: list[str]) -> str:
    """A house-style chart with what text layout meets: bars labelled in Latin and Chinese, a log
    axis, a bold title, a label in two faces, a legend outside the axes, a rotated label."""
    with style.house_style(lang), measured_text.remembered():
        fig = style.figure(len(names))
        ax = fig.subplots()
        ax.barh(names, [3.5 * (i + 1) for i in range(len(names))], color="#0b5cad", label="分鐘 minutes")
        ax.set_xscale("log")
        ax.set_title("Time to train · 訓練時間", fontweight="bold")
        ax.set_xlabel("Minutes (log scale)")
        ax.set_ylabel("系統 system")
        ax.text(4, 0, "Acme", fontweight="bold")  # a tick label's text again, in another face
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
        return style.to_svg(fig)


_FIRST = ["Dell PowerEdge XE9680", "超微 SYS-821GE", "Acme"]
_SECOND = ["Acme", "NVIDIA DGX A100", "超微 SYS-821GE", "Dell PowerEdge XE9680"]


def _measurements(monkeypatch) -> list:
    from matplotlib.backends.backend_svg import RendererSVG

    calls = []
    original = RendererSVG.get_text_width_height_descent

    def counted(self, s, prop, ismath):
        calls.append(s)
        return original(self, s, prop, ismath)

    monkeypatch.setattr(RendererSVG, "get_text_width_height_descent", counted)
    return calls


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_charts_are_the_same_bytes_with_text_measured_once(monkeypatch, lang):
    remembered = [_chart(lang, _FIRST), _chart(lang, _SECOND)]  # the second reuses the first's sizes
    monkeypatch.setattr(measured_text, "CHECKED", ())
    assert [_chart(lang, _FIRST), _chart(lang, _SECOND)] == remembered


def test_a_label_is_measured_once_whichever_renderer_and_chart_asks(monkeypatch):
    _chart("en", _FIRST)
    calls = _measurements(monkeypatch)
    _chart("en", _FIRST)
    assert calls == []  # the same chart again: every size known
    _chart("en", [*_FIRST, "Gigabyte G593-SD0 (measured here first)"])
    assert "Gigabyte G593-SD0 (measured here first)" in calls and len(calls) == len(set(calls))


def test_without_it_matplotlib_measures_per_renderer(monkeypatch):
    """What the memo saves (and the test above would see, were it not there): each chart measures
    its labels again, in its layout's renderer and its writer's."""
    _chart("en", _FIRST)
    monkeypatch.setattr(measured_text, "CHECKED", ())
    calls = _measurements(monkeypatch)
    _chart("en", _FIRST)
    assert len(calls) > len(set(calls)) > 0


def test_a_fonts_tables_are_read_once_for_every_label_laid_out(monkeypatch):
    """Each label's line height comes from its font's tables: read from the font once, not at every
    layout of every label (matplotlib reads them as new dictionaries each time)."""
    from matplotlib import font_manager

    _chart("en", _FIRST)
    reads = []
    original = font_manager.get_font

    def counted(*args, **kwargs):
        reads.append(args[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(font_manager, "get_font", counted)  # where text layout's stand-in opens fonts
    monkeypatch.setattr(measured_text, "_FONT_TABLES", {})
    from matplotlib import text as mpl_text

    monkeypatch.setattr(mpl_text, "get_font", counted)
    _chart("en", _FIRST)
    _chart("en", _SECOND)
    assert 0 < len(reads) == len({tuple(r) for r in reads}) <= 4  # one read per face (regular, bold, CJK)
    monkeypatch.setattr(measured_text, "CHECKED", ())
    reads.clear()
    _chart("en", _FIRST)
    assert len(reads) > 20  # without it: once per label laid out


def test_matplotlib_is_left_as_it_was_even_when_a_chart_fails():
    from matplotlib import font_manager
    from matplotlib import text as mpl_text

    measure = mpl_text._get_text_metrics_with_cache
    open_font = mpl_text.get_font
    with pytest.raises(RuntimeError), measured_text.remembered():
        with measured_text.remembered():  # nested: the outer block's settings hold
            assert mpl_text._get_text_metrics_with_cache is not measure
        assert "_find_fonts_by_props" in vars(font_manager.fontManager)
        raise RuntimeError("the chart failed")
    assert mpl_text._get_text_metrics_with_cache is measure and mpl_text.get_font is open_font
    assert "_find_fonts_by_props" not in vars(font_manager.fontManager)


def test_text_measured_under_other_font_settings_is_measured_again():
    """The sizes and font files are kept per font settings: the same text in the same font
    properties (the generic family "sans-serif") measures differently when the settings name
    another font for that family."""
    import io

    import matplotlib as mpl
    from matplotlib import text as mpl_text
    from matplotlib.backends.backend_svg import RendererSVG
    from matplotlib.font_manager import FontProperties

    prop = FontProperties(family="sans-serif", size=40)

    def width(font: str) -> float:
        with mpl.rc_context({"font.sans-serif": [font]}), measured_text.remembered():
            renderer = RendererSVG(100, 100, io.StringIO())
            return mpl_text._get_text_metrics_with_cache(renderer, "Illegible", prop, False, 72)[0]

    assert width("DejaVu Sans") != width("DejaVu Sans Mono")
    assert width("DejaVu Sans") == width("DejaVu Sans")
