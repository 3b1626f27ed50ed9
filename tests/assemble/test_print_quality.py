"""Reports as printed, measured from the PDFs' own text (``print_check``): no overlapping words, no
type under 6 pt, nothing off the page, the main report within 30 pages, and beside it the exhibits'
PDF and the results workbook with every result; the press kit: each deck drawn by LibreOffice with no
overlap, nothing off a slide or out of its box and no type under 10 pt, a one-page brief, chart
cards of 1200 × 675 with their citation as text.

Three builds: the default report (MLPerf Training v1.0, Graphcore) in both languages, a crowded
focus of a current round (Training v4.1, NVIDIA: results at nine sizes on seven benchmarks, from the
embedded data/), and a synthetic round with 80 systems of 100-character names on one benchmark
(today's largest rounds, with room to spare).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pandas as pd
import pytest
from pypdf import PdfReader

from mlperf_report.analysis import chart_rows
from mlperf_report.core import paths
from mlperf_report.i18n import formatting
from print_check import check_pdf
from synthetic_round import write_crowded_round

LANGS = ("en", "zh-Hant")
MAX_PAGES = 30


def build(out, *args: str) -> None:
    done = subprocess.run([sys.executable, "build.py", "report", "--output-dir", str(out), *args], cwd=paths.ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture(scope="module")
def default_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("default")
    build(out)
    return out / "training-v1.0", paths.DATA / "training-v1.0"


@pytest.fixture(scope="module")
def crowded_focus(tmp_path_factory):
    out = tmp_path_factory.mktemp("v41")
    build(out, "--round", "training-v4.1", "--focus", "NVIDIA")
    return out / "training-v4.1", paths.DATA / "training-v4.1"


@pytest.fixture(scope="module")
def crowded_round(tmp_path_factory):
    data = write_crowded_round(tmp_path_factory.mktemp("data"))
    out = tmp_path_factory.mktemp("crowded")
    build(out, "--round", "training-v5.1", "--focus", "NVIDIA", "--data-dir", str(data))
    return out / "training-v5.1", data / "training-v5.1"


REPORTS = ["default_report", "crowded_focus", "crowded_round"]


@pytest.mark.parametrize("which", REPORTS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_printed_page_reads_on_paper(which, lang, request):
    folder, _ = request.getfixturevalue(which)
    for name in (f"report.{lang}.pdf", f"exhibits.{lang}.pdf"):
        measured = check_pdf(folder / name)
        assert measured.clean, f"{name}: {measured}"


@pytest.mark.parametrize("which", REPORTS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_main_report_fits_in_thirty_pages_and_ends_with_its_notes(which, lang, request):
    folder, _ = request.getfixturevalue(which)
    report = PdfReader(folder / f"report.{lang}.pdf")
    assert len(report.pages) <= MAX_PAGES
    outline = [entry.title for entry in report.outline if not isinstance(entry, list)]
    assert outline[-1] in ("Notes and citations", "附註與引用")


@pytest.mark.parametrize("which", REPORTS)
def test_the_exhibits_and_the_workbook_hold_every_scored_result(which, request):
    folder, tables = request.getfixturevalue(which)
    results = pd.read_csv(tables / "results.csv")
    scored = results[results["status"] == "ok"]
    text = " ".join(page.extract_text() for page in PdfReader(folder / "exhibits.en.pdf").pages)
    printed = [formatting.minutes(m, places=formatting.TABLE_PLACES) for m in scored["score_min"]]  # half up
    missing = [m for m in printed if m not in text]
    assert not missing, f"{len(missing)} scored times not in the exhibits: {missing[:5]}"
    book = pd.read_excel(folder / "results.xlsx", sheet_name=None)
    assert set(book) == set(results["benchmark"])
    for benchmark, sheet in book.items():
        rows = results[results["benchmark"] == benchmark]
        assert len(sheet) == len(rows)
        assert sorted(sheet["Time to train (minutes)"].dropna()) == pytest.approx(sorted(rows["score_min"].dropna()))
        assert pd.api.types.is_float_dtype(sheet["Time to train (minutes)"])  # numbers, not text


def test_the_report_links_the_files_beside_it(default_report):
    folder, _ = default_report
    html = (folder / "report.en.html").read_text(encoding="utf-8")
    assert 'href="exhibits.en.pdf"' in html and 'href="results.xlsx"' in html and 'id="sec-exhibits"' in html
    contents = PdfReader(folder / "report.en.pdf").pages[1]
    links = {annot.get_object().get("/A", {}).get("/URI") for annot in contents.get("/Annots")}
    assert {"exhibits.en.pdf", "results.xlsx"} <= links


def test_a_crowded_chart_says_how_many_results_it_leaves_out(crowded_round):
    folder, _ = crowded_round
    text = PdfReader(folder / "report.en.pdf").pages
    said = " ".join(page.extract_text() for page in text)
    assert f"and {80 - chart_rows.MAX_BARS} more results, all in the exhibits" in said  # 80 on llama2_70b_lora


# --- the press kit: the deck drawn by LibreOffice, the brief, the chart cards ---------------------------

SOFFICE = shutil.which("soffice")


@pytest.fixture(scope="module")
def decks(default_report, crowded_focus, crowded_round, tmp_path_factory):
    """Every deck of the three builds, drawn to PDF by LibreOffice headless (one run for all six)."""
    if SOFFICE is None:
        pytest.skip("LibreOffice (soffice) not installed: `make test` installs libreoffice-impress")
    out = tmp_path_factory.mktemp("decks")
    sources = {}
    for which, (folder, _) in (("default", default_report), ("v41", crowded_focus), ("crowded", crowded_round)):
        for lang in LANGS:
            copy = out / f"{which}.{lang}.pptx"
            shutil.copyfile(folder / f"slides.{lang}.pptx", copy)
            sources[copy] = copy.with_suffix(".pdf")
    done = subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation=file://{out / 'profile'}", "--convert-to",
                           "pdf", "--outdir", str(out), *map(str, sources)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and all(pdf.exists() for pdf in sources.values()), done.stderr
    return sources


def test_every_deck_draws_with_no_overlap_nothing_off_its_slide_and_type_of_ten_points(decks):
    for deck, pdf in decks.items():
        measured = check_pdf(pdf, min_pt=10)
        assert measured.clean, f"{deck.name}: {measured}"


def test_every_word_of_a_deck_stays_in_its_box_and_off_the_charts(decks):
    """Each word LibreOffice drew lies in a text box of its slide, and in no picture: a title set too
    large for its box would run into the chart under it (the print check sees no picture)."""
    import pdfplumber
    from pptx import Presentation

    for deck, pdf in decks.items():
        slides = Presentation(str(deck)).slides
        with pdfplumber.open(str(pdf)) as drawn:
            assert len(drawn.pages) == len(slides)
            for page, slide in zip(drawn.pages, slides):
                scale = page.width / (Presentation(str(deck)).slide_width / 12700)
                boxes = [(s.left / 12700 * scale, s.top / 12700 * scale, (s.left + s.width) / 12700 * scale,
                          (s.top + s.height) / 12700 * scale, s.shape_type == 13) for s in slide.shapes]
                for word in page.extract_words():
                    inside = [b for b in boxes if b[0] - 2 <= word["x0"] and word["x1"] <= b[2] + 2
                              and b[1] - 2 <= word["top"] and word["bottom"] <= b[3] + 2]
                    assert inside and not any(b[4] for b in inside), f"{deck.name} p{page.page_number}: {word['text']!r}"


@pytest.mark.parametrize("which", REPORTS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_brief_is_one_clean_page_citing_the_headline_s_results(which, lang, request):
    folder, _ = request.getfixturevalue(which)
    brief = folder / f"brief.{lang}.pdf"
    measured = check_pdf(brief)
    assert measured.pages == 1 and measured.clean, f"{brief.name}: {measured}"
    story = json.loads((folder / "figures" / "summary.json").read_text())["story"]
    text = PdfReader(brief).pages[0].extract_text().replace("\n", "")
    assert story["headline"]["cites"][0] in text and "MLCommons" in text


@pytest.mark.parametrize("which", REPORTS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_chart_card_is_1200_by_675_with_its_citation_as_text(which, lang, request):
    from PIL import Image

    folder, _ = request.getfixturevalue(which)
    made = json.loads((folder / "deliverables.json").read_text())[lang]["cards"]
    story = json.loads((folder / "figures" / "summary.json").read_text())["story"]
    claims = [c for c in (story["headline"], *story["highlights"]) if c["cites"]]  # a claim citing nothing: no card
    assert len(made) == 2 * len(claims)
    for claim, png, svg in zip(claims, made[0::2], made[1::2]):
        assert Image.open(folder / png).size == (1200, 675)
        text = (folder / svg).read_text(encoding="utf-8")
        assert "MLCommons" in text and all(cite in text for cite in claim["cites"][:1])
