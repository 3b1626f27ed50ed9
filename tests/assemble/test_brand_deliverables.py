"""A brand of another colour and a logo reaches every deliverable in both languages: the focus's
colour in every chart (the notebooks' in the HTML, the cards' PNG and SVG), the report's accent and
typefaces, the logo on the report's cover and the brief's header (an image in each PDF), on the deck's
title slide (a picture), in each card's corner (its pixels) and beside each workbook sheet's header (with the faces and the shade); an SVG logo too (rasterised for the
deck and the cards); a changed brand file makes the reports stale. One build of the synthetic v0.7 +
v1.0 tables with every deliverable, shared by the module."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from PIL import Image
from pptx import Presentation
from pypdf import PdfReader

from mlperf_report.core import paths
from mlperf_report.core.brand import Brand
from synthetic_round import write_tree

ROUND = "training-v1.0"
GREEN, GREEN_RGB = "#0a7d2c", (10, 125, 44)
LOGO_RGB = (123, 44, 191)
LANGS = ("en", "zh-Hant")
BRAND = f"""meta: {{name: Acme}}
logo: logo.png
color:
  palette: {{acme-green: "{GREEN}"}}
  primary: acme-green
typography:
  base: DejaVu Serif
  headings: DejaVu Serif
"""
SVG_LOGO = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 80" width="200" height="80">'
            '<rect width="200" height="80" fill="#7b2cbf"/></svg>')


def _report(root: Path, config_file: Path, data: Path, out: str = "out") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "build.py", "report", "--round", ROUND, "--focus", "Graphcore", "--data-dir",
                           str(data), "--output-dir", str(root / out), "--config", str(config_file), "-j", "2"],
                          cwd=paths.ROOT, capture_output=True, text=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("brand")
    data = write_tree(root / "data")
    config = yaml.safe_load(paths.REPORT_CONFIG.read_text(encoding="utf-8"))
    config_file = root / "report.yaml"
    config_file.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    Image.new("RGB", (80, 40), LOGO_RGB).save(root / "logo.png")
    (root / "_brand.yml").write_text(BRAND, encoding="utf-8")  # found beside the configuration
    done = _report(root, config_file, data)
    assert done.returncode == 0, done.stderr[-3000:]
    return root, config_file, data, done.stderr


def _folder(built) -> Path:
    return built[0] / "out" / ROUND


def test_a_good_brand_says_nothing(built):
    assert "brand:" not in built[3]


@pytest.mark.parametrize("lang", LANGS)
def test_the_report_html_carries_the_colour_logo_and_typeface(built, lang):
    html = (_folder(built) / f"report.{lang}.html").read_text(encoding="utf-8")
    assert f"--accent: {GREEN}" in html
    assert html.count(GREEN) > 5 and "#d1495b" not in html  # every notebook chart's focus bars repainted
    assert '<img class="cover-logo" src="data:image/png;base64,' in html
    assert 'font-family: "DejaVu Serif", "Noto Sans CJK TC Subset"' in html  # the CJK face stays the fallback


@pytest.mark.parametrize("lang", LANGS)
def test_the_report_html_embeds_the_brand_face_cut_to_the_page_s_letters(built, lang):
    """A reader without the brand's font sees it: a subset of its files, as the house faces are."""
    import base64
    import re
    import unicodedata

    from fontTools.ttLib import TTFont

    from mlperf_report.core.brand import font_file

    html = (_folder(built) / f"report.{lang}.html").read_text(encoding="utf-8")
    embedded = re.findall(r'font-family: "DejaVu Serif";\s*src: url\(data:font/woff;base64,([^)]+)\) format\("woff"\);'
                          r'\s*font-weight: (\d+)', html)
    assert sorted(weight for _, weight in embedded) == ["400", "700"]  # DejaVu Serif has a bold file of its own
    shown = re.sub(r"<(style|script)\b.*?</\1>|<[^>]+>|data:[^\"')\s]+", " ", html, flags=re.S)
    latin = {ch for ch in shown if unicodedata.category(ch).startswith("L") and ord(ch) < 0x250}
    assert len(latin) > 40 and any(ord(ch) > 0x7F for ch in shown)
    full = TTFont(str(font_file(BRAND_FACE)[0]), lazy=True).getBestCmap()
    for data, weight in embedded:
        font = TTFont(io.BytesIO(base64.b64decode(data)))
        cmap = font.getBestCmap()
        assert font["name"].getDebugName(1) == BRAND_FACE
        assert {ch for ch in latin if ord(ch) in full} <= {chr(c) for c in cmap}, weight
        assert len(cmap) < len(full) / 2  # cut to the page, not the whole font
        assert not any(0x4E00 <= c <= 0x9FFF for c in cmap)  # the Chinese stays the CJK face's


def test_the_secondary_colour_rules_the_headings_and_without_it_the_accent_does():
    from mlperf_report.assemble.page import brand_style

    assert "h2 { border-bottom-color: #123456; }" in brand_style(Brand(primary=GREEN, secondary="#123456"))
    assert "h2" not in brand_style(Brand(primary=GREEN))  # report.css's rule: the accent, as today


def test_the_printed_exhibits_tables_keep_the_house_face_under_a_brand_face():
    from mlperf_report.assemble.page import CJK_FALLBACK, brand_style

    rule = f"@media print {{ .section-appendix table {{ font-family: {CJK_FALLBACK}; }} }}"
    assert rule in brand_style(Brand(base_font="DejaVu Serif"))
    assert "section-appendix" not in brand_style(Brand(primary=GREEN))


@pytest.mark.parametrize("lang", LANGS)
def test_the_branded_exhibits_and_report_keep_every_word_on_the_page(built, lang):
    pdfplumber = pytest.importorskip("pdfplumber")
    for name in (f"exhibits.{lang}.pdf", f"report.{lang}.pdf"):
        with pdfplumber.open(_folder(built) / name) as pdf:
            for page in pdf.pages:
                outside = [w["text"] for w in page.extract_words() if w["x1"] > page.width + 0.5 or w["x0"] < -0.5]
                assert not outside, (name, page.page_number, outside[:5])


def _images(pdf: Path) -> list[str]:
    resources = PdfReader(pdf).pages[0]["/Resources"]
    objects = resources.get("/XObject") or {}
    return [name for name in objects if objects[name].get_object().get("/Subtype") == "/Image"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_report_cover_and_the_brief_show_the_logo_and_set_the_face(built, lang):
    assert _images(_folder(built) / f"exhibits.{lang}.pdf")  # no cover there: the logo at the first page's top
    for name in (f"report.{lang}.pdf", f"brief.{lang}.pdf"):
        page = PdfReader(_folder(built) / name).pages[0]
        assert _images(_folder(built) / name), name  # today's cover and brief have no image
        fonts = {str(f.get_object().get("/BaseFont")) for f in (page["/Resources"].get("/Font") or {}).values()}
        assert any("DejaVu-Serif" in f for f in fonts), fonts
        if lang != "en":
            assert any("Noto-Sans-CJK" in f for f in fonts), fonts  # Chinese never left to a Latin face


@pytest.mark.parametrize("lang", LANGS)
def test_the_deck_has_the_logo_on_its_title_slide_in_the_brand_colour(built, lang):
    deck = Presentation(str(_folder(built) / f"slides.{lang}.pptx"))
    title = deck.slides[0]
    assert [s.name for s in title.shapes if s.shape_type == 13] == ["Brand logo"]
    colours = {str(r.font.color.rgb) for s in title.shapes if s.has_text_frame
               for p in s.text_frame.paragraphs for r in p.runs}
    assert GREEN.lstrip("#").upper() in colours


@pytest.mark.parametrize("lang", LANGS)
def test_the_deck_master_carries_the_logo_for_every_slide_but_the_title(built, lang):
    deck = Presentation(str(_folder(built) / f"slides.{lang}.pptx"))
    logo = (built[0] / "logo.png").read_bytes()
    assert [s.image.blob == logo for s in deck.slide_master.shapes if s.shape_type == 13] == [True]
    assert deck.slides[0].element.get("showMasterSp") == "0"  # the title slide has its own, larger one
    assert len(deck.slides) > 2 and all(slide.element.get("showMasterSp") is None for slide in list(deck.slides)[1:])
    assert not [s for slide in list(deck.slides)[1:] for s in slide.shapes if s.shape_type == 13 and s.name == "Brand logo"]


def _kit(brand, lang: str = "en"):
    from mlperf_report.assemble.kit import Kit, KitClaim

    return Kit(lang, ROUND, "MLPerf Training v1.0", "Title", "2026-12-07", "Acme",
               (KitClaim("Acme leads.", "note", cites=("Acme/results/x/bert",)),), brand=brand)


def test_on_an_unchecked_python_pptx_each_slide_but_the_title_carries_the_logo(built, monkeypatch):
    """The public path of the master's logo (``compat.pptx_master_picture``): the same picture, on the slides."""
    from mlperf_report.assemble.formats import slides
    from mlperf_report.core import compat

    logo = built[0] / "logo.png"
    monkeypatch.setitem(compat.CHECKED, "python-pptx", ("0.0.1", "0.0.2"))
    deck = Presentation(io.BytesIO(slides.deck_bytes(_kit(Brand(primary=GREEN, logo=logo)))))
    assert not [s for s in deck.slide_master.shapes if s.shape_type == 13]
    pictures = [[s.image.blob for s in slide.shapes if s.shape_type == 13 and s.name == "Brand logo"]
                for slide in deck.slides]
    assert len(pictures) == 3 and pictures[1:] == [[logo.read_bytes()]] * 2
    assert pictures[0] == [logo.read_bytes()]  # the title slide's own


def test_without_a_brand_the_deck_master_is_python_pptx_s_own():
    from mlperf_report.assemble.formats import slides
    from mlperf_report.core.brand import NO_BRAND

    made = slides.deck_bytes(_kit(NO_BRAND))
    deck, fresh = Presentation(io.BytesIO(made)), Presentation()
    assert deck.slide_master.part.blob == fresh.slide_master.part.blob
    assert not [s for slide in deck.slides for s in slide.shapes if s.shape_type == 13]
    assert made == slides.deck_bytes(_kit(NO_BRAND))


def _near(pixel, rgb, tolerance: int = 12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], rgb))


@pytest.mark.parametrize("lang", LANGS)
def test_each_card_shows_the_brand_colour_and_the_logo(built, lang):
    pngs = sorted((_folder(built) / "cards").glob(f"*.{lang}.png"))
    assert pngs
    for png in pngs:
        image = Image.open(png).convert("RGB")
        corner = image.getpixel((image.width - 48 - 20, image.height - 48 - 20))  # the logo's box, lower right
        assert _near(corner, LOGO_RGB), (png.name, corner)
        svg = png.with_suffix(".svg").read_text(encoding="utf-8")
        assert "<image" in svg and "#d1495b" not in svg
    charted = [p for p in pngs if GREEN in p.with_suffix(".svg").read_text(encoding="utf-8")]
    assert charted  # the focus's bars
    image = Image.open(charted[0]).convert("RGB")
    assert any(_near(px, GREEN_RGB, 2) for px in image.get_flattened_data())


def test_the_workbook_shades_in_the_brand_colour_sets_the_face_and_shows_the_logo(built):
    import zipfile

    import openpyxl

    data = (_folder(built) / "results.xlsx").read_bytes()
    book = openpyxl.load_workbook(io.BytesIO(data))
    first = book.worksheets[0]
    assert {c.font.name for c in first[1] if c.value} == {"DejaVu Serif"}
    fills = {c.fill.fgColor.rgb for s in book.worksheets for row in s.iter_rows(min_row=2) for c in row
             if c.fill.fill_type == "solid"}
    assert fills == {"00CEE5D5"}                                 # the brand's green, lightened
    members = zipfile.ZipFile(io.BytesIO(data))
    media = [n for n in members.namelist() if n.startswith("xl/media/")]
    assert len(media) == len(book.sheetnames)
    for name in media:
        with Image.open(io.BytesIO(members.read(name))) as picture:
            assert picture.convert("RGB").getpixel((40, 20)) == LOGO_RGB


def test_an_svg_logo_reaches_the_deck_and_the_cards(built, tmp_path):
    """No SVG library: WeasyPrint and pdfium draw it, for the two formats that take pictures only."""
    from mlperf_report.assemble.formats import cards, slides
    from mlperf_report.assemble.kit import Kit, KitClaim

    logo = tmp_path / "logo.svg"
    logo.write_text(SVG_LOGO, encoding="utf-8")
    brand = Brand(primary=GREEN, logo=logo)
    for lang in LANGS:
        kit = Kit(lang, ROUND, "MLPerf Training v1.0", "Title", "2026-12-07", "Acme",
                  (KitClaim("Acme leads.", "note"),), brand=brand)
        deck = Presentation(io.BytesIO(slides.deck_bytes(kit)))
        assert [s.name for s in deck.slides[0].shapes if s.shape_type == 13] == ["Brand logo"]
        png, svg = cards.card(kit.claims[0], kit)
        image = Image.open(io.BytesIO(png)).convert("RGB")
        assert _near(image.getpixel((image.width - 48 - 20, image.height - 48 - 20)), LOGO_RGB)
        assert b"<image" in svg


BRAND_FACE, CJK_FACE = "DejaVu Serif", "Noto Sans CJK TC"


@pytest.mark.parametrize("lang", LANGS)
def test_the_deck_sets_its_text_in_the_brand_face_and_chinese_in_the_cjk_face(built, lang):
    from pptx.oxml.ns import qn

    from mlperf_report.assemble.text_fit import has_cjk

    deck = Presentation(str(_folder(built) / f"slides.{lang}.pptx"))
    runs = [r for slide in deck.slides for s in slide.shapes if s.has_text_frame
            for p in s.text_frame.paragraphs for r in p.runs]
    assert runs and {r.font.name for r in runs} == {BRAND_FACE}  # today: DejaVu Sans or the CJK face
    assert {r._r.rPr.find(qn("a:ea")).get("typeface") for r in runs} == {CJK_FACE}
    assert any(has_cjk(r.text) for r in runs) == (lang != "en")


@pytest.mark.parametrize("lang", LANGS)
def test_each_card_sets_its_text_in_the_brand_face_before_the_house_faces(built, lang):
    for svg in sorted((_folder(built) / "cards").glob(f"*.{lang}.svg")):
        text = svg.read_text(encoding="utf-8")
        assert f"font-family: '{BRAND_FACE}', '{CJK_FACE}', 'DejaVu Sans'" in text, svg.name  # Chinese: the CJK face


def test_the_brand_face_measures_latin_text_and_the_cjk_face_chinese():
    """What the deck and the cards fit their text with: the brand's font file for what it has."""
    from mlperf_report.assemble import text_fit

    latin = "Supermicro AS-4126GS-NBR-LCC"
    assert text_fit.width(latin, 20, cjk=False, latin=BRAND_FACE) > text_fit.width(latin, 20, cjk=False) * 1.02
    assert text_fit.width("本輪領先", 20, cjk=True, latin=BRAND_FACE) == text_fit.width("本輪領先", 20, cjk=True)
    mixed = "Acme 在本輪領先"
    assert text_fit.width(mixed, 20, cjk=True, latin=BRAND_FACE) == pytest.approx(
        text_fit.width("Acme ", 20, cjk=False, latin=BRAND_FACE) + text_fit.width("在本輪領先", 20, cjk=True)
        + text_fit.AUTOSPACE * 20)
    fitted = text_fit.fit(latin * 4, 400, 200, largest=28, smallest=10, latin=BRAND_FACE, bold=True)
    assert all(text_fit.width(line, fitted.size, cjk=False, bold=True, latin=BRAND_FACE) <= 400 * text_fit.SAFETY
               for line in fitted.lines)


def _spied(root: Path, config_file: Path, data: Path, folder: Path, *python: str):
    """A build (``python``: the interpreter's options) whose ``fc-list`` and ``fc-match`` note the
    process that ran them in ``folder/asked`` before they run: (the build, its process id, those ids)."""
    asked = folder / "asked"
    for tool in ("fc-list", "fc-match"):
        spy = folder / tool
        spy.write_text(f'#!/bin/sh\necho "$PPID" >> {asked}\nexec {shutil.which(tool)} "$@"\n')
        spy.chmod(0o755)
    asked.unlink(missing_ok=True)
    command = [sys.executable, *python, "build.py", "report", "--round", ROUND, "--focus", "Graphcore", "--data-dir",
               str(data), "--output-dir", str(root / "out"), "--config", str(config_file), "-j", "2"]
    env = {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}
    with subprocess.Popen(command, cwd=paths.ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        out, err = process.communicate()
    done = subprocess.CompletedProcess(command, process.returncode, out, err)
    return done, process.pid, (asked.read_text().split() if asked.exists() else [])


@pytest.mark.skipif(not (shutil.which("fc-list") and shutil.which("fc-match")), reason="no fontconfig tools")
def test_a_changed_logo_makes_the_reports_stale_and_an_unchanged_brand_costs_no_reading(built, tmp_path):
    """The stamp covers the brand file and its logo (the HTML alone here, for a cheap rebuild; last in
    the module: it rebuilds the module's report). Fontconfig is asked by the build's own process only
    (the assembling processes take the fonts it resolved), and an up-to-date build neither imports
    brand_yml nor asks fontconfig (the brand's files come from the cache its first reading left)."""
    root, config_file, data, _ = built
    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    html_only = root / "html-only.yaml"
    html_only.write_text(yaml.safe_dump({**config, "deliverables": ["html"], "brand": "_brand.yml"}), encoding="utf-8")
    runs = []
    for _ in range(2):
        runs.append(_spied(root, html_only, data, tmp_path))
        Image.new("RGB", (80, 40), (0, 0, 0)).save(root / "logo.png")
    runs.append(_spied(root, html_only, data, tmp_path, "-X", "importtime"))
    assert [("reports: up to date" in r.stderr, r.returncode) for r, _, _ in runs] == [(False, 0), (False, 0), (True, 0)], \
        runs[-1][0].stderr[-2000:]
    for done, pid, asked in runs[:2]:
        assert set(asked) <= {str(pid)}, (pid, asked)  # no assembling process runs fc-match
    last = runs[-1][0]
    imported = {line.rpartition("|")[2].strip() for line in last.stderr.splitlines() if line.startswith("import time:")}
    assert "mlperf_report.core.brand" in imported and not {m for m in imported if m.startswith("brand_yml")}
    assert runs[-1][2] == []
