"""The Inference summary, exhibits and shortened rankings on the embedded v4.1 tables."""

from __future__ import annotations

import pytest

from mlperf_report.suites.inference import exhibits as ex
from mlperf_report.suites.inference import tables as t
from mlperf_report.core import paths

EMBEDDED = paths.DATA / "inference-v4.1" / "results.csv"
pytestmark = pytest.mark.skipif(not EMBEDDED.is_file(), reason="embedded data/inference-v4.1 not ingested")
ROUND = "inference-v4.1"


@pytest.fixture(scope="module")
def results():
    return t.load_results(paths.DATA, ROUND)


def test_open_variants_are_one_row_under_their_benchmark(results):
    """15 open BERT 99 % models (NeuralMagic's pruned and quantised variants) are one summary row; a
    model the checker files under no benchmark of the round is the last row; each is listed in the exhibit."""
    table = ex.submissions(results, division="open", round_id=ROUND)
    assert table["benchmark"].is_unique and table["benchmark"].iloc[-1] == ex.UNLISTED
    bert = table[table["benchmark"] == "bert-99"].iloc[0]
    assert bert["models"] == 15 and bert["Offline"] == 28 and bert["SingleStream"] == 2
    variants = ex.variants(results, round_id=ROUND)
    assert "bert-large-pruned80_quant-none-vnni-bert-99" in set(variants["model"])
    assert "resnet50" not in set(variants["model"])  # a spelling of ResNet, not a variant
    assert "neuralmagic_Llama-2-7b-chat-hf-FP8" in set(variants.loc[variants["benchmark"] == ex.UNLISTED, "model"])
    closed = ex.submissions_table(results, division="closed", round_id=ROUND, lang="en")
    assert "ResNet-50" in set(closed["Benchmark"]) and "Models as submitted" not in closed


def test_a_focus_s_other_benchmarks_are_one_table(results):
    others = ex.not_entered(results, focus="AMD", division="closed", round_id=ROUND)
    assert "resnet" in set(others["benchmark"]) and "llama2-70b-99" not in set(others["benchmark"])
    assert others.groupby(["benchmark", "scenario"]).size().max() == 1
    table = ex.not_entered_table(results, focus="AMD", division="closed", round_id=ROUND, lang="en")
    assert any(cell.endswith(" ms") for cell in table["Best result"])
    assert ex.not_entered(results, focus="Graphcore", division="closed", round_id=ROUND).empty  # not in the round


def test_a_ranking_shows_the_best_and_the_focus_below_them(results):
    ranked = t.ranked(t.scored(results, benchmark="llama2-70b-99", division="closed"), "Offline")
    shown = t.leading(ranked, "NVIDIA")
    below = shown[shown["rank"] > t.TOP]
    assert list(shown["rank"][: t.TOP]) == list(range(1, t.TOP + 1))
    assert len(below) == t.FOCUS_BELOW and set(below["submitter"]) == {"NVIDIA"}
    assert t.chart_rows(shown)["system_name"].iloc[-1].startswith(f"#{below['rank'].iloc[-1]} ")
    note = t.ranking_note(ranked, shown, focus="NVIDIA", lang="en")
    assert note.startswith(f"The best {t.TOP} of {len(ranked)} valid results are listed")


def test_round_facts_count_benchmarks_as_the_round_lists_them(results):
    facts = t.round_facts(results, focus="NeuralMagic", round_id=ROUND)
    assert "neuralmagic_Llama-2-7b-chat-hf-FP8" not in facts["focus_benchmarks"]  # an open model, no benchmark
    assert {"bert-99", "llama2-70b-99"} <= set(facts["focus_benchmarks"]) and len(facts["benchmarks"]) == 14


def test_no_focus_tells_the_round_overview(results):
    """``--focus none`` is a neutral overview, not a submitter called "none" that has no result."""
    from mlperf_report.core.config import load_config
    from mlperf_report.suites.inference import narrative

    config = load_config().with_overrides(round=ROUND, focus_submitter="none")
    rendered = narrative.render({}, t.round_facts(results, focus="", round_id=ROUND), config, "en")
    assert "has no valid result" not in rendered.narrative
    assert "MLPerf Inference v4.1: 937 valid results from 22 submitters" in rendered.narrative
