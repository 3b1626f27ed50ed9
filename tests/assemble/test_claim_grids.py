"""The charts issue 45 asked for where a claim compares no two results: a debut shows its best
result on each benchmark it entered, each figure large and as the story prints it, each cited; a
partners claim without a closest partner compares the partners' results. Both languages, from the
story engine's claims through the narrative to the card and the slide."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlperf_report.analysis import claim_charts
from mlperf_report.assemble import kit_charts
from mlperf_report.assemble.formats import cards, slides
from mlperf_report.assemble.kit import kit_of
from mlperf_report.narrative import chart_words, story_text
from mlperf_report.narrative.story_words import value_text

ROUND = "training-v5.1"
NAMES = story_text.Names(lambda b, r, l: {"bert": "BERT", "llama2_70b_lora": "Llama 2 70B LoRA"}.get(b, b),
                         lambda s, l: s)


def result(system: str, benchmark: str, minutes: float, chips: int) -> dict:
    return {"round": ROUND, "benchmark": benchmark, "scenario": "", "division": "closed", "availability": "available",
            "submitter": "AMD", "system_id": system, "system": f"AMD {system.upper()}",
            "accelerator_model": "AMD Instinct MI355X", "unit": "minutes", "measure": "time", "energy_unit": "",
            "result_id": f"{ROUND}/closed/AMD/{system}/{benchmark}", "model": "", "host_processor_model": "",
            "value": minutes, "higher_is_better": False, "accelerators": chips, "energy": None, "host_processors": 2}


BERT, LORA = result("mi355x_x8", "bert", 5.2871, 8), result("mi355x_x64", "llama2_70b_lora", 10.2534, 64)
DEBUT = {"angle": "generation", "kind": "debut", "strength": 7.2, "derived": False,
         "facts": {"generation": "Instinct MI350 Series (MI350X / MI355X)", "chips": ["AMD Instinct MI355X"],
                   "round": ROUND, "results": 3, "benchmarks": ["bert", "llama2_70b_lora"], "divisions": ["closed"],
                   "submitters": ["AMD"], "largest": LORA, "largest_chips": 64, "unit": "accelerator",
                   "one_size": False, "availability": "available", "source": "AMD's blog",
                   "per_benchmark": [BERT, LORA], "entered": 2},
         "cites": [LORA["result_id"], BERT["result_id"], f"{ROUND}/closed/AMD/mi355x_x8/llama2_70b_lora"],
         "cite_ids": {LORA["result_id"]: "5.1-0007", BERT["result_id"]: "5.1-0003"}}
PARTNERS = {"angle": "ecosystem", "kind": "partners", "strength": 2.0, "derived": False,
            "facts": {"partners": ["Supermicro", "Dell", "Giga_Computing", "Quanta_Cloud_Technology", "MangoBoost",
                                   "Lenovo", "Cisco"], "counts": [9, 5, 4, 3, 2, 2, 1], "results": 26, "own": "AMD",
                      "closest": None, "kind": "accelerator"},
            "cites": [f"{ROUND}/closed/Supermicro/as_4126/bert"]}
STORY = {"focus_kind": "submitter", "focus_name": "AMD", "headline": DEBUT, "highlights": [PARTNERS], "body": []}


def kit(lang: str):
    claims = story_text.lead_claims(STORY, lang, NAMES, ROUND)
    return kit_of(claims, lang=lang, round_id=ROUND, round_title="MLPerf Training v5.1", title="Results",
                  date="2026-12-07", focus_name="AMD", has_exhibits=False)


def texts(svg: str) -> list[str]:
    return [re.sub(r"\s+", " ", t).strip() for t in re.findall(r"<text[^>]*>(.*?)</text>", svg, re.DOTALL)]


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_debut_shows_its_best_result_on_each_benchmark_as_the_story_prints_it_and_cites_each(lang):
    made = kit(lang)
    debut = made.cited[0]
    assert debut.chart.measure == "debut" and [r["benchmark"] for r in debut.chart.rows] == ["bert", "llama2_70b_lora"]
    svg = cards.card(debut, made)[1].decode("utf-8")
    shown = texts(svg)
    for row, figure, named in ((BERT, "5.3", "BERT"), (LORA, "10.3", "Llama 2 70B LoRA")):
        assert figure in value_text(row, lang)          # the figure the story prints, in its precision
        assert figure in shown and named in shown        # large, under its benchmark's name
    assert ("Result ID 5.1-0003" if lang == "en" else "成績編號 5.1-0003") in shown  # each cell cites its result
    assert any(("Result ID 5.1-0007" if lang == "en" else "成績編號 5.1-0007") == t for t in shown)
    assert {r["result_id"] for r in debut.chart.rows} <= set(debut.cites)  # the footer's and the notes' too
    assert debut.chart_title in ("Best result on each benchmark entered", "各項參賽基準測試的最佳成績")
    assert re.search(r"<desc>[^<]*AMD MI355X_X64", svg)  # each cell's system in the description


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_debut_slide_carries_its_grid_and_names_each_cell_s_system_in_the_notes(lang):
    from pptx import Presentation

    made = kit(lang)
    deck = Presentation(io.BytesIO(slides.deck_bytes(made)))
    debut_slide = list(deck.slides)[1]
    assert any(shape.shape_type == 13 for shape in debut_slide.shapes)
    notes = debut_slide.notes_slide.notes_text_frame.text
    assert "AMD MI355X_X8" in notes and "AMD MI355X_X64" in notes


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_partners_claim_without_a_closest_partner_compares_the_partners_results(lang):
    made = kit(lang)
    partners = made.cited[1]
    assert partners.chart is not None and partners.chart.measure == "results"
    rows = partners.chart.rows
    assert [r["value"] for r in rows] == [9, 5, 4, 3, 2, 3]  # the last two partners as one bar
    labels = list(kit_charts.chart_frame(partners)["_label"])
    assert labels[0] == "Supermicro" and labels[-1] == ("2 other submitters" if lang == "en" else "其他 2 家提交者")
    assert sum(r["value"] for r in rows) == PARTNERS["facts"]["results"]
    svg = cards.card(partners, made)[1].decode("utf-8")
    shown = texts(svg)
    assert "Supermicro" in shown and "Giga Computing" in shown
    assert ("2 other submitters" if lang == "en" else "其他 2 家提交者") in shown


def test_a_debut_of_more_benchmarks_than_it_shows_says_how_many_it_entered():
    made = dict(DEBUT, facts={**DEBUT["facts"], "entered": 11})
    chart = claim_charts.claim_chart(made, lambda s, m: s == "AMD")
    assert chart.entered == 11
    assert chart_words.debut_title(chart, "en") == "Best result in 2 of the 11 entries (benchmark and scenario) (all in the report)"


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=0.0005, max_value=5e6, allow_nan=False), st.booleans(),
       st.sampled_from(["minutes", "Samples/s", "Tokens/s", "Latency (ms)"]), st.sampled_from(["en", "zh-Hant"]))
def test_a_cell_s_figure_is_the_number_the_story_prints(value, higher, unit, lang):
    row = {**BERT, "value": value, "unit": unit, "higher_is_better": unit != "minutes" and higher}
    chart = claim_charts.claim_chart(dict(DEBUT, facts={**DEBUT["facts"], "per_benchmark": [row]}), lambda s, m: True)
    (cell,) = chart_words.worded(chart, DEBUT, lambda r: r["benchmark"], str, lang).rows
    sentence = value_text(row, lang)
    assert sentence.startswith(cell["figure"]) and sentence.endswith(cell["figure_unit"])


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@settings(max_examples=40, deadline=None)
@given(room=st.integers(min_value=12, max_value=60))
def test_a_cell_s_name_keeps_its_scenario_whole_and_never_breaks_a_number(lang, room):
    from mlperf_report.analysis import claim_grid
    from mlperf_report.analysis.label_text import columns

    benchmark = "Llama 2 70B (99.9 % of reference accuracy)" if lang == "en" else "Llama 2 70B（參考模型準確度的 99.9%）"
    scenario = "Offline" if lang == "en" else "離線"
    text = claim_grid._name({"benchmark_name": benchmark, "scenario_name": scenario}, room, lang)
    lines = text.split("\n")
    assert len(lines) <= 2 and text.endswith(scenario)
    assert all(_fits(line, room) for line in lines)
    assert "99.9" in text or "…" in text  # the number whole or cut with the name, never split across lines


def _fits(line: str, room: int) -> bool:
    """Within the room, or over it by a closing punctuation mark that hangs (never starts a line)."""
    from mlperf_report.analysis.label_text import columns
    from mlperf_report.i18n.line_breaks import NO_LINE_START

    return columns(line) <= room or (line[-1:] in NO_LINE_START and columns(line) <= room + 2)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@settings(max_examples=60, deadline=None)
@given(benchmark=st.sampled_from(["", "x", "GPT", "BERT", "DLRM", "Stable Diffusion XL", "Llama 2 70B (99.9 % of reference accuracy)",
                                  "Llama 2 70B（參考模型準確度的 99.9%）"]),
       scenario=st.sampled_from(["", "Offline", "Server", "離線", "伺服器"]), open_division=st.booleans(),
       room=st.integers(min_value=8, max_value=40))
def test_any_cell_s_name_keeps_its_scenario_and_the_open_mark_whole(lang, benchmark, scenario, open_division, room):
    """A short name (BERT: it crashed), an empty one, and an open result: the mark is never cut."""
    from mlperf_report.analysis import claim_grid
    from mlperf_report.i18n.labels import label

    row = {"benchmark_name": benchmark, "scenario_name": scenario, "open_division": open_division}
    text = claim_grid._name(row, room, lang)
    lines = text.split("\n")
    assert len(lines) <= 2
    mark = label("kit.open_mark", lang, benchmark="").strip()
    tail = (scenario + (" " if lang == "en" else "") + mark).strip() if open_division else scenario
    if tail and len(tail) <= room // 2:  # room for it whole on its line: never cut
        assert text.replace("\n", " ").endswith(tail) or text.endswith(tail)
