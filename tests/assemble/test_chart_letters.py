"""Chart labels printed with each text, face and size measured once per print: the same PDF bytes
as WeasyPrint's own letter-by-letter measuring, and nothing else of the page touched."""

from __future__ import annotations

import pytest

from mlperf_report.assemble import chart_letters, pdf_print, svg_runs

#: A chart as the printer gets it: labels as SVG text in two faces and two sizes, letters repeated.
_CHART = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120" viewBox="0 0 300 120">'
    '<text x="10" y="20" font-family="DejaVu Sans" font-size="12">Time to train (minutes)</text>'
    '<text x="10" y="40" font-family="DejaVu Sans" font-size="12" font-weight="bold">Dell PowerEdge</text>'
    '<text x="10" y="60" font-family="DejaVu Sans" font-size="9">10 20 50 100 200 500 1000</text>'
    '<text x="10" y="80" font-family="DejaVu Sans" font-size="9">10</text>'
    '<g transform="translate(10 100) rotate(-90)"><text font-family="DejaVu Sans" font-size="9">10</text></g>'
    "</svg>"
)


def _page(body: str) -> str:
    return f'<html><body><p>Training times, in minutes.</p>{body}<p>Tables: 10 20 50.</p></body></html>'


def _printed(html: str, memo: dict | None = None) -> bytes:
    """The page printed by WeasyPrint with the report's settings; measured once per label and letter
    (the measurements left in ``memo``) or, without ``memo``, as WeasyPrint measures on its own."""
    import contextlib

    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    with pdf_print._fixed_font_timestamps(), (chart_letters.remembered() if memo is not None
                                              else contextlib.nullcontext({})) as remembered:
        pdf = HTML(string=html, media_type="print").write_pdf(font_config=FontConfiguration(), optimize_images=False)
    if memo is not None:
        memo.update(remembered)
    return pdf


def test_a_chart_prints_to_the_same_bytes_with_its_letters_measured_once():
    html = _page(_CHART + _CHART)
    memo: dict = {}
    assert _printed(html, memo) == _printed(html)
    with svg_runs.whole_labels():  # the report's printing measures so, its labels drawn whole (svg_runs)
        assert pdf_print.render_pdf(html) == _printed(html)
    measured = [key[0] for key in memo]
    assert {"T", "0", "1", "Dell PowerEdge", "10"} <= set(measured)  # whole labels are measured too
    assert len(measured) == len(set((key[0], key[4], key[3]) for key in memo))  # once per text, size, weight
    letters = sum(len(text) for text in ["Time to train (minutes)", "Dell PowerEdge", "10 20 50 100 200 500 1000",
                                          "10", "10"]) * 2
    assert len(memo) < letters / 2


def test_the_page_s_own_text_is_measured_as_always():
    memo: dict = {}
    _printed(_page(""), memo)
    assert memo == {}


def test_another_weasyprint_version_prints_without_it(monkeypatch):
    import weasyprint
    from weasyprint.text import line_break

    original = line_break.split_first_line
    monkeypatch.setattr(weasyprint, "__version__", "0.0-unchecked")
    with chart_letters.remembered() as memo:
        assert line_break.split_first_line is original
    assert memo == {}
    assert pdf_print.render_pdf(_page(_CHART)) == _printed(_page(_CHART))


def test_the_measuring_is_given_back_after_a_print_even_a_failed_one():
    from weasyprint.text import line_break

    original = line_break.split_first_line
    with pytest.raises(RuntimeError), chart_letters.remembered():
        assert line_break.split_first_line is not original
        raise RuntimeError("the page failed")
    assert line_break.split_first_line is original
