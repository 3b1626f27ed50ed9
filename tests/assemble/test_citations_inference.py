"""An Inference report whose results table carries MLCommons result IDs (as ingest reads them from the
tree's ``summary_results.json``) cites them in the story's footnotes, the round's note, the slides, the
brief and the cards; the same round without IDs keeps the paths and ``report`` prints, once, how to add
them. Two builds of the embedded Inference v4.1 tables for UntetherAI (one benchmark, a story of seven
claims), shared by the module; the one without IDs makes the HTML only."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from pypdf import PdfReader

from mlperf_report.core import paths

ROUND = "inference-v4.1"
FOCUS = "UntetherAI"
HINT = (f"citations: {ROUND} has no MLCommons result ID for some cited results, which are cited by their results "
        "path; to cite the IDs, re-ingest a results tree that holds summary_results.json at its root "
        "(`python build.py ingest <source>`)")


def _build(data: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "build.py", "report", "--round", ROUND, "--focus", FOCUS, "--data-dir",
                           str(data), "--output-dir", str(out), "-j", "2", *extra],
                          cwd=paths.ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


@pytest.fixture(scope="module")
def with_ids(tmp_path_factory):
    root = tmp_path_factory.mktemp("inference-ids")
    data = root / "data"
    shutil.copytree(paths.DATA / ROUND, data / ROUND)
    path = data / ROUND / "results.csv"
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    systems = sorted(set(zip(table["division"], table["submitter"], table["system_id"])))
    number = {s: f"4.1-{61 + i:04d}" for i, s in enumerate(systems)}
    table["mlcommons_id"] = [number[s] for s in zip(table["division"], table["submitter"], table["system_id"])]
    table.to_csv(path, index=False)
    done = _build(data, root / "out")
    return root / "out" / ROUND, number[("closed", FOCUS, "r760_u4_slim")], done.stderr


@pytest.fixture(scope="module")
def without_ids(tmp_path_factory):
    root = tmp_path_factory.mktemp("inference-paths")
    config = yaml.safe_load(paths.REPORT_CONFIG.read_text(encoding="utf-8"))
    config["deliverables"] = ["html"]
    (root / "report.yaml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    done = _build(paths.DATA, root / "out", "--config", str(root / "report.yaml"))
    return root / "out" / ROUND, done.stderr


def _story(folder: Path) -> dict:
    return json.loads((folder / "figures" / "summary.json").read_text(encoding="utf-8"))["story"]


def test_the_footnotes_cite_the_ids_in_both_languages_and_no_hint_is_printed(with_ids):
    folder, acme, stderr = with_ids
    assert all(acme == i for c, i in _story(folder)["headline"]["cite_ids"].items() if f"/{FOCUS}/r760_u4_slim/" in c)
    en = (folder / "report.en.html").read_text(encoding="utf-8")
    zh = (folder / "report.zh-Hant.html").read_text(encoding="utf-8")
    assert re.search(rf"Based on: MLPerf® Inference v4\.1, closed division, ResNet-50, \w+, result IDs? [^<]*{acme}", en)
    assert "Retrieved from https://github.com/mlcommons/inference_results_v4.1." in en  # no date for this round
    assert "Each result is cited by its MLCommons result ID" in en
    assert f"成績編號 {acme}" in zh and "資料擷取自 https://github.com/mlcommons/inference_results_v4.1。" in zh
    assert "Based on: inference-v4.1/" not in en  # every cited result by its ID, none by its path
    assert "has no MLCommons result ID" not in stderr


def test_the_kit_cites_the_ids(with_ids):
    from pptx import Presentation

    folder, acme, _ = with_ids
    deck = Presentation(folder / "slides.zh-Hant.pptx")
    texts = [s.text_frame.text for s in deck.slides[1].shapes if s.has_text_frame]
    assert any(acme in t and "成績編號" in t for t in texts)
    assert acme in deck.slides[1].notes_slide.notes_text_frame.text
    brief = PdfReader(folder / "brief.en.pdf").pages[0].extract_text().replace("\n", "")
    assert acme in brief
    report = "".join(page.extract_text() for page in PdfReader(folder / "report.en.pdf").pages)
    assert acme in report
    made = json.loads((folder / "deliverables.json").read_text())["en"]["cards"]
    assert acme in (folder / made[1]).read_text(encoding="utf-8")  # the headline's card, as SVG text


def test_without_ids_the_path_stays_and_report_says_once_how_to_add_them(without_ids):
    folder, stderr = without_ids
    en = (folder / "report.en.html").read_text(encoding="utf-8")
    assert f"Based on: inference-v4.1/closed/{FOCUS}/r760_u4_slim/" in en and "result ID" not in en
    assert "Result IDs are not part of this copy of the results." in en
    assert stderr.count(HINT) == 1 and len([line for line in stderr.splitlines() if "citations:" in line]) == 1


def test_the_email_notes_cite_the_ids(with_ids):
    from mlperf_report.core.config import load_config
    from mlperf_report.narrative.rendering import load_figures
    from mlperf_report.suites import suite_for

    folder, acme, _ = with_ids
    config = load_config().with_overrides(round=ROUND, focus_submitter=FOCUS)
    figures, summary = load_figures(folder / "figures", {"resnet", "summary"})
    _, notes = suite_for(ROUND).headlines(figures, summary, config, "zh-Hant")
    assert notes[0].startswith("[1] 依據：MLPerf® Inference v4.1，封閉組") and acme in notes[0]
