"""Chart labels printed as one run of text each: one text draw per plain label where WeasyPrint drew
one per letter, starting where WeasyPrint's first letter started, the same text for a reader; a label
whose letters are placed one by one is drawn as before; on an unchecked WeasyPrint nothing changes."""

from __future__ import annotations

import contextlib
import io

import pypdf
import pytest
from hypothesis import given, strategies as st

from mlperf_report.assemble import chart_letters, pdf_print, svg_runs

_LABELS = ("Time to train (minutes)", "Office AVTy 10 20 50")
_CHART = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120" viewBox="0 0 300 120">'
    f'<text x="10" y="20" font-family="DejaVu Sans" font-size="12">{_LABELS[0]}</text>'
    f'<text x="150" y="40" font-family="DejaVu Sans" font-size="12" text-anchor="middle">{_LABELS[1]}</text>'
    '<g transform="translate(10 100) rotate(-90)"><text font-family="DejaVu Sans" font-size="9">10</text></g>'
    '<text x="10 20 30" y="60" font-family="DejaVu Sans" font-size="9">abc</text>'
    "</svg>"
)
_PAGE = f"<html><body><p>Training times.</p>{_CHART}</body></html>"


def _letter_by_letter(html: str) -> bytes:
    """The page as WeasyPrint prints SVG text on its own (letters measured once, as the report does)."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    with pdf_print._fixed_font_timestamps(), chart_letters.remembered():
        return HTML(string=html, media_type="print").write_pdf(font_config=FontConfiguration(), optimize_images=False)


def _draws(pdf: bytes) -> list[tuple[tuple[float, ...], int]]:
    """Each text draw of the page and its charts (form XObjects too): (the text matrix it starts at,
    its glyph count), in drawing order."""
    page = pypdf.PdfReader(io.BytesIO(pdf)).pages[0]
    streams = [page.get_contents()]
    streams += [x.get_object() for x in page["/Resources"].get("/XObject", {}).values()]
    draws = []
    for stream in streams:
        matrix = None
        for operands, operator in pypdf.generic.ContentStream(stream, None).operations:
            if operator == b"Tm":
                matrix = tuple(round(float(v), 2) for v in operands)
            elif operator == b"TJ":
                runs = [getattr(part, "original_bytes", part) for part in operands[0]]
                draws.append((matrix, sum(len(run) // 2 for run in runs if isinstance(run, bytes))))  # 2-byte glyph ids
    return draws


def test_a_plain_label_is_one_text_draw_where_weasyprint_drew_a_letter_each():
    whole, letters = _draws(pdf_print.render_pdf(_PAGE)), _draws(_letter_by_letter(_PAGE))
    per_letter = 1 + sum(len(label.replace(" ", "")) for label in _LABELS) + 2 + 3  # the paragraph, "10", "abc"; no space drawn
    assert len(letters) == per_letter
    assert len(whole) == 1 + len(_LABELS) + 1 + 3  # one per plain label, "abc" still letter by letter
    assert whole[1][0] == letters[1][0]  # the first label starts where WeasyPrint's first letter did
    abc = lambda draws: [draw for draw in draws if draw[0][5] == 60.0]  # noqa: E731  (the row of "abc")
    assert len(abc(whole)) == 3 and abc(whole) == abc(letters)  # letter by letter, as before
    spaces = sum(label.count(" ") for label in _LABELS)  # drawn inside a run, never alone
    assert 0 < sum(glyphs for _, glyphs in whole) <= sum(glyphs for _, glyphs in letters) + spaces  # ligatures: fewer


def test_a_reader_gets_the_same_text():
    def text(pdf: bytes) -> str:
        return "".join(pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())

    assert text(pdf_print.render_pdf(_PAGE)) == text(_letter_by_letter(_PAGE))


@given(st.sampled_from(["dx", "dy", "rotate", "letter-spacing", "textLength", "lengthAdjust"]),
       st.text(alphabet="abc 10", min_size=1, max_size=6))
def test_only_a_label_with_one_place_and_nothing_per_letter_is_plain(attribute, label):
    assert svg_runs.plain("text", label, 0, {"x": "1", "y": "2"})
    assert not svg_runs.plain("text", label, 0, {"x": "1", "y": "2", attribute: "1"})
    assert not svg_runs.plain("text", label, 0, {"x": "1 2", "y": "2"})
    assert not svg_runs.plain("text", label, 1, {})          # a tspan inside
    assert not svg_runs.plain("tspan", label, 0, {})
    assert not svg_runs.plain("text", "", 0, {}) and not svg_runs.plain("text", None, 0, {})


def test_another_weasyprint_version_prints_letter_by_letter(monkeypatch):
    import weasyprint

    monkeypatch.setattr(weasyprint, "__version__", "0.0-unchecked")
    assert pdf_print.render_pdf(_PAGE) == _letter_by_letter(_PAGE)


def test_the_svg_code_is_given_back_after_a_print_even_a_failed_one():
    from weasyprint import svg

    original, tags = svg.text, dict(svg.TAGS)
    with pytest.raises(RuntimeError), svg_runs.whole_labels():
        assert svg.text is not original and svg.TAGS["text"] is svg.text
        raise RuntimeError("the page failed")
    assert svg.text is original and svg.TAGS == tags
    with contextlib.suppress(RuntimeError):  # nothing of the label's element is left changed either
        pdf_print.render_pdf(_PAGE)
    assert svg.text is original
