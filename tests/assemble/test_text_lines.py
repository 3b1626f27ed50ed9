"""The page's text broken into lines once per text, style and width while a page prints: the same
PDF bytes as WeasyPrint breaking every line on its own, on pages that repeat the same words in other
styles, widths, table cells, balanced columns and a cut-off (ellipsis) line."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlperf_report.assemble import pdf_print, text_lines

_WORDS = ("closed", "scored", "10 / 10 / 10", "NVIDIA DGX A100", "已計分", "封閉", "21.69",
          "PyTorch NVIDIA Release 21.05", "training-v1.0/closed/NVIDIA/dgxa100_ngc21.05_mxnet/resnet")


def _printed(html: str, remembered: bool) -> tuple[bytes, dict]:
    """The page printed with the report's settings, lines broken once (``remembered``) or as
    WeasyPrint breaks them on its own; also the memo."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    with pdf_print._fixed_font_timestamps(), (text_lines.remembered() if remembered
                                              else contextlib.nullcontext({})) as memo:
        pdf = HTML(string=html, media_type="print").write_pdf(font_config=FontConfiguration(), optimize_images=False)
    return pdf, dict(memo)


def _page(body: str) -> str:
    return f"<html><head><style>@page {{ size: A5; margin: 10mm }} body {{ font-size: 9pt }}</style></head><body>{body}</body></html>"


_REPEATS = _page(
    # one text at several widths, in bold, at a line's start and after other words
    "".join(f'<div style="width: {w}mm">{_WORDS[7]} {_WORDS[8]}</div>' for w in (20, 35, 80))
    + f"<p><b>{_WORDS[7]}</b> and {_WORDS[7]}</p>"
    # a cut-off line (WeasyPrint sets its layout up again to draw it with an ellipsis)
    + f'<div style="width: 25mm; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">{_WORDS[7]}</div>'
    + f"<div style='white-space: nowrap'>{_WORDS[7]}</div>"
    # an auto-layout table of repeated cells, and two balanced columns
    + "<table>" + "".join(f"<tr><td>{_WORDS[0]}</td><td>{_WORDS[4]}</td><td>{_WORDS[2]}</td><td>{_WORDS[6]}</td></tr>"
                          for _ in range(12)) + "</table>"
    + "<div style='columns: 2'>" + "".join(f"<p>{i} {_WORDS[8]} {_WORDS[7]}</p>" for i in range(14)) + "</div>")


def test_a_page_prints_to_the_same_bytes_with_each_line_broken_once(monkeypatch):
    from weasyprint.layout import inline

    asked = []
    original = inline.split_first_line

    def counted(text, *args, **kwargs):
        asked.append(text)
        return original(text, *args, **kwargs)

    monkeypatch.setattr(inline, "split_first_line", counted)
    alone, _ = _printed(_REPEATS, False)
    questions, asked[:] = len(asked), []
    remembered, memo = _printed(_REPEATS, True)
    assert remembered == alone
    assert len(asked) == len(memo)  # each answer worked out once ...
    assert len(memo) < questions / 2  # ... where WeasyPrint alone worked out most of them again
    assert _WORDS[0] in {key[0] for key in memo}
    monkeypatch.undo()
    assert pdf_print.render_pdf(_REPEATS) == alone  # the report's printing breaks lines so


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_WORDS), st.integers(8, 60),
                          st.sampled_from(("", "font-weight: bold", "font-size: 7pt", "white-space: nowrap",
                                           "overflow-wrap: anywhere", "text-align: justify"))),
                min_size=1, max_size=8))
def test_any_page_of_repeated_words_prints_to_the_same_bytes(blocks):
    body = "".join(f'<div style="width: {w}mm; {style}">{a} {b} {a}</div>'
                   f"<table><tr><td>{a}</td><td style='{style}'>{b}</td></tr><tr><td>{b}</td><td>{a}</td></tr></table>"
                   for a, b, w, style in blocks)
    html = _page(body)
    assert _printed(html, True)[0] == _printed(html, False)[0]


def test_another_weasyprint_version_prints_without_it(monkeypatch):
    import weasyprint
    from weasyprint.layout import inline, preferred

    originals = inline.split_first_line, preferred.split_first_line
    monkeypatch.setattr(weasyprint, "__version__", "0.0-unchecked")
    with text_lines.remembered() as memo:
        assert (inline.split_first_line, preferred.split_first_line) == originals
    assert memo == {}


def test_line_breaking_is_given_back_after_a_print_even_a_failed_one():
    from weasyprint.layout import inline, preferred

    originals = inline.split_first_line, preferred.split_first_line
    with pytest.raises(RuntimeError), text_lines.remembered():
        assert inline.split_first_line is not originals[0]
        raise RuntimeError("the page failed")
    assert (inline.split_first_line, preferred.split_first_line) == originals
