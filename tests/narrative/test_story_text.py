"""The story in words: the embedded rounds' stories lead with what their teams published, in English
and Traditional Chinese, every kind of claim has its sentence in every language, and notes carry the
results, MLCommons' notice and each price's source."""

from __future__ import annotations

import re

import pytest

from mlperf_report.analysis import story
from mlperf_report.suites.training import context
from mlperf_report.suites.training import figures
from mlperf_report.suites.training import story_inputs
from mlperf_report.core import paths
from mlperf_report.core.config import Focus, load_config
from mlperf_report.narrative import story_text
from mlperf_report.suites.training import narrative
from mlperf_report.suites.training import rounds

LANGS = ("en", "zh-Hant")
NAMES = story_text.Names(lambda b, r, l: rounds.benchmark_model(b, r, l), lambda s, l: s)


def training_story(round_id: str, submitter: str) -> dict:
    config, catalogue, tables = context.load_round(round_id=round_id, data_dir=paths.DATA, prices_file=paths.PRICES,
                                                   config_file=paths.REPORT_CONFIG, focus_submitter=submitter)
    summary = figures.summary_figures(tables[round_id], round_id=round_id, focus_submitter=config.focus,
                                      baseline=config.baseline, catalogue=catalogue)
    return story_inputs.training_story(tables, round_id, config.focus, perf_per_dollar=summary["perf_per_dollar"])


@pytest.fixture(scope="module")
def google():
    return training_story("training-v4.1", "Google")


def test_google_v41_leads_with_the_tpu_generation_and_its_gpt3_scaling(google):
    assert google["headline"]["angle"] == "generation"
    best = google["headline"]["facts"]["best"]
    assert (google["headline"]["facts"]["new"], google["headline"]["facts"]["old"]) == ("TPU Trillium (v6e)", "TPU v5p")
    assert best["accelerators"] == 2048 and best["result"]["benchmark"] == "gpt3"
    scaling = google["highlights"][0]
    assert scaling["angle"] == "scaling"
    assert (scaling["facts"]["small"]["accelerators"], scaling["facts"]["large"]["accelerators"]) == (512, 3072)


@pytest.mark.parametrize("lang, words", [
    ("en", ["Google's TPU Trillium (preview) system trains GPT-3 175B 1.08× faster than its TPU v5p system",
            "27.3 minutes against 29.6 minutes", "from 512 accelerators to 3,072 accelerators",
            "102.1 minutes to 20.8 minutes", "a scaling efficiency of 82% (the speed-up divided by the growth"]),
    ("zh-Hant", ["Google 的 TPU Trillium（預覽） 系統訓練 GPT-3 175B 的速度是其 TPU v5p 系統的 1.08×", "27.3 分鐘 對比 29.6 分鐘",
                 "由 512 個加速器 擴展至 3,072 個加速器", "擴展效率 82%"]),
])
def test_the_google_highlights_in_each_language(google, lang, words):
    worded = story_text.render(google, lang, NAMES, "training-v4.1")
    lead = " ".join([worded["headline"]["text"]] + [c["text"] for c in worded["highlights"]])
    for phrase in words:
        assert phrase in lead
    assert not re.search(r"number \d+ of \d+|排名第", lead)


def test_the_seed_round_leads_with_performance_per_dollar_as_the_press_release_did():
    graphcore = training_story("training-v1.0", "Graphcore")
    assert graphcore["headline"]["angle"] == "price"
    text = story_text.render(graphcore, "en", NAMES, "training-v1.0")
    assert "delivers 1.6× the performance of the NVIDIA DGX A100 640GB on ResNet-50 v1.5" in text["headline"]["text"]
    assert any("1.3×" in c["text"] and "BERT" in c["text"] for c in text["highlights"])
    note = story_text.note_text(text["headline"], "en", str)
    assert "$149,995" in note and "not verified by MLCommons Association" in note
    assert text["headline"]["facts"]["price"]["source"] in note


def _every_kind() -> list[story.Claim]:
    """One claim of every angle and kind, from a small synthetic round."""
    from tests.analysis.test_story import GENERATIONS, _priced, focus, frame, result

    df = frame(result("NVIDIA", "h200x8", "bert", 10.0, model="NVIDIA H200-SXM5-141GB", energy=3e7),
               result("NVIDIA", "h100x8", "bert", 15.0), result("NVIDIA", "h100x64", "bert", 3.0, 64),
               result("Dell", "d8", "bert", 10.1, model="NVIDIA H200-SXM5-141GB"),
               result("Google", "t8", "bert", 12.0, model="TPU-v5p"), result("Google", "t64", "bert", 2.5, 64, model="TPU-v5p"),
               result("AMD", "m8", "bert", 10.05, model="AMD Instinct MI300X"))
    before = frame(result("NVIDIA", "h100x8", "bert", 16.0, round_id="training-v4.0"),
                   result("NVIDIA", "h100x8", "ssd", 6.0, round_id="training-v4.0"))
    found = story.find_claims(df, focus("NVIDIA"), GENERATIONS, before, [_priced(r) for r in (1.5,)])
    found += story.find_claims(df, focus("", "none"), GENERATIONS, before)
    found += story.find_claims(frame(result("NVIDIA", "x", "bert", 10.0)), focus("NVIDIA"), GENERATIONS,
                               frame(result("AMD", "m", "bert", 9.0, round_id="training-v4.0")))
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_kind_of_claim_has_its_sentence_in_every_language(lang):
    found = _every_kind()
    kinds = {(c.angle, c.kind) for c in found}
    assert {a for a, _ in kinds} == set(story.ANGLES)
    told = story.tell(found, story.Focus("submitter", "NVIDIA", Focus("submitter", "NVIDIA").matches), highlights=100)
    worded = story_text.render(told.as_dict(), lang, NAMES, "training-v4.1")
    texts = [worded["headline"]["text"]] + [c["text"] for c in worded["highlights"]] + [
        c["text"] for g in worded["body"] for c in g["claims"]]
    assert len(texts) == len(found)
    for text in texts:
        assert text and "{" not in text and "None" not in text and "nan" not in text.lower()


def test_on_par_is_never_worded_as_ahead():
    found = _every_kind()
    on_par = [c for c in found if c.kind == "on_par"]
    assert on_par
    told = {"focus_kind": "submitter", "focus_name": "NVIDIA", "headline": on_par[0].as_dict(), "highlights": [], "body": []}
    text = story_text.render(told, "en", NAMES, "training-v4.1")["headline"]["text"]
    assert "on par" in text and "ahead" not in text


def test_the_narrative_leads_with_the_story_and_cites_every_claim(google):
    summary = {"story": google}
    config = load_config().with_overrides(round="training-v4.1", focus_submitter="Google")
    figs = {"gpt3": _figures_stub("gpt3")}
    rendered = narrative.render(figs, summary, config, "en", fmt="text")
    assert rendered.narrative.index("1.08×") < rendered.narrative.index("Results by benchmark")
    assert "More from the results" in rendered.narrative and "Against the competition" in rendered.narrative
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", rendered.narrative)}
    assert markers and all(f"[{n}]" in rendered.notes for n in markers)
    lines = narrative.headline_summary(figs, config, "en", summary=summary)
    assert "1.08×" in lines[0] and len(lines) == 1 + len(google["highlights"])


def _figures_stub(benchmark: str) -> dict:
    """A minimal figures.json of one benchmark with no focus result (the story comes from summary.json)."""
    return {"round": "training-v4.1", "benchmark": benchmark, "benchmark_title": benchmark, "benchmark_model": benchmark,
            "focus_submitter": "Google", "focus_kind": "submitter", "focus_name": "Google",
            "fastest": {"closed": None, "open": None}, "focus": {"closed": [], "open": []}, "baseline": None,
            "baseline_rule": None, "perf_per_dollar": [], "equal_scale": None, "scales": [], "previous_round": None,
            "unscored": []}


@pytest.mark.parametrize("lang", LANGS)
def test_the_inference_v41_nvidia_narrative_is_a_headline_and_a_few_claims(lang):
    from mlperf_report.suites.inference import tables as inference_tables
    from mlperf_report.suites.inference import narrative as inference

    results = inference_tables.load_results(paths.DATA, "inference-v4.1")
    summary = inference_tables.round_facts(results, focus="NVIDIA", round_id="inference-v4.1")
    summary["story"] = inference_tables.story(results, data_dir=paths.DATA, round_id="inference-v4.1", focus="NVIDIA")
    config = load_config().with_overrides(round="inference-v4.1", focus_submitter="NVIDIA")
    html = inference.render({}, summary, config, lang).narrative
    lead = html.split('mlperf-story-headline">', 1)[1]
    highlights = lead.split("<ul>", 1)[1].split("</ul>", 1)[0]
    assert 1 <= highlights.count("<li>") <= 6
    assert summary["story"]["headline"]["angle"] == "generation"  # Blackwell over the H200 at the same size
    lines = inference.headline_summary({}, config, lang, summary=summary)
    notes = inference.headline_notes({}, config, lang, summary=summary)
    assert len(lines) == 1 + highlights.count("<li>") and lines[0].endswith("[1]") and notes[0].startswith("[1] ")


@pytest.mark.parametrize("lang, one, two", [
    ("en", "1 partner submitted on NVIDIA's accelerators, 1 result in all: Dell.",
     "2 partners submitted on NVIDIA's accelerators, 3 results in all: Dell and HPE."),
    ("zh-Hant", "共有 1 家合作夥伴採用 NVIDIA 的加速器提交成績，合計 1 項：Dell。",
     "共有 2 家合作夥伴採用 NVIDIA 的加速器提交成績，合計 3 項：Dell"),
])
def test_the_ecosystem_sentence_counts_in_the_language_s_plural_forms(lang, one, two):
    """"1 submitters entered results" was printed for a single partner: every count is a plural message."""
    from mlperf_report.i18n.labels import counted, label

    def sentence(partners: list[str], results: int) -> str:
        return label("story.ecosystem.partners", lang, vendor="NVIDIA", names=story_text._joined(partners, lang),
                     kind=label("story.kind.accelerator", lang),
                     partners=counted("story.count.partners", lang, len(partners)),
                     results=counted("story.count.results", lang, results))

    assert sentence(["Dell"], 1) == one
    assert sentence(["Dell", "HPE"], 3).startswith(two)


@pytest.mark.parametrize("lang, one, many", [
    ("en", "has the fastest result on the one benchmark it entered at that size: ",
     "has the fastest result on 1 of the 3 benchmarks it entered at that size: "),
    ("zh-Hant", "參與的唯一一項基準測試取得最快成績：", "參與的 3 項基準測試中，有 1 項取得最快成績："),
])
def test_a_lead_at_one_size_in_the_only_benchmark_entered_there_says_so(lang, one, many):
    """"1 of the 1 benchmarks it entered at that size" (a v1.1 NVIDIA report) reads as a slip."""
    row = {"benchmark": "minigo", "system": "DGX A100", "submitter": "NVIDIA", "value": 15.5, "unit": "minutes",
           "measure": "time", "higher_is_better": False, "accelerators": 224, "availability": "available",
           "division": "closed", "result_id": "1.1-2080"}
    lead = {"result": row, "runner": {**row, "system": "X", "submitter": "Y", "value": 16.4}, "gap": 0.056}

    def worded(of: int) -> str:
        claim = {"angle": "leadership", "kind": "first_at_count", "strength": 3.0, "derived": True,
                 "cites": ["1.1-2080"], "facts": {"accelerators": 224, "leads": [lead], "of": of}}
        told = {"focus_kind": "submitter", "focus_name": "NVIDIA", "headline": claim, "highlights": [], "body": []}
        return story_text.render(told, lang, NAMES, "training-v1.1")["headline"]["text"]

    assert one in worded(1) and many in worded(3)


@pytest.mark.parametrize("gap, key, field", [
    (0.05, "story.competition.ahead", {"gap": "5.0%"}),
    (0.5, "story.competition.ahead", {"gap": "50%"}),
    (0.999, "story.competition.ahead", {"gap": "100%"}),
    (1.0, "story.competition.ahead_factor", {"factor": "2.0"}),
    (1.1, "story.competition.ahead_factor", {"factor": "2.1"}),
    (1982.09, "story.competition.ahead_factor", {"factor": "1,983"}),
])
def test_a_lead_of_100_percent_or_more_reads_as_a_factor(gap, key, field):
    assert story_text.lead("story.competition.ahead", gap) == (key, field)


@pytest.mark.parametrize("lang, words", [("en", "by a factor of 1,972"), ("zh-Hant", "達 1,972 倍")])
def test_a_huge_gap_is_told_as_a_factor_not_as_a_six_figure_percentage(lang, words):
    """Training v1.1, open BERT: Samsung's 0.42 minutes against Google's 828.2 (a 197,095 % lead)."""
    rival = {"benchmark": "bert", "division": "open", "submitter": "Samsung", "system": "samsung_dgxa100_n128",
             "availability": "research", "accelerators": 1024, "measure": "time", "value": 0.42, "unit": "minutes",
             "result_id": "r1"}
    mine = dict(rival, submitter="Google", system="tpu-v4-2048", value=828.2, result_id="r2")
    claim = {"angle": "competition", "kind": "behind", "strength": 0.2, "cites": ["r2", "r1"],
             "facts": {"result": mine, "rival": rival, "gap": 0.42 / 828.2 - 1, "rivals": 1}}
    told = {"focus_kind": "submitter", "focus_name": "Google", "headline": claim, "highlights": [], "body": []}
    text = story_text.render(told, lang, NAMES, "training-v1.1")["headline"]["text"]
    assert words in text
    assert not re.search(r"\d{3}(,\d{3})*\s?%", text)
