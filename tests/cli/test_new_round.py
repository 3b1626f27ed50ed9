"""Issue 44's acceptance on a round the tool has never seen (``tests/new_round.py``: Training v6.0's
benchmark and spellings, unknown and mixed chips, Grace hosts written Neoverse-V2, a ``Google_1``
submitter, MLCommons' summaries and results table): ingest says what it compared and what it does not
know, and every deliverable of the report names each chip right, claims nothing about the chips the
catalogue cannot support, and cites MLCommons' result IDs."""

from __future__ import annotations

import glob
import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from mlperf_report.core.config import Focus
from mlperf_report.suites.training import rounds
from tests import new_round

ROOT = Path(__file__).resolve().parents[2]


def _build(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "build.py", *args], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("v60")
    top = new_round.tree(root, rounds.required_runs(new_round.BENCHMARK))
    data = root / "data" / new_round.ROUND
    _build("ingest", str(top), "--no-compliance", "--out", str(data), "--quiet")
    first = pd.read_csv(data / "results.csv")
    new_round.add_summaries(top, {(o, s): t for o, s, t in zip(first.submitter, first.system_id, first.score_min)},
                            planted=("Supermicro", "rtx8"))
    ingested = _build("ingest", str(top), "--no-compliance", "--out", str(data), "--official",
                      str(new_round.results_table(root / "ids.csv")))
    report = _build("report", "--round", new_round.ROUND, "--data-dir", str(root / "data"), "--output-dir",
                    str(root / "out"), "--focus", "NVIDIA")
    return {"root": root, "data": data, "ingest": ingested.stdout + ingested.stderr, "report": report.stderr,
            "out": root / "out" / new_round.ROUND}


def _text(path: Path) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))))


def test_ingest_compares_with_mlcommons_summary_and_lists_what_the_catalogue_does_not_know(built):
    out = built["ingest"]
    assert "official summary: 8 compared, 7 equal, 1 differ, 0 only here, 0 only there" in out
    check = pd.read_csv(built["data"] / "official_check.csv")
    assert list(check.system_id) == ["rtx8"] and list(check.outcome) == ["differ"]
    assert "MLCommons results table" in out and "8 of 8 rows matched a system" in out
    [unknown] = [line for line in out.splitlines() if line.startswith("not in data/accelerators.yaml")]
    for text in (new_round.RTX, new_round.UNKNOWN, new_round.MIXED):
        assert unknown.count(repr(text)) == 1
    assert "NVIDIA B300" not in unknown and "B200" not in unknown
    assert "submitter 'Google_1' read as its folder's name 'Google'" in out
    results = pd.read_csv(built["data"] / "results.csv")
    assert dict(zip(results.system_id, results.mlcommons_id)) == {s: i for _, s, *_, i in new_round.SYSTEMS}


def test_every_deliverable_is_built_in_both_languages(built):
    made = json.loads((built["out"] / "deliverables.json").read_text())
    for lang in ("en", "zh-Hant"):
        assert {"html", "pdf", "exhibits", "slides", "brief", "cards"} <= set(made[lang]), made[lang].keys()
    assert (built["out"] / "results.xlsx").is_file()


def test_the_story_names_each_chip_right_and_claims_nothing_about_the_unknown_ones(built):
    story = json.loads((built["out"] / "figures" / "summary.json").read_text())["story"]
    claims = [story["headline"], *story["highlights"], *story["body"]]
    text = json.dumps(claims)
    [generation] = [c for c in claims if c["angle"] == "generation"]
    assert (generation["facts"]["new"], generation["facts"]["old"]) == ("Blackwell Ultra (B300 / GB300)",
                                                                       "Blackwell (B200 / GB200)")
    for chip_claim in (c for c in claims if c["angle"] in ("generation", "competition", "scaling") or c["kind"] == "debut"):
        cited = json.dumps(chip_claim)
        assert new_round.UNKNOWN not in cited and new_round.MIXED not in cited and new_round.RTX not in cited
    [hosts] = [c for c in claims if c["kind"] == "host_share"]
    assert (hosts["facts"]["systems"], hosts["facts"]["of"], hosts["facts"]["brand"]) == (3, 8, "Grace")
    # the mixed AMD system is the round's fastest: NVIDIA may not claim the fastest result overall
    assert not [c for c in claims if c["kind"] == "first_overall"]
    assert "6.0-0101" in text  # each claim carries the IDs it cites


def test_every_citation_carries_the_mlcommons_result_id(built):
    from pptx import Presentation
    from pypdf import PdfReader

    out = built["out"]
    assert "result IDs 6.0-0101, 6.0-0103" in _text(out / "report.en.html")
    assert "成績編號 6.0-0101" in _text(out / "report.zh-Hant.html")
    assert "6.0-0101" in "".join(page.extract_text() for page in PdfReader(out / "report.en.pdf").pages)
    deck = Presentation(out / "slides.en.pptx")
    footers = [shape.text_frame.text for slide in list(deck.slides)[1:] for shape in slide.shapes
               if shape.has_text_frame and shape.text_frame.text.startswith("Source:")]
    assert footers and all(re.search(r"result IDs? 6\.0-0\d{3}", f) for f in footers)
    assert "6.0-0101" in PdfReader(out / "brief.en.pdf").pages[0].extract_text()
    for svg in glob.glob(str(out / "cards" / "*.svg")):
        assert re.search(r"6\.0-0\d{3}", Path(svg).read_text(encoding="utf-8")), svg
    assert "citations:" not in built["report"]  # every cited result has its ID: no hint


def test_no_deliverable_calls_a_b300_a_b200(built):
    for lang in ("en", "zh-Hant"):
        text = _text(built["out"] / f"report.{lang}.html")
        assert "NVIDIA B300" in text
        assert not re.search(r"Supermicro[^.]{0,40}NVIDIA B200", text)


def test_the_history_the_story_lacks_is_named_with_its_command(built):
    assert ("history: MLPerf Training v5.1 is not in" in built["report"]
            and "python build.py ingest https://github.com/mlcommons/training_results_v5.1" in built["report"])


def test_focuses_on_the_round_select_exactly_their_systems(built):
    from mlperf_report.suites.planner import make_plan

    results = pd.read_csv(built["data"] / "results.csv")
    b300 = Focus("accelerator", "B300")
    assert sorted(results.system_id[[b300.matches(s, m) for s, m in zip(results.submitter, results.accelerator_model)]]) \
        == ["b300_b", "b300_c", "gb300_a"]
    b200 = Focus("accelerator", "B200")
    assert list(results.system_id[[b200.matches(s, m) for s, m in zip(results.submitter, results.accelerator_model)]]) \
        == ["b200"]
    plan = make_plan(round_id=new_round.ROUND, data_dir=built["root"] / "data", output_dir=built["root"] / "google",
                     focus_submitter="Google")   # the folder's name, though its JSON says Google_1
    assert plan.jobs
