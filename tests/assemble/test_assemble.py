"""The assembler: what a report shows per language, that it is self-contained, and that a failed
build leaves the previous report untouched. Built on notebooks made by report_fixtures."""

from __future__ import annotations

import base64
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from fontTools.ttLib import TTFont

import report_fixtures as rf
from mlperf_report.assemble import document, pdf_print, report_pools, sections
from mlperf_report.core.errors import InputError, UserError

ROUND = "training-v1.0"
TITLE = "MLPerf Training v1.0 results"


class _Page(HTMLParser):
    """Collects what the checks need from a page: tags with attributes, ids, and visible text."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.ids: set[str] = set()
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag in ("style", "script"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("style", "script"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Both languages assembled once (HTML + PDF) into one output folder."""
    root = tmp_path_factory.mktemp("assemble")
    notebooks = rf.write_notebooks(root / "notebooks")
    written = {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in notebooks}
    out = root / "out"
    reports = {
        lang: document.assemble_report(ROUND, lang, notebooks, rf.NARRATIVE[lang], rf.NOTES[lang], out, TITLE,
                                       "2026-12-02", default_copy=(lang == "en"), cache_dir=root / "fonts")
        for lang in rf.LANGS
    }
    return {"notebooks": notebooks, "out": out, "reports": reports, "root": root, "written": written}


def html_of(built, lang):
    return built["reports"][lang].html_path.read_text(encoding="utf-8")


# --- what the notebook filter keeps ------------------------------------------------------------------


def test_report_notebook_keeps_only_this_languages_outputs_and_no_hidden_cells():
    nb = rf.benchmark_notebook("resnet")
    shown = sections.report_notebook(nb, "zh-Hant")
    sources = "".join(cell.source for cell in shown.cells)
    assert rf.PARAMETER_MARKER not in sources
    outputs = [output for cell in shown.cells if cell.cell_type == "code" for output in cell.outputs]
    assert {output.metadata["mlperf_report"]["lang"] for output in outputs} == {"zh-Hant"}
    assert all(output.output_type != "stream" for output in outputs)
    assert len(nb.cells) == 6 and len(shown.cells) == 4, "the original notebook must not be changed"


def test_outputs_without_a_language_are_shown_in_every_language():
    nb = rf.benchmark_notebook("bert")
    for output in nb.cells[4].outputs:
        output.get("metadata", {}).pop("mlperf_report", None)
    for lang in rf.LANGS:
        section = sections.notebook_section(nb, lang, "bert")
        assert section.html.count("data:image/svg+xml;base64,") == 2


def test_section_title_is_the_benchmark_name_and_the_notebooks_title_block_is_dropped():
    nb = rf.benchmark_notebook("resnet")
    section = sections.notebook_section(nb, "en", "resnet")
    assert section.title == "Image Classification (ResNet-50 v1.5)"
    assert "RESNET results" not in section.html and "Runs scored with the official rules" not in section.html
    nb.cells[2].source = "Just text, no heading."
    assert "Just text, no heading." in sections.notebook_section(nb, "en", "resnet").html
    assert sections.notebook_section(rf.summary_notebook(), "zh-Hant", "summary").title == "總覽"
    other = rf.summary_notebook()
    other.cells.insert(0, nbformat.v4.new_markdown_cell("# Systems by price\n\nFor notebook readers."))
    assert sections.notebook_section(other, "en", "prices").title == "Systems by price"


def test_markdown_cells_are_html_with_headings_below_the_section_title():
    html = sections.notebook_section(rf.benchmark_notebook("ssd"), "zh-Hant", "ssd").html
    assert f"<h3>Time to train</h3>" in html and f"<p>{rf.MARKDOWN_MARKER}: shorter is better.</p>" in html


def test_headings_inside_sections_start_below_the_section_title():
    assert sections.shift_headings("<h1>a</h1><h2 id=x>b</h2>") == "<h3>a</h3><h4 id=x>b</h4>"
    assert sections.shift_headings("<h4>deep</h4>") == "<h4>deep</h4>"


# --- the page -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", rf.LANGS)
def test_page_shows_no_code_no_parameters_no_streams_and_only_its_language(built, lang):
    html = html_of(built, lang)
    other = next(other for other in rf.LANGS if other != lang)
    assert rf.SECRET_CODE not in html
    assert rf.PARAMETER_MARKER not in html
    assert "a warning nobody should read" not in html
    for benchmark in rf.BENCHMARKS:
        assert f"{benchmark}-{lang}-row" in html
        assert f"{benchmark}-{other}-row" not in html
    assert f'<html lang="{lang}">' in html


@pytest.mark.parametrize("lang", rf.LANGS)
def test_every_chart_is_an_inline_svg_image(built, lang):
    page = parse(html_of(built, lang))
    assert not [attrs for tag, attrs in page.tags if tag == "img"]
    charts = [attrs for tag, attrs in page.tags if tag == "svg" and attrs.get("class") == "chart-svg"]
    assert len(charts) == len(rf.BENCHMARKS) + 1
    assert all(attrs["role"] == "img" for attrs in charts)
    charts = {attrs["id"] for tag, attrs in page.tags if tag == "figure"}
    assert {f"sec-{b}-time_to_train" for b in rf.BENCHMARKS} | {"sec-summary-summary"} == charts


@pytest.mark.parametrize("lang", rf.LANGS)
def test_page_is_self_contained(built, lang):
    html = html_of(built, lang)
    page = parse(html)
    assert sections.fetched_urls(html) == []
    assert not [tag for tag, _ in page.tags if tag in ("script", "link", "iframe")]
    assert not re.search(r"require\.js|mathjax|cdn\.", html, re.IGNORECASE)


def test_fetch_check_finds_what_would_be_loaded():
    html = ('<script src="https://cdn.example/require.js"></script><link rel="stylesheet" href="x.css">'
            '<img src="chart.svg"><style>@import "a.css"; b { background: url(//host/i.png) }</style>'
            '<img src="data:image/png;base64,AA"><a href="https://mlcommons.org">results</a>')
    assert sections.fetched_urls(html) == ["https://cdn.example/require.js", "x.css", "chart.svg", "a.css", "//host/i.png"]


def test_a_report_that_would_fetch_something_is_refused(tmp_path):
    """Refused before anything is written: the previous report in the output folder stays as it was."""
    notebooks = rf.write_notebooks(tmp_path / "nb", benchmarks=("resnet",))
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.en.html").write_bytes(b"<p>the previous report</p>")
    with pytest.raises(UserError, match="self-contained"):
        document.assemble_report(ROUND, "en", notebooks, '<p><img src="https://example.com/logo.png"></p>', "",
                                 out, TITLE, "2026-12-02", formats=("html",), cache_dir=tmp_path / "cache")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == {"report.en.html": b"<p>the previous report</p>"}


@pytest.mark.parametrize("lang", rf.LANGS)
def test_contents_lists_every_section_in_order_with_working_anchors(built, lang):
    page = parse(html_of(built, lang))
    links = [attrs["href"][1:] for tag, attrs in page.tags if tag == "a" and attrs.get("href", "").startswith("#")]
    expected = ["sec-highlights"] + [f"sec-{b}" for b in rf.BENCHMARKS] + ["sec-summary", "sec-notes"]
    assert links == expected
    assert set(links) <= page.ids


@pytest.mark.parametrize("lang", rf.LANGS)
def test_narrative_and_notes_are_real_html_text(built, lang):
    text = " ".join(parse(html_of(built, lang)).text)
    narrative_sentence = re.sub(r"<[^>]+>", "\n", rf.NARRATIVE[lang]).split("\n")[3]
    assert narrative_sentence and narrative_sentence in text
    assert "MLCommons" in text
    headline = re.search(r"<h1>(.*?)</h1>", rf.NARRATIVE[lang]).group(1)
    assert f'<h2>{headline}</h2>' in html_of(built, lang), "the narrative's headline becomes its section title"


def test_narrative_tables_scroll_sideways_instead_of_widening_the_page():
    section = sections.fragment_section("<h2>Results</h2><p>x</p><table><tr><td>1</td></tr></table>",
                                               "sec-highlights", "Highlights", "narrative")
    assert section.title == "Results"
    assert section.html == '<p>x</p><div class="table-wrap"><table><tr><td>1</td></tr></table></div>'


def test_cover_shows_title_round_and_date(built):
    text = " ".join(parse(html_of(built, "en")).text)
    assert TITLE in text and "MLPerf Training v1.0" in text and "2026-12-02" in text


def test_inline_font_covers_every_character_of_the_chinese_page(built):
    html = html_of(built, "zh-Hant")
    match = re.search(r'url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\) format\("woff"\)', html)
    assert match, "the page must carry its CJK font inline"
    data = base64.b64decode(match.group(1))
    assert len(data) < 300_000, "a subset, not the 19 MB collection"
    cmap = TTFont(io.BytesIO(data)).getBestCmap()
    visible = "".join(parse(html).text)
    missing = {char for char in visible if not char.isspace() and ord(char) not in cmap}
    assert not missing


def test_default_copies_are_the_first_language(built):
    out = built["out"]
    assert (out / "report.html").read_bytes() == (out / "report.en.html").read_bytes()
    assert (out / "report.pdf").read_bytes() == (out / "report.en.pdf").read_bytes()
    assert built["reports"]["en"].copies == (out / "report.html", out / "report.pdf")


# --- a failed build keeps the previous report -----------------------------------------------------------


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def _broken_pdf(html: str, resources: dict) -> bytes:
    raise RuntimeError("PDF step failed (simulated: disk full)")


def test_failed_pdf_step_keeps_the_previous_html_and_pdf(tmp_path):
    notebooks = rf.write_notebooks(tmp_path / "nb", benchmarks=("resnet",))
    out = tmp_path / "out"
    document.assemble_report(ROUND, "en", notebooks, rf.NARRATIVE["en"], rf.NOTES["en"], out, TITLE, "2026-12-01",
                             default_copy=True, cache_dir=tmp_path)
    before = _snapshot(out)
    assert set(before) == {"report.en.html", "report.en.pdf", "report.html", "report.pdf"}
    with pytest.raises(RuntimeError, match="PDF step failed"):
        document.assemble_report(ROUND, "en", notebooks, rf.NARRATIVE["en"], rf.NOTES["en"], out, TITLE,
                                 "2026-12-02", default_copy=True, cache_dir=tmp_path, pdf_renderer=_broken_pdf)
    assert _snapshot(out) == before, "old report changed or temporary files left behind"


def test_broken_notebook_is_a_clear_error_and_keeps_the_previous_report(tmp_path):
    notebooks = rf.write_notebooks(tmp_path / "nb", benchmarks=("resnet",))
    out = tmp_path / "out"
    document.assemble_report(ROUND, "en", notebooks, rf.NARRATIVE["en"], "", out, TITLE, "2026-12-01",
                             pdf=False, cache_dir=tmp_path)
    before = _snapshot(out)
    notebooks[0].write_text('{"cells": [', encoding="utf-8")
    with pytest.raises(InputError, match=r"resnet\.ipynb: not a readable notebook"):
        document.assemble_report(ROUND, "en", notebooks, rf.NARRATIVE["en"], "", out, TITLE, "2026-12-02",
                                 pdf=False, cache_dir=tmp_path)
    with pytest.raises(InputError, match="not found"):
        document.assemble_report(ROUND, "en", [tmp_path / "missing.ipynb"], "", "", out, TITLE, "2026-12-02",
                                 pdf=False, cache_dir=tmp_path)
    assert _snapshot(out) == before


def test_executed_notebooks_are_read_not_changed(built):
    """Assembling both languages left the executed notebooks (the audit trail) byte for byte as they were."""
    assert {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in built["notebooks"]} == built["written"]


# --- printing never fetches; unchanged pages are not printed twice; languages side by side ---------------


def test_printing_refuses_anything_but_inline_resources():
    from weasyprint.urls import FatalURLFetchingError

    with pytest.raises(FatalURLFetchingError):
        pdf_print.render_pdf('<p>logo</p><img src="http://127.0.0.1:9/logo.png">')
    with pytest.raises(FatalURLFetchingError):
        pdf_print.render_pdf('<link rel="stylesheet" href="file:///etc/hostname"><p>x</p>')
    assert pdf_print.render_pdf('<img src="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMj'
                               'AwMC9zdmciIHdpZHRoPSIxIiBoZWlnaHQ9IjEiLz4=">').startswith(b"%PDF")


def test_an_unchanged_page_reuses_its_pdf_and_a_changed_one_does_not(tmp_path):
    notebooks = rf.write_notebooks(tmp_path / "nb", benchmarks=("resnet",))
    args = (ROUND, "en", notebooks, rf.NARRATIVE["en"], rf.NOTES["en"], tmp_path / "out", TITLE)
    first = document.assemble_report(*args, "2026-12-01", cache_dir=tmp_path / "cache")
    pdf = first.pdf_path.read_bytes()
    again = document.assemble_report(*args, "2026-12-01", cache_dir=tmp_path / "cache")
    assert "pdf_cached" in again.timings and "pdf" not in again.timings
    assert again.pdf_path.read_bytes() == pdf
    changed = document.assemble_report(*args, "2026-12-02", cache_dir=tmp_path / "cache")
    assert "pdf" in changed.timings and changed.pdf_path.read_bytes() != pdf
    assert len(list((tmp_path / "cache" / "pdf").glob("en-*.pdf"))) == 1, "one cached PDF per language"


def test_languages_side_by_side_give_the_same_files_and_the_first_error(tmp_path):
    notebooks = tuple(rf.write_notebooks(tmp_path / "nb", benchmarks=("bert",)))
    requests = [document.ReportRequest(ROUND, lang, notebooks, rf.NARRATIVE[lang], rf.NOTES[lang], tmp_path / lang,
                                       TITLE, "2026-12-02", formats=("html",), cache_dir=tmp_path / "cache")
                for lang in rf.LANGS]
    broken = document.ReportRequest(ROUND, "en", (tmp_path / "missing.ipynb",), "", "", tmp_path / "broken",
                                    TITLE, "2026-12-02", formats=("html",), cache_dir=None)
    with pytest.raises(InputError, match="missing.ipynb"):
        report_pools.assemble_reports([*requests, broken], workers=2)
    assert not (tmp_path / "broken").exists()
    side_by_side = {lang: (tmp_path / lang / f"report.{lang}.html").read_bytes() for lang in rf.LANGS}
    for request, report in zip(requests, report_pools.assemble_reports(requests, workers=1)):
        assert report.html_path.read_bytes() == side_by_side[request.lang]
