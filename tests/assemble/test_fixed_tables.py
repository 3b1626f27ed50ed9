"""Printed tables laid out with columns worked out in Python (``table-layout: fixed``) read as
WeasyPrint's automatic layout lays them out: each column within :data:`TOLERANCE` of the width
WeasyPrint gives it, and no cell's unbreakable text wider than its column.

The tolerance: our widths sum glyph advances without kerning, so a piece of text comes out up to
about 2% wider than Pango sets it; on the real tables that moves a column by at most 1.3 px. 2 px
(0.53 mm, 0.3% of the 176 mm table) is allowed; a wrong break rule moved columns by 5 px or more.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import given, strategies as st

from mlperf_report.analysis.html_tables import to_html
from mlperf_report.assemble import fixed_tables, pdf_print, print_tables
from mlperf_report.assemble.cell_text import pieces
from mlperf_report.assemble.page import brand_faces, page_fonts, render_page
from mlperf_report.assemble.sections import Section
from mlperf_report.core import paths
from mlperf_report.core.brand import NO_BRAND, Brand

TOLERANCE = 2.0  # px
NO_BREAKING = "<style>td, th { overflow-wrap: normal !important; }</style>"  # a piece too wide would stick out


def _table(head: list[str], rows: list[list[str]]) -> str:
    return print_tables.breakable_words(to_html(pd.DataFrame(rows, columns=head)))


def _laid_out(html: str, lang: str, faces, kind: str, brand=NO_BRAND) -> list:
    """WeasyPrint's table boxes of ``html`` printed as a section of the report, once each."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    resources: dict = {}
    page = render_page(lang=lang, title="t", round_title="r", date="d", contents=[], brand=brand,
                       sections=[Section("s", "S", html, kind)], font_faces=faces, resources=resources)
    document = HTML(string=page, url_fetcher=pdf_print._fetcher(resources), media_type="print").render(
        font_config=FontConfiguration())
    found, seen = [], set()

    def walk(box):
        if type(box).__name__ == "TableBox" and id(box.element) not in seen:
            seen.add(id(box.element))
            found.append(box)
        for child in getattr(box, "children", None) or ():
            walk(child)

    for page_ in document.pages:
        walk(page_._page_box)
    return found


def _overflowing(box, cell=None) -> list[str]:
    """The text of every line that sticks out of its cell's content box."""
    kind = type(box).__name__
    cell = box if kind == "TableCellBox" else cell
    if kind == "TextBox" and cell is not None and box.position_x + box.width > cell.content_box_x() + cell.width + 0.01:
        return [box.text]
    return [text for child in getattr(box, "children", None) or () for text in _overflowing(child, cell)]


def assert_faithful(html: str, lang: str, faces, kind: str = "appendix", brand=NO_BRAND) -> int:
    """The fixed layout's columns within TOLERANCE of the automatic one's, nothing overflowing;
    returns how many tables were compared."""
    auto = _laid_out(html, lang, faces, kind, brand)
    fixed_html = fixed_tables.fixed_sections([Section("s", "S", html, kind)], faces, brand)[0].html
    fixed = _laid_out(NO_BREAKING + fixed_html, lang, faces, kind, brand)
    assert len(auto) == len(fixed) == html.count("<table")
    for before, after in zip(auto, fixed):
        assert after.style["table_layout"] == "fixed" and before.style["table_layout"] == "auto"
        assert before.width == pytest.approx(max(fixed_tables.TABLE_WIDTH, sum(before.column_widths)))
        gaps = [abs(a - b) for a, b in zip(before.column_widths, after.column_widths)]
        assert max(gaps) <= TOLERANCE, (before.column_widths, after.column_widths)
        assert _overflowing(after) == []
    return len(auto)


def _faces(text: str, brand=NO_BRAND):
    faces = page_fonts(text, "", None)
    return faces + tuple(brand_faces(brand, text, None, None)) if brand.base_font else faces


SYSTEMS = [["closed", "PCL & PKU", "X660 G45_SXM4-40G_pytorch_" + "b5546912e24e0a864b35924da4efa5d71cfe368b",
            "1024", "NGC MXNet 21.05 , NGC PyTorch 21.05 , NGC TensorFlow 21.05-tf1", "0.65", "5 / 5 / 5",
            "not_converged: 10 of 10 runs failed (10 did not converge)"],
           ["open", "GIGABYTE", "GIGABYTE-G492_ZD2_A100-SXM-80GBx8", "8", "MXNet NVIDIA Release 21.05", "29.17",
            "4 / 5 / 5", "scored"]]
HEAD = ["Division", "Submitter", "System", "Accelerators", "Framework", "Time to train (min)",
        "Runs (converged / found / required)", "Status"]
CHINESE = [["封閉", "戴爾", "NVIDIA DGX A100 × 8", "64", "MXNet NVIDIA Release 21.05", "4.91", "5／5／5", "已計分"],
           ["開放", "浪潮", "NF5488A5", "8", "mxnet 1.8.0", "27.48", "4／5／5", "不完整：找到 1／10 次，其餘未收斂"]]
HEAD_ZH = ["分區", "提交者", "系統", "加速器數量", "框架", "訓練時間（分鐘）", "執行次數（收斂／找到／要求）", "狀態"]


def test_long_system_names_and_frameworks_read_as_the_automatic_layout_sets_them():
    html = _table(HEAD, SYSTEMS * 3)
    assert assert_faithful(html, "en", _faces(html)) == 1


def test_chinese_words_and_short_tables_read_as_the_automatic_layout_sets_them():
    """Chinese breaks between characters but not before "）" or "，", nor inside a ``.nobr`` word; a
    table narrower than the page shares the room left in proportion to its columns' widths."""
    html = _table(HEAD_ZH, CHINESE * 2) + _table(["基準測試", "價格"], [["BERT", "149,995 美元"]])
    assert assert_faithful(html, "zh-Hant", _faces(html)) == 2


def test_a_brand_s_face_sets_the_report_s_tables_and_the_house_face_the_appendix_s():
    """DejaVu Serif (with a bold file of its own) is much wider than the house face: a table measured
    in the wrong face would miss by far more than the tolerance."""
    brand = Brand(name="Serif", base_font="DejaVu Serif")
    html = _table(HEAD, SYSTEMS) + _table(HEAD_ZH, CHINESE)
    faces = _faces(html, brand)
    if len(faces) < 2 or not any(face.family == "DejaVu Serif" for face in faces):
        pytest.skip("DejaVu Serif is not installed")
    assert assert_faithful(html, "en", faces, kind="notebook", brand=brand) == 2
    assert assert_faithful(html, "en", faces, kind="appendix", brand=brand) == 2


def test_a_table_it_cannot_measure_stays_automatic():
    faces = _faces("x")
    fonts = fixed_tables.printed_fonts(faces)
    for html in ('<table class="mlperf-table"><thead><tr><th colspan="2">a</th></tr></thead><tbody></tbody></table>',
                 _table(["a", "b"], [["<b>x</b>", "y"]]).replace("&lt;b&gt;", "<b>").replace("&lt;/b&gt;", "</b>"),
                 _table(["a", "b"], [["\U0001f600", "y"]])):  # a character the page's faces lack
        assert fixed_tables.with_fixed_columns(html, fonts) == html
    assert "table-layout: fixed" in fixed_tables.with_fixed_columns(_table(["a", "b"], [["x", "y"]]), fonts)


def test_a_table_too_wide_for_the_page_widens_past_it_as_the_automatic_layout_does():
    """WeasyPrint gives each column its min-content width and lets the table stick out (a status of
    Training v1.0's Mask R-CNN, "'opt_base_learning_rate'", does so by 3 mm)."""
    html = _table(["a"] * 9, [["NVIDIA-DGX-A100-SXM4-80GB"] * 9])
    assert assert_faithful(html, "en", _faces(html)) == 1


@given(st.lists(st.tuples(st.floats(0, 300), st.floats(0, 300)), min_size=1, max_size=12), st.floats(100, 1000))
def test_the_columns_fill_the_table_and_none_is_narrower_than_its_longest_piece(columns, width):
    mins = [min(a, b) for a, b in columns]
    maxs = [max(a, b) for a, b in columns]
    widths = fixed_tables.distribute(mins, maxs, width)
    if sum(mins) > width:
        assert widths == mins
        return
    assert sum(widths) == pytest.approx(width)
    assert all(w >= m - 1e-6 for w, m in zip(widths, mins))
    if sum(maxs) <= width:
        assert all(w >= m - 1e-6 for w, m in zip(widths, maxs))


@given(st.text(alphabet="ab1 -/（）已計，", max_size=30))
def test_the_pieces_hold_the_cell_s_text(text):
    line, parts = pieces(text, nowrap=False)
    assert "".join(parts).replace(" ", "") == line.replace(" ", "")  # every character in one piece
    assert pieces(text, nowrap=True) == (line, (line,))  # a nowrap cell is one piece


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_the_real_results_tables_read_as_the_automatic_layout_sets_them(lang):
    """Every Training v1.0 benchmark's results table (the exhibits) and the summary's submissions table."""
    data = paths.DATA / "training-v1.0"
    if not (data / "results.csv").is_file():
        pytest.skip("data/training-v1.0 is not ingested")
    from mlperf_report.suites.training import exhibits, summary_tables, tables

    results = exhibits.load_results(round_id="training-v1.0", data_dir=paths.DATA, prices_file=paths.PRICES)
    frames = [tables.results_table(exhibits.entries(results, b), lang=lang) for b in sorted(set(results["benchmark"]))]
    appendix = print_tables.breakable_words("".join(to_html(frame) for frame in frames))
    own = print_tables.breakable_words(to_html(summary_tables.submissions_table(results, lang=lang)))
    faces = _faces(appendix + own)
    assert assert_faithful(appendix, lang, faces) == len(frames) >= 8
    assert assert_faithful(own, lang, faces, kind="notebook") == 1
