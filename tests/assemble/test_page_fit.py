"""How many of a page's parts fit on it (the brief's claims): the guess from one layout
(``page_fit``), confirmed by layouts (``pdf_print.shortest_that_fits``), keeps as many parts as the
page holds, the same number as laying out every count would, in fewer layouts than halving took."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mlperf_report.assemble import pdf_print

_PAGE = """<!DOCTYPE html><html><head><style>
@page {{ size: 100mm 80mm; margin: 5mm; }} html {{ font-family: "DejaVu Sans"; font-size: 10pt; }}
h1 {{ font-size: 14pt; margin: 0 0 3mm; }} ul {{ margin: 0 0 3mm; }} li {{ margin: 0 0 2mm; }}
p {{ margin: 0 0 1mm; font-size: 8pt; }}
</style></head><body><h1>Headline</h1><ul>{items}</ul><div>{notes}</div></body></html>"""


def page(lines: list[int], marked: bool = True):
    """A page of len(lines) parts, each a bullet of that many lines and a note; ``make(n)`` keeps the first n."""
    def make(n: int) -> str:
        mark = (lambda k: f' data-fit="{k}"') if marked else (lambda k: "")
        items = "".join(f"<li{mark(k)}>" + "<br>".join(f"claim {k} line {i}" for i in range(count)) + "</li>"
                        for k, count in enumerate(lines[:n], start=1) if k > 1)
        notes = "".join(f"<p{mark(k)}>note {k}</p>" for k in range(1, n + 1))
        return _PAGE.format(items=items, notes=notes)
    return make


def largest_fitting(make, most: int) -> int:
    """What fits, by laying out every count."""
    from weasyprint import HTML

    fitting = [n for n in range(1, most + 1) if len(HTML(string=make(n)).render().pages) == 1]
    return max(fitting, default=1)


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=5), min_size=2, max_size=7))
def test_the_page_keeps_as_many_parts_as_fit_in_fewer_layouts_than_halving(lines):
    made = []
    make = page(lines)
    counted = lambda n: (made.append(n), make(n))[1]  # noqa: E731
    pdf = pdf_print.shortest_that_fits(counted, len(lines))
    expected = largest_fitting(make, len(lines))
    assert pdf == pdf_print.shortest_that_fits(lambda n: make(expected), 1)
    if len(made) > 1:  # all did not fit: the guess, then a layout either side of it (more if it was off)
        assert len(made) <= 3 + abs(made[1] - expected)
        unmarked = page(lines, marked=False)  # a page marking no part: by halving, the same count
        assert pdf_print.shortest_that_fits(unmarked, len(lines)) == pdf_print.shortest_that_fits(
            lambda n: unmarked(expected), 1)


def test_seven_parts_of_which_four_fit_take_three_layouts():
    made = []
    make = page([2] * 7)
    assert largest_fitting(make, 7) == 4
    pdf = pdf_print.shortest_that_fits(lambda n: (made.append(n), make(n))[1], 7)
    assert made == [7, 4, 5] and pdf == pdf_print.shortest_that_fits(lambda n: make(4), 1)


def test_on_a_weasyprint_it_was_not_checked_with_the_page_is_found_by_halving(monkeypatch):
    from mlperf_report.assemble import page_fit

    monkeypatch.setattr(page_fit, "CHECKED", ())
    made = []
    make = page([2] * 7)
    pdf = pdf_print.shortest_that_fits(lambda n: (made.append(n), make(n))[1], 7)
    assert made == [7, 3, 5, 4] and pdf == pdf_print.shortest_that_fits(lambda n: make(4), 1)
