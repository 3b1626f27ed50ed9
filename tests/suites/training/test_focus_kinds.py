"""The narrative for the three kinds of focus (a submitter, an accelerator, none) on a v5-style round
the tests build: like-for-like wording, the baseline's basis, no prices, both languages."""

import functools
import re

import pytest

from mlperf_report.suites.training import context
from mlperf_report.suites.training import figures as figures_module
from mlperf_report.core import paths
from mlperf_report.suites.training import narrative
from mlperf_report.suites.training import rounds

ROUND = "training-v5.0"
LANGS = ("en", "zh-Hant")
LEFTOVERS = re.compile(r"\{\{|\}\}|\{%|%\}|\bNone\b|\bnan\b|\bNaN\b|\bUndefined\b|\binf\b")


def render(v5_tables, lang, focus="AMD", accelerator=None):
    """figures.json and summary.json as the notebooks write them, then the narrative."""
    figs, summary, config, catalogue = _figures(v5_tables, focus, accelerator)
    return narrative.render(figs, summary, config, lang, "text", catalogue=catalogue)


@functools.lru_cache(maxsize=None)
def _figures(v5_tables, focus, accelerator):
    figs = {}
    for benchmark in rounds.parse_round(ROUND).benchmarks:
        a = context.load_benchmark(round_id=ROUND, benchmark=benchmark, focus_submitter=focus,
                                   focus_accelerator=accelerator, data_dir=v5_tables, prices_file=paths.PRICES,
                                   config_file=paths.REPORT_CONFIG)
        if len(a.scored):
            figs[benchmark] = a.figures()
    config, catalogue, by_round = context.load_round(round_id=ROUND, data_dir=v5_tables, prices_file=paths.PRICES,
                                                     config_file=paths.REPORT_CONFIG, focus_submitter=focus,
                                                     focus_accelerator=accelerator)
    summary = figures_module.summary_figures(by_round[ROUND], round_id=ROUND, focus_submitter=config.focus,
                                             baseline=config.baseline, catalogue=catalogue)
    return figs, summary, config.with_overrides(round=ROUND), catalogue


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("focus, accelerator", [("AMD", None), ("NVIDIA", None), (None, "MI300X"), ("none", None)])
def test_every_focus_reads_cleanly_in_every_language(v5_tables, lang, focus, accelerator):
    rendered = render(v5_tables, lang, focus or "", accelerator)
    text = rendered.narrative + rendered.notes
    assert not LEFTOVERS.search(text), LEFTOVERS.search(text)
    assert "MLPerf® Training v5.0" in text
    assert "training_results_v5.0" in rendered.notes and "training_results_v1.0" not in rendered.notes
    assert "Performance per dollar" not in text and "每美元效能是" not in text   # no price on file


def test_a_submitter_is_placed_among_systems_of_its_size_and_compared_without_prices(v5_tables):
    text = render(v5_tables, "en").narrative
    assert re.search(r"the AMD MI300X platform trained llama2_70b_lora in 29\.0 minutes\[\d+\], "
                     r"number 2 of 5 closed systems with 8 accelerators", text.replace("Llama 2 70B-LoRA", "llama2_70b_lora"))  # the catalogue's name
    like = text[text.index("Like for like"):]
    assert "No price is on file" in like
    assert re.search(r"the DGX B200 \(NVIDIA\) in 11\.00 minutes\[\d+\]; the DGX B200 is 2\.6× faster", like)
    assert "the DGX B200 is the only closed, available system with 8 accelerators built on NVIDIA accelerators" in like
    notes = render(v5_tables, "en").notes
    assert "no price is on file" in notes and "29.00 / 11.00" not in notes and "11.00 / 29.00 = 0.38" in notes


def test_chinese_states_the_scale_class_and_the_missing_price(v5_tables):
    text = render(v5_tables, "zh-Hant").narrative
    assert "在 5 套配備 8 顆加速器的封閉組系統中排名第 2" in text
    assert "同規模比較" in text and "沒有可引用的價格" in text
    assert not any(re.search(r"[\u4e00-\u9fff]\s+[\u4e00-\u9fff]", p) for p in text.split("\n\n"))


def test_an_accelerator_story_names_every_partner(v5_tables):
    for lang, lead in (("en", "3 submitters (AMD, Dell and Lenovo) entered MLPerf® Training v5.0 results on systems built on MI300X"),
                       ("zh-Hant", "共有 3 家提交者（AMD、Dell、Lenovo）以採用 MI300X 的系統提交 MLPerf® Training v5.0 成績")):
        text = render(v5_tables, lang, "", "MI300X").narrative
        assert lead in text
        assert "NVIDIA" not in text.split("Like for like")[0].split("同規模比較")[0].replace("DGX", "")


def test_no_focus_gives_a_neutral_overview(v5_tables):
    text = render(v5_tables, "en", "none").narrative
    assert "The round at a glance" in text and "Headline results" not in text
    assert "5 submitters entered 11 scored results" in text
    assert "NVIDIA (5), Dell (3), AMD (1), Google (1) and Lenovo (1)" in text
    changed = text[text.index("What changed since MLPerf® Training v4.1"):]
    assert "New in this round:" in changed and "No longer in the suite:" in changed
    assert re.search(r"With 8 accelerators, the fastest of 5 closed systems is the DGX B200 \(NVIDIA\) with 11\.0 minutes", text)
    zh = render(v5_tables, "zh-Hant", "none").narrative
    assert "本輪概況" in zh and "本輪新增" in zh and "NVIDIA（5）" in zh
