"""The printed report: A4 pages, contents with the right page numbers, running header and "n / N"
footer, every chart drawn and never clipped, and Chinese set in an embedded CJK font whose text
extracts as the Chinese it is. Built on fixture notebooks (report_fixtures), with one chart wider
and one taller than an A4 page."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader

import report_fixtures as rf
from mlperf_report.suites.training import rounds

SIZES = {"resnet": (14.0, 3.6), "bert": (6.4, 14.0)}
SECTIONS = 2 + len(rf.BENCHMARKS) + 1  # narrative, benchmarks, summary, notes
PAGES = 2 + SECTIONS  # cover, contents, at most a page per section (the benchmarks follow one another)
BAR_RGB = tuple(int(rf.BAR_COLOR[i:i + 2], 16) for i in (1, 3, 5))  # the fixture charts' bar colour


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    return rf.build_reports(tmp_path_factory.mktemp("pdf"), sizes=SIZES)


@pytest.fixture(scope="module")
def readers(reports):
    return {lang: PdfReader(str(report.pdf_path)) for lang, report in reports.items()}


def page_texts(reader: PdfReader) -> list[str]:
    return [page.extract_text() or "" for page in reader.pages]


@pytest.mark.parametrize("lang", rf.LANGS)
def test_a4_pages_the_benchmarks_one_after_another(readers, lang):
    reader = readers[lang]
    assert len(reader.pages) <= PAGES
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(width), round(height)) == (595, 842)


@pytest.mark.parametrize("lang", rf.LANGS)
def test_contents_lists_every_section_with_the_page_it_starts_on(readers, lang):
    texts = page_texts(readers[lang])
    contents = texts[1]
    entries = re.findall(r"^(.+?)\s*\.{3,}\s*(\d+)\s*$", contents, re.MULTILINE)
    assert len(entries) == SECTIONS, contents
    for benchmark in rf.BENCHMARKS:
        assert any(title.strip() == rounds.benchmark_title(benchmark, "training-v1.0", lang) for title, _ in entries), contents
    for title, number in entries:
        started = texts[int(number) - 1]
        assert title.strip() in started, f"contents says {title!r} starts on page {number}"


@pytest.mark.parametrize("lang", rf.LANGS)
def test_running_header_with_the_round_and_n_of_n_footer(readers, lang):
    texts = page_texts(readers[lang])
    assert f"1 / {PAGES}" not in texts[0], "the cover has no footer"
    for number, text in enumerate(texts[1:], start=2):
        assert "MLPerf Training v1.0" in text
        assert f"{number} / {PAGES}" in text


@pytest.mark.parametrize("lang", rf.LANGS)
def test_bookmarks_name_every_section(readers, lang):
    titles = [item.title for item in readers[lang].outline if not isinstance(item, list)]
    expected = [rounds.benchmark_title(b, "training-v1.0", lang) for b in rf.BENCHMARKS]
    assert [t for t in titles if t in expected] == expected
    assert len(titles) == 1 + SECTIONS  # the cover's title, then each section


@pytest.mark.parametrize("lang", rf.LANGS)
def test_every_chart_is_placed_on_its_sections_page_or_the_next(readers, lang):
    """Benchmarks follow one another on the page: a chart too tall for what is left of its section's
    first page starts the next one, never later, and a section's title is never left alone at the
    foot of a page (the text under it comes on the same page)."""
    reader = readers[lang]
    destinations = reader.named_destinations
    texts = page_texts(reader)
    for benchmark in rf.BENCHMARKS:
        chart = reader.get_destination_page_number(destinations[f"sec-{benchmark}-time_to_train"])
        section = reader.get_destination_page_number(destinations[f"sec-{benchmark}"])
        assert chart - section in (0, 1)
        title = rounds.benchmark_title(benchmark, "training-v1.0", lang)
        after = texts[section].split(title, 1)[1]
        assert rf.MARKDOWN_MARKER in after, f"{title!r} ends page {section + 1}"
    assert "sec-summary-summary" in destinations


def test_charts_fit_the_page_even_when_drawn_wider_or_taller_than_a4(reports):
    """Layout check: every image box lies inside its page's content area (nothing clipped)."""
    from weasyprint import HTML
    from weasyprint.formatting_structure import boxes

    html = reports["en"].html_path.read_text(encoding="utf-8")
    document = HTML(string=html, media_type="print").render()
    images = 0
    for page in document.pages:
        box = page._page_box
        left, top = box.content_box_x(), box.content_box_y()
        right, bottom = left + box.width, top + box.height
        for child in box.descendants():
            if isinstance(child, boxes.ReplacedBox):
                images += 1
                x, y = child.border_box_x(), child.border_box_y()
                assert left - 0.5 <= x and x + child.border_width() <= right + 0.5, child.element.get("alt")
                assert top - 0.5 <= y and y + child.border_height() <= bottom + 0.5, child.element.get("alt")
                assert child.border_width() > 100 and child.border_height() > 100
    assert images == len(rf.BENCHMARKS) + 1


def _fonts(reader: PdfReader) -> dict[str, bool]:
    """Base font name -> embedded (has a font file), over every page."""
    found = {}
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor else {}
            embedded = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(font["/BaseFont"])] = embedded
    return found


def test_chinese_pdf_embeds_a_cjk_font_and_its_text_extracts_as_chinese(readers):
    reader = readers["zh-Hant"]
    fonts = _fonts(reader)
    assert fonts and all(fonts.values()), f"every font must be embedded: {fonts}"
    assert any("CJK" in name for name in fonts), fonts
    texts = page_texts(reader)
    assert "目錄" in texts[1]
    narrative = texts[2]
    assert "我們首次提交的 MLPerf 訓練結果" in narrative
    assert "每美元效能為基準系統的 1.6 倍" in narrative
    assert "\ufffd" not in "".join(texts) and "□" not in "".join(texts)
    assert "MLCommons 協會的商標" in texts[-1]


def _rendered(pdf, first: int, last: int, prefix: str, folder):
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm not installed (Debian poppler-utils; `make system-deps` installs it)")
    subprocess.run(["pdftoppm", "-r", "40", "-png", "-f", str(first), "-l", str(last), str(pdf),
                    str(folder / prefix)], check=True, timeout=60)
    return sorted(folder.glob(f"{prefix}-*.png"))


@pytest.mark.parametrize("lang", rf.LANGS)
def test_rendered_pages_show_each_chart_and_nothing_on_text_pages(reports, lang, tmp_path):
    import numpy as np
    from PIL import Image

    pngs = _rendered(reports[lang].pdf_path, 1, PAGES, f"pdf-{lang}", tmp_path)
    assert len(pngs) == PAGES

    def bar_pixels(png):
        pixels = np.asarray(Image.open(png).convert("RGB"), dtype=int)
        return int((np.abs(pixels - BAR_RGB) < 24).all(axis=-1).sum())

    counts = [bar_pixels(png) for png in pngs]
    chart_pages = range(3, 3 + len(rf.BENCHMARKS) + 1)  # 0-based: the benchmark pages and the summary
    for index, count in enumerate(counts):
        if index in chart_pages:
            assert count > 500, f"page {index + 1}: no chart drawn"
        else:
            assert count < 50, f"page {index + 1}: unexpected chart colour"


def test_the_same_page_prints_to_the_same_bytes_a_year_later(monkeypatch):
    """Nothing printed may depend on the clock (fontTools, for one, stamps the font subsets it saves
    with it): the second print runs with the clock a year ahead (no waiting), the bytes must not change."""
    import time

    from mlperf_report.assemble.document import render_pdf

    page = "<html><body><h1>MLPerf Training v1.0</h1><p>ResNet-50: 14.5 minutes, 訓練時間</p></body></html>"
    first = render_pdf(page)
    monkeypatch.setattr(time, "time", lambda real=time.time: real() + 366 * 86400)
    assert render_pdf(page) == first
