"""build.py report for an Inference round: the plan per model, the notebooks through the same runner,
and the bilingual reports with the Inference narrative, on a tree the test builds; the narrative for
NVIDIA and AMD on the embedded v4.1 tables."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from mlperf_report.suites.inference import tables as t
from mlperf_report.cli import report as pipeline
from mlperf_report.core import paths
from mlperf_report.core.config import load_config
from mlperf_report.core.errors import UserError
from mlperf_report.core.sources import open_source
from mlperf_report.suites.inference import narrative
from mlperf_report.suites.inference.ingest import ingest, write_tables
from mlperf_report.suites.inference.rounds import parse_round
from tests.inference_trees import spellings_tree

EMBEDDED = paths.DATA / "inference-v4.1" / "results.csv"


def test_plan_one_notebook_per_benchmark_with_a_valid_result(inference_tables, tmp_path):
    """A neutral overview (``--focus none``): every benchmark; a benchmark is named by the checker
    (resnet50 folders are ResNet, ``resnet``), and --benchmarks takes either spelling. A focus absent
    from the round (report.yaml's Graphcore) is refused before any kernel, the round's submitters listed."""
    with pytest.raises(UserError, match=r"--focus Graphcore: no valid result of this submitter in inference-v4.1; "
                                        r"submitters with valid results \(results\): Acme \(5\), Edgy \(2\), Open \(1\)"):
        pipeline.make_plan(round_id="inference-v4.1", data_dir=inference_tables, output_dir=tmp_path)
    none = {"focus_submitter": "none"}
    plan = pipeline.make_plan(round_id="inference-v4.1", data_dir=inference_tables, output_dir=tmp_path, jobs=2, **none)
    assert [job.name for job in plan.jobs] == ["gptj-99", "llama2-70b-99", "resnet", "summary"]
    assert plan.jobs[1].parameters["benchmark"] == "llama2-70b-99"
    pipeline.check_parameters(plan.jobs)
    open_plan = pipeline.make_plan(round_id="inference-v4.1", data_dir=inference_tables, output_dir=tmp_path, division="open",
                                   **none)
    assert [job.name for job in open_plan.jobs] == ["resnet", "summary"]
    asked = pipeline.make_plan(round_id="inference-v4.1", data_dir=inference_tables, output_dir=tmp_path,
                               benchmarks=["resnet50", "resnet"], **none)
    assert [job.name for job in asked.jobs] == ["resnet", "summary"]
    with pytest.raises(UserError, match="--benchmarks: retinanet has no valid result"):
        pipeline.make_plan(round_id="inference-v4.1", data_dir=inference_tables, output_dir=tmp_path, benchmarks=["retinanet"],
                           **none)


def test_a_focus_plan_leads_with_what_the_focus_entered(inference_tables, tmp_path):
    """Edgy entered ResNet only: one section, the other benchmarks in a table of the summary; the
    round's open model submitted as its benchmark leaves nothing for the exhibits."""
    plan = pipeline.make_plan(round_id="inference-v4.1", data_dir=inference_tables, output_dir=tmp_path, focus_submitter="Edgy")
    assert [job.name for job in plan.jobs] == ["resnet", "summary"]
    nvidia_free = pipeline.make_plan(round_id="inference-v4.1", data_dir=inference_tables, output_dir=tmp_path,
                                     focus_submitter="none")
    assert nvidia_free.jobs[0].parameters["focus_submitter"] == ""


def test_report_builds_in_both_languages(inference_tables, tmp_path):
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "build.py", "report", "--round", "inference-v4.1", "--focus", "Acme",
                           "--data-dir", str(inference_tables), "--output-dir", str(out), "-j", "2"],
                          cwd=paths.ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    en = (out / "inference-v4.1" / "report.en.html").read_text()
    zh = (out / "inference-v4.1" / "report.zh-Hant.html").read_text()
    assert "Llama 2 70B (99 % of reference accuracy)" in en
    assert ">Tokens/s (higher is better)</text>" in en  # charts inline, labels as text (searchable, compact)
    for html in (en, zh):  # a v4.1 report must stay within 6 MB: no glyph outlines, no base64 charts
        assert "data:image/svg+xml" not in html and 'xlink:href="#DejaVuSans' not in html
        charts = html.count('class="chart-svg"')
        assert charts >= 10 and len(html.encode()) < 400_000 + 25_000 * charts, (charts, len(html.encode()))
    assert "Acme in MLPerf Inference v4.1: 5 valid results in 3 benchmarks" in en
    assert "29,228.2 Tokens/s, 1 of 1 result;" in en and "Result not verified by MLCommons Association" in en
    assert "Acme 於 MLPerf Inference v4.1" in zh and "伺服器" in zh
    assert (out / "inference-v4.1" / "report.zh-Hant.pdf").read_bytes().startswith(b"%PDF-")
    sent = subprocess.run([sys.executable, "build.py", "send", "--round", "inference-v4.1", "--to", "cto@example.com",
                           "--dry-run", "--data-dir", str(inference_tables), "--output-dir", str(out)],
                          cwd=paths.ROOT, capture_output=True, text=True)
    assert sent.returncode == 0, sent.stderr[-2000:]
    eml = (out / "inference-v4.1" / "mail" / "en-cto_example.com.eml").read_bytes().decode("utf-8", "replace")
    assert "mlperf-inference-v4.1-report.en.pdf" in eml


@pytest.mark.skipif(not EMBEDDED.is_file(), reason="embedded data/inference-v4.1 not ingested")
@pytest.mark.parametrize("focus, lang, expected", [
    ("AMD", "en", "Llama 2 70B (99 % of reference accuracy), Offline (closed division): Supermicro AS-8125GS-TNMR2 "
                  "reached 24,109.8 Tokens/s"),
    ("AMD", "zh-Hant", "Supermicro AS-8125GS-TNMR2 達到 24,109.8 Tokens/s"),
    ("NVIDIA", "en", "NVIDIA H200 (8x H200-SXM-141GB-CTS, TensorRT) reached 34,864.2 Tokens/s, 3 of 37 results; among the 25 systems with 8 accelerators it ranks 1"),
    ("NVIDIA", "zh-Hant", "NVIDIA 於 MLPerf Inference v4.1"),
])
def test_narrative_for_a_focus_on_the_embedded_round(focus, lang, expected):
    results = t.load_results(paths.DATA, "inference-v4.1")
    figures = {m: t.benchmark_facts(results, benchmark=m, division="closed", focus=focus, round_id="inference-v4.1")
               for m in sorted(results.loc[results.division == "closed", "benchmark"].unique())}
    summary = t.round_facts(results, focus=focus, round_id="inference-v4.1")
    config = load_config().with_overrides(round="inference-v4.1", focus_submitter=focus)
    rendered = narrative.render(figures, summary, config, lang)
    assert expected in rendered.narrative
    assert "MLPerf Inference v4.1" in rendered.notes
    assert narrative.headline_summary(figures, config, lang)[0].endswith("[1]")


def test_a_focus_system_without_its_systems_json_is_ranked_but_not_sized(inference_tables):
    """A copy that lacks a systems JSON leaves the accelerator count empty: the narrative still gives
    the rank and says why it does not compare by size (once an IndexError that failed the notebook)."""
    results = t.load_results(inference_tables, "inference-v4.1")
    results.loc[results.submitter == "Acme", "accelerators"] = float("nan")
    figures = {m: t.benchmark_facts(results, benchmark=m, division="closed", focus="Acme", round_id="inference-v4.1")
               for m in sorted(results.loc[results.division == "closed", "benchmark"].unique())}
    mine = [s["focus"] for fig in figures.values() for s in fig["scenarios"] if "focus" in s]
    assert mine and all("like_rank" not in entry for entry in mine)
    summary = t.round_facts(results, focus="Acme", round_id="inference-v4.1")
    config = load_config().with_overrides(round="inference-v4.1", focus_submitter="Acme")
    for lang, expected in (("en", "its accelerator count is not in the results"), ("zh-Hant", "未列出其加速器數量")):
        assert expected in narrative.render(figures, summary, config, lang).narrative


def test_tokens_the_official_table_labels_as_queries_are_shown_as_tokens(inference_tables, tmp_path):
    """v5.0's official table prints Llama 3.1 405B's tokens/s as Queries/s (the checker looked units up by
    folder name); the report says Tokens/s and its notes say what the official label was."""
    import pandas as pd

    frame = pd.read_csv(inference_tables / "inference-v4.1" / "results.csv", keep_default_na=False)
    llm = frame["metric"].str.contains("tokens_per_second")
    assert llm.any() and (~llm).any()
    frame.loc[llm, "unit"] = "Queries/s"
    (tmp_path / "inference-v4.1").mkdir()
    frame.to_csv(tmp_path / "inference-v4.1" / "results.csv", index=False)
    results = t.load_results(tmp_path, "inference-v4.1")
    assert set(results.loc[llm, "unit"]) == {"Tokens/s"} and set(results.loc[llm, "official_unit"]) == {"Queries/s"}
    assert (results.loc[~llm, "unit"] == results.loc[~llm, "official_unit"]).all()
    figures = {m: t.benchmark_facts(results, benchmark=m, division="closed", focus="Acme", round_id="inference-v4.1")
               for m in sorted(results.loc[results.division == "closed", "benchmark"].unique())}
    config = load_config().with_overrides(round="inference-v4.1", focus_submitter="Acme")
    notes = narrative.render(figures, t.round_facts(results, focus="Acme", round_id="inference-v4.1"), config,
                             "en").notes
    assert "labels the tokens-per-second results of GPT-J" in notes and "in Queries/s; this report" in notes
    untouched = narrative.render({m: t.benchmark_facts(t.load_results(inference_tables, "inference-v4.1"), benchmark=m,
                                                       division="closed", focus="Acme", round_id="inference-v4.1")
                                  for m in figures}, None, config, "en").notes
    assert "labels the tokens-per-second" not in untouched


def test_a_latency_in_seconds_reads_as_seconds_in_a_sentence():
    entry = {"submitter": "Acme", "system_id": "x8", "system_name": "Acme X8", "result": 20.603024726,
             "accelerators": 8, "accelerator_model": "A1", "category": "datacenter", "availability": "available"}
    fig = {"model": "wan-2.2-t2v-a14b", "division": "closed", "title": {"en": "Wan 2.2 T2V A14B"},
           "scenarios": [{"scenario": "SingleStream", "unit": "Latency (s)", "higher_is_better": False,
                          "results": 1, "best": entry}]}
    line = narrative.claims({"wan-2.2-t2v-a14b": fig}, None, "en")[0]
    assert "the best result is 20.603 s (Acme X8, Acme)" in line and "Latency" not in line


def test_one_submitter_and_one_benchmark_under_two_spellings(tmp_path, report_only_config):
    """Dell's systems JSONs say DELL and Dell, its ResNet folders resnet50 and resnet: the report has one
    submitter, Dell (its results folder), and one ResNet-50 section; the systems table keeps DELL."""
    import re

    import pandas as pd

    data = tmp_path / "data"
    source, facts = open_source(str(spellings_tree(tmp_path / "tree")))
    write_tables(ingest(source, facts, parse_round("inference-v4.1")), data / "inference-v4.1")
    results = t.load_results(data, "inference-v4.1")
    assert sorted(results["submitter"].unique()) == ["Acme", "Dell"]
    closed = results[results.division == "closed"]
    assert set(closed.loc[closed.model.isin(["resnet", "resnet50"]), "benchmark"]) == {"resnet"}
    assert results.loc[results.division == "open", "benchmark"].tolist() == ["bert-99"]
    assert {"DELL", "Dell"} <= set(pd.read_csv(data / "inference-v4.1" / "systems.csv")["submitter"])
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "build.py", "report", "--round", "inference-v4.1", "--focus", "Dell",
                           "--languages", "en", "--data-dir", str(data), "--output-dir", str(out), "-j", "2",
                           "--config", str(report_only_config)],
                          cwd=paths.ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    html = (out / "inference-v4.1" / "report.en.html").read_text()
    titles = [re.sub(r"<[^>]+>", "", t).strip() for t in re.findall(r"<h2\b[^>]*>(.*?)</h2>", html, re.S)]
    assert titles.count("ResNet-50") == 1 and len(titles) == len(set(titles)), titles
    assert "Exhibits" in titles and not any(t.startswith("BERT") for t in titles)  # Dell did not enter BERT
    # the story's headline leads; the counts follow its highlights, benchmarks and pairs told apart
    assert "DELL" not in html and html.index('mlperf-story-headline') < html.index(
        "Dell entered 2 valid results in 1 benchmark (1 benchmark-scenario pair) in MLPerf Inference v4.1")
    assert "bert-large-pruned80_quant-none-vnni-bert-99" in html  # the open variant, in the exhibits
    summary = html.split('id="sec-summary"')[1].split('id="sec-resnet"')[0]
    assert "Benchmarks Dell did not enter" in summary and "BERT" in summary  # the focus's gaps, in the summary


def test_inference_takes_the_three_focus_kinds(tmp_path, report_only_config):
    """A submitter, an accelerator (every system built on it, whoever submitted it) or none, as Training
    does: the plan follows what the focus entered, an absent accelerator is refused with the round's
    accelerators listed, and the built reports tell each focus's story."""
    import json

    from tests.inference_trees import inference_tree

    tree = inference_tree(tmp_path / "tree")
    chip = tree / "closed" / "Edgy" / "systems" / "e1.json"
    chip.write_text(json.dumps({**json.loads(chip.read_text()), "accelerator_model_name": "Edgy E-Chip"}))
    data = tmp_path / "data"
    source, facts = open_source(str(tree))
    write_tables(ingest(source, facts, parse_round("inference-v4.1")), data / "inference-v4.1")
    source.close()

    plan = pipeline.make_plan(round_id="inference-v4.1", data_dir=data, output_dir=tmp_path / "plan",
                              focus_accelerator="e-chip")
    assert [job.name for job in plan.jobs] == ["resnet", "summary"]  # what E-Chip systems entered
    assert {(job.parameters["focus_submitter"], job.parameters["focus_accelerator"]) for job in plan.jobs} == {("", "e-chip")}
    with pytest.raises(UserError, match=r"--focus-accelerator H100: no valid result in inference-v4.1 on the NVIDIA "
                                        r"H100 of data/accelerators.yaml; accelerators with valid results \(results\): "
                                        r"Acme A1 \(6\), Edgy E-Chip \(2\)"):
        pipeline.make_plan(round_id="inference-v4.1", data_dir=data, output_dir=tmp_path / "plan", focus_accelerator="H100")
    with pytest.raises(UserError, match=r"--focus-accelerator Zeta: no valid result in inference-v4.1 on an accelerator "
                                        r"whose model name contains it; accelerators with valid results"):
        pipeline.make_plan(round_id="inference-v4.1", data_dir=data, output_dir=tmp_path / "plan", focus_accelerator="Zeta")

    out = tmp_path / "out"
    for focus, expected in ((["--focus-accelerator", "E-Chip"], "<p>Systems built on the E-Chip were submitted in the closed"),
                            (["--focus", "none"], "MLPerf Inference v4.1: 8 valid results from 3 submitters")):
        done = subprocess.run([sys.executable, "build.py", "report", "--round", "inference-v4.1", *focus, "--languages", "en",
                               "--data-dir", str(data), "--output-dir", str(out), "-j", "2",
                               "--config", str(report_only_config)],
                              cwd=paths.ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]
        html = (out / "inference-v4.1" / "report.en.html").read_text()
        assert expected in html, re.findall(r"<h2[^>]*>.*?</h2>", html)[:3]
        if "--focus-accelerator" in focus:
            # no story to lead with: the counts are the heading
            assert "E-Chip in MLPerf Inference v4.1: 2 valid results in 1 benchmark (2 benchmark-scenario pairs)</h2>" in html
