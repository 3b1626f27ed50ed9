"""A Training report whose results table carries MLCommons result IDs cites them everywhere a result is
cited: the HTML footnotes, the PDF, the slides' footers and speaker notes, the brief, each card's SVG
and PNG, in both languages; ``source.result_ids`` fills a result the table gives no ID, and where it
gives another ID than the table's, the table's is cited and ``report`` says so once. One build (the
synthetic v0.7 + v1.0 tables, Graphcore, every deliverable), shared by the module."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from pypdf import PdfReader

from mlperf_report.core import paths
from mlperf_report.core.config import load_config
from synthetic_round import write_tree

ROUND = "training-v1.0"
FROM_MAP = "1.0-1100"       # ipu-pod16-TF1: not in the table, given by source.result_ids
OVERRIDDEN = "1.0-1999"     # ipu-pod64-TF1: source.result_ids disagrees with the table; the table's is cited


def _ids(table: pd.DataFrame) -> list[str]:
    """One ID per system row (as MLCommons numbers them), none for ipu-pod16-TF1."""
    systems = sorted(set(zip(table["division"], table["submitter"], table["system_id"])))
    number = {s: f"1.0-{1001 + i:04d}" for i, s in enumerate(systems)}
    return ["" if i == "ipu-pod16-TF1" else number[(d, s, i)]
            for d, s, i in zip(table["division"], table["submitter"], table["system_id"])]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("cited")
    data = write_tree(root / "data")
    path = data / ROUND / "results.csv"
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    table["mlcommons_id"] = _ids(table)
    table.to_csv(path, index=False)
    ids = dict(zip(table["system_id"], table["mlcommons_id"]))
    config = yaml.safe_load(paths.REPORT_CONFIG.read_text(encoding="utf-8"))
    config["source"]["result_ids"] = {"Graphcore/ipu-pod16-TF1": FROM_MAP, "Graphcore/ipu-pod64-TF1": OVERRIDDEN}
    config_file = root / "report.yaml"
    config_file.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    out = root / "out"
    done = subprocess.run([sys.executable, "build.py", "report", "--round", ROUND, "--focus", "Graphcore", "--data-dir",
                           str(data), "--output-dir", str(out), "--config", str(config_file), "-j", "2"],
                          cwd=paths.ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return out / ROUND, ids, done.stderr, config_file


def _story(folder: Path) -> dict:
    return json.loads((folder / "figures" / "summary.json").read_text(encoding="utf-8"))["story"]


def _headline_ids(folder: Path) -> list[str]:
    """The IDs the table gives the headline's results (the map's are added when it is worded)."""
    headline = _story(folder)["headline"]
    return [headline["cite_ids"][c] for c in headline["cites"] if c in headline["cite_ids"]]


def test_summary_json_maps_each_cited_result_to_its_id(built):
    folder, ids, _, _ = built
    headline = _story(folder)["headline"]
    assert headline["cite_ids"] and all(ids[c.split("/")[3]] == i for c, i in headline["cite_ids"].items())


def test_the_html_footnotes_cite_the_ids_in_both_languages(built):
    folder, ids, _, _ = built
    en = (folder / "report.en.html").read_text(encoding="utf-8")
    zh = (folder / "report.zh-Hant.html").read_text(encoding="utf-8")
    first = _headline_ids(folder)[0]
    assert re.search(rf"MLPerf® Training v1\.0, closed division, [^;<]*?, result IDs? [^<]*{re.escape(first)}", en)
    assert re.search(rf"MLPerf® Training v1\.0，封閉組，[^<]*成績編號 [^<]*{re.escape(first)}", zh)
    assert "Retrieved from https://github.com/mlcommons/training_results_v1.0 on 30 June 2021." in en
    # the result notes: the table's ID first, the configured map fills a gap
    assert f"result ID {ids['ipu-pod64-TF1']}." in en and OVERRIDDEN not in en
    assert f"result ID {FROM_MAP}." in en and f"成績編號 {FROM_MAP}。" in zh
    assert f"result IDs {FROM_MAP}, " in en  # and the story's notes


def test_report_says_once_where_the_configured_id_differs_and_no_hint_when_every_id_is_there(built):
    _, ids, stderr, _ = built
    warning = (f"citations: report.yaml source.result_ids gives {OVERRIDDEN} for Graphcore/ipu-pod64-TF1; the results "
               f"table of {ROUND} has {ids['ipu-pod64-TF1']}, which is cited")
    assert stderr.count(warning) == 1
    assert "has no MLCommons result ID" not in stderr


def test_the_pdf_and_the_brief_cite_the_ids(built):
    folder, _, _, _ = built
    first = _headline_ids(folder)[0]
    report = "".join(page.extract_text() for page in PdfReader(folder / "report.en.pdf").pages)
    assert first in report
    for lang in ("en", "zh-Hant"):
        brief = PdfReader(folder / f"brief.{lang}.pdf").pages[0].extract_text().replace("\n", "")
        assert first in brief and "MLCommons" in brief


def test_the_slides_footers_and_notes_cite_the_ids(built):
    from pptx import Presentation

    folder, _, _, _ = built
    first = _headline_ids(folder)[0]
    for lang, word in (("en", "result ID"), ("zh-Hant", "成績編號")):
        deck = Presentation(folder / f"slides.{lang}.pptx")
        claim_slide = deck.slides[1]  # the headline's slide
        texts = [shape.text_frame.text.replace("\n", " ") for shape in claim_slide.shapes if shape.has_text_frame]
        footer = next(t for t in texts if t.startswith(("Source: MLCommons", "資料來源：MLCommons")))
        assert first in footer and word in footer
        assert ("retrieved 30 June 2021" if lang == "en" else "擷取日期 2021年6月30日") in footer
        notes = claim_slide.notes_slide.notes_text_frame.text
        assert first in notes


def test_every_card_cites_the_ids_in_its_svg_and_draws_its_citation(built):
    from PIL import Image

    from mlperf_report.assemble.formats import cards
    from mlperf_report.assemble.kit import kit_of
    from mlperf_report.suites import suite_for

    folder, _, _, config_file = built
    story = _story(folder)
    claims = [c for c in (story["headline"], *story["highlights"]) if c["cites"]]  # a claim citing nothing: no card
    for lang in ("en", "zh-Hant"):
        made = json.loads((folder / "deliverables.json").read_text())[lang]["cards"]
        for claim, png, svg in zip(claims, made[0::2], made[1::2]):
            text = (folder / svg).read_text(encoding="utf-8")
            cited = [i for c, i in (claim.get("cite_ids") or {}).items()][:1]
            assert all(i in text for i in cited), (svg, cited)
    # the citation a card draws, from the kit as the build makes it
    config = load_config(config_file).with_overrides(round=ROUND, focus_submitter="Graphcore")
    summary = json.loads((folder / "figures" / "summary.json").read_text(encoding="utf-8"))
    lead = suite_for(ROUND).lead_claims(summary, config, "en")
    kit = kit_of(lead, lang="en", round_id=ROUND, round_title="MLPerf Training v1.0", title="t", date="d",
                 focus_name="Graphcore", has_exhibits=False, retrieved="2021-06-30")
    first = _headline_ids(folder)[0]
    assert first in cards.citation(kit.claims[0], kit)
    image = Image.open(io.BytesIO((folder / made[0]).read_bytes())).convert("L")
    citation_band = image.crop((48, 675 - 48 - 66, 1152, 675 - 48))
    assert image.size == (1200, 675) and citation_band.getextrema()[0] < 128  # the citation is drawn, in ink


def test_the_email_notes_cite_the_ids(built):
    from mlperf_report.narrative.rendering import load_figures
    from mlperf_report.suites import suite_for

    folder, _, _, config_file = built
    config = load_config(config_file).with_overrides(round=ROUND, focus_submitter="Graphcore")
    figures, summary = load_figures(folder / "figures", {"resnet", "bert", "summary"})
    first = _headline_ids(folder)[0]
    for lang, word in (("en", "result ID"), ("zh-Hant", "成績編號")):
        _, notes = suite_for(ROUND).headlines(figures, summary, config, lang)
        assert any(first in note and word in note for note in notes), notes


def _kit(folder: Path, config_file: Path, lang: str):
    from mlperf_report.assemble.kit import kit_of
    from mlperf_report.suites import suite_for

    config = load_config(config_file).with_overrides(round=ROUND, focus_submitter="Graphcore")
    summary = json.loads((folder / "figures" / "summary.json").read_text(encoding="utf-8"))
    return kit_of(suite_for(ROUND).lead_claims(summary, config, lang), lang=lang, round_id=ROUND,
                  round_title="MLPerf Training v1.0", title="t", date="d", focus_name="Graphcore", has_exhibits=False)


def test_no_slide_or_card_cites_nothing(built):
    """Graphcore's first round ("no result in v0.7") rests on no result a footer can cite: it has no
    slide and no card (the kit keeps it, for the brief and the report)."""
    from pptx import Presentation

    folder, _, _, config_file = built
    story = _story(folder)
    uncited = [c for c in (story["headline"], *story["highlights"]) if not c["cites"]]
    assert [c["kind"] for c in uncited] == ["first_round"]  # the synthetic v0.7 has no Graphcore result
    for lang, nothing in (("en", "Results: —"), ("zh-Hant", "引用成績：—")):
        kit = _kit(folder, config_file, lang)
        deck = Presentation(folder / f"slides.{lang}.pptx")
        assert len(deck.slides) == len(kit.cited) + 2 == len(kit.claims) + 1  # title, claims citing, closing
        texts = [shape.text_frame.text.replace("\n", " ") for slide in deck.slides for shape in slide.shapes
                 if shape.has_text_frame]
        assert not any(nothing in t for t in texts)
        notes = [slide.notes_slide.notes_text_frame.text for slide in deck.slides]
        assert not any(n.rstrip().endswith(("Based on: .", "依據：。")) for n in notes)
        made = json.loads((folder / "deliverables.json").read_text())[lang]["cards"]
        assert len(made) == 2 * len(kit.cited)
        assert not any(nothing in (folder / svg).read_text(encoding="utf-8") for svg in made[1::2])


def test_every_bar_names_its_chips_their_count_and_maker_and_the_notes_name_its_system(built):
    """The kit's chart rows, which the deck's and the cards' pictures draw: each label holds the
    catalogue's chip name and the count, never a system's folder or model number alone; the slide's
    speaker notes and the card's SVG description pair each label with the system it stands for."""
    from pptx import Presentation

    from mlperf_report.analysis import names
    from mlperf_report.core import accelerators

    folder, _, _, config_file = built
    generations = accelerators.load()
    for lang, times in (("en", " × "), ("zh-Hant", " 顆 ")):
        kit = _kit(folder, config_file, lang)
        charted = [c for c in kit.cited if c.chart is not None]
        assert charted
        for claim in charted:
            for row in claim.chart.rows:
                chip = names.chip(row["accelerator_model"], generations)
                assert f"{row['accelerators']}{times}{chip}" in row["label"], row["label"]
                assert row["label"] not in (row["system"], row["system_id"])
        deck = Presentation(folder / f"slides.{lang}.pptx")
        made = json.loads((folder / "deliverables.json").read_text())[lang]["cards"]
        for slide, claim, svg in zip(list(deck.slides)[1:], kit.cited, made[1::2]):
            notes = slide.notes_slide.notes_text_frame.text
            desc = re.search(r"<desc>(.*?)</desc>", (folder / svg).read_text(encoding="utf-8"), re.S).group(1)
            for row in claim.chart.rows if claim.chart else ():
                pair = f"{row['label']}{': ' if lang == 'en' else '：'}{row['system_name']}"
                assert pair in notes and pair in desc
