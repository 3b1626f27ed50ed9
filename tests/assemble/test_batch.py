"""Round day's batch: ``report --focus-each`` builds one report per focus in one run (one runner call,
one pool of warm kernels), each in its own output folder, with an index page linking every report and
its headline; a second run finds everything up to date."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from mlperf_report.assemble import batch
from mlperf_report.core import paths
from mlperf_report.core.config import Focus


def test_the_focuses_of_a_round():
    entrants = [{"submitter": "NVIDIA", "accelerator_model": "H100"}, {"submitter": "dell", "accelerator_model": "H100"},
                {"submitter": "Google", "accelerator_model": "TPU v5p"}, {"submitter": "NVIDIA", "accelerator_model": ""}]
    assert batch.focuses(entrants, "submitters") == [Focus("submitter", "dell"), Focus("submitter", "Google"),
                                                     Focus("submitter", "NVIDIA")]
    assert batch.focuses(entrants, "accelerators") == [Focus("accelerator", "H100"), Focus("accelerator", "TPU v5p")]
    assert batch.focuses(entrants, "Dell, accelerator:H100,none,Dell") == [
        Focus("submitter", "Dell"), Focus("accelerator", "H100"), Focus("none", "")]
    assert [batch.slug(f) for f in batch.focuses(entrants, "Dell,accelerator:TPU v5p,none")] == [
        "dell", "accelerator-tpu-v5p", "none"]
    by_benchmark = [{**row, "benchmark": b} for row, b in zip(entrants, ["bert", "resnet", "bert", "ssd"])]
    assert batch.focuses(by_benchmark, "submitters", ["bert"]) == [Focus("submitter", "Google"),
                                                                    Focus("submitter", "NVIDIA")]
    assert batch.focuses(by_benchmark, "accelerators", ["resnet", "ssd"]) == [Focus("accelerator", "H100")]


def test_a_batch_of_some_benchmarks_takes_the_submitters_of_those(training_tables, tmp_path):
    """``--focus-each submitters --benchmarks bert``: the submitters of BERT, not every submitter of the
    round (Acme entered ResNet only and has nothing to report there; planning it stopped the batch)."""
    out = tmp_path / "out"
    done = _batch(training_tables, out, "--focus-each", "submitters", "--benchmarks", "bert", "--no-assemble")
    assert done.returncode == 0, done.stderr[-2000:]
    import csv

    with (training_tables / "training-v1.0" / "results.csv").open(newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["status"] == "ok"]
    expected = {r["submitter"] for r in rows if r["benchmark"] == "bert"}
    assert expected < {r["submitter"] for r in rows}  # some submitter of the round did not enter BERT
    built = {p.name for p in (out / "training-v1.0" / "focus").iterdir()}
    assert built == {batch.slug(Focus("submitter", name)) for name in expected}


def _batch(data_dir, out, *extra):
    return subprocess.run([sys.executable, "build.py", "report", "--round", "training-v1.0", "--languages", "en",
                           "--data-dir", str(data_dir), "--output-dir", str(out), "-j", "2", *extra],
                          cwd=paths.ROOT, capture_output=True, text=True)


def test_one_command_builds_every_focus_s_report_and_an_index(training_tables, tmp_path):
    out = tmp_path / "out"
    done = _batch(training_tables, out, "--focus-each", "Graphcore,accelerator:A100")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "batch training-v1.0: 2 focuses" in done.stderr
    assert re.search(r"focus 1/2 Graphcore: \d+ files", done.stderr) and "focus 2/2 A100" in done.stderr
    assert done.stderr.count("notebooks: ") == 1  # one runner call for the whole batch
    # the focus-free exhibits ran once for both focuses; every focus-dependent notebook once per focus
    progress = [line.split() for line in done.stderr.splitlines()]
    ran = [words[0] for words in progress if len(words) == 2 and words[1] == "running"]
    assert ran.count("exhibits") == 1  # named after its focus, each other notebook:
    assert sorted(name for name in ran if name.endswith("/resnet")) == ["accelerator-a100/resnet", "graphcore/resnet"]
    assert len([name for name in ran if name.endswith("/summary")]) == 2
    assert "(1 shared by every focus)" in done.stderr
    round_out = out / "training-v1.0"
    assert (round_out / "notebooks" / "exhibits.ipynb").is_file()
    assert not list((round_out / "focus").glob("*/training-v1.0/notebooks/exhibits.ipynb"))
    graphcore = (round_out / "focus" / "graphcore" / "training-v1.0" / "report.en.html").read_text()
    a100 = (round_out / "focus" / "accelerator-a100" / "training-v1.0" / "report.en.html").read_text()
    lead = [re.sub(r"<[^>]+>", "", html.split('id="sec-highlights"')[1])[:800] for html in (graphcore, a100)]
    assert "Graphcore" in lead[0] and "A100" in lead[1] and lead[0] != lead[1]
    # each report shows its own focus's charts (results were once keyed by notebook name: both reports
    # then showed the last focus's notebooks) and the same shared exhibits
    resnet, exhibits = ([re.split(r'<section[^>]*id="sec-', html.split(f'id="{sid}"')[1])[0] for html in (graphcore, a100)]
                        for sid in ("sec-resnet", "sec-exhibits"))
    assert resnet[0] != resnet[1] and exhibits[0] == exhibits[1] and "every result" in exhibits[0]
    index = (round_out / "index.html").read_text()
    links = re.findall(r'href="([^"]+)"', index)
    first_card = {"graphcore": "01-price-ahead-resnet", "accelerator-a100": "01-ecosystem-partners"}
    assert links == [f"focus/{slug}/training-v1.0/{name}" for slug in ("graphcore", "accelerator-a100")
                     for name in ("report.en.html", "report.en.pdf", "exhibits.en.pdf", "results.xlsx", "slides.en.pptx",
                                  "brief.en.pdf", f"cards/{first_card[slug]}.en.png")]
    assert all((round_out / link).is_file() for link in links)
    assert "<th>Graphcore</th>" in index and "<th>A100</th>" in index and "MLCommons" in index

    again = _batch(training_tables, out, "--focus-each", "Graphcore,accelerator:A100")
    assert again.returncode == 0 and re.search(r"notebooks: 0 executed, \d+ up to date", again.stderr)
    assert again.stderr.count("reports: up to date") == 2


def test_a_batch_takes_no_single_focus(training_tables, tmp_path):
    done = _batch(training_tables, tmp_path, "--focus-each", "submitters", "--focus", "NVIDIA")
    assert done.returncode == 2 and "--focus-each builds one report per focus" in done.stderr


@pytest.mark.parametrize("each", ["Nobody"])
def test_a_focus_absent_from_the_round_stops_the_batch_before_any_kernel(training_tables, tmp_path, each):
    done = _batch(training_tables, tmp_path / "out", "--focus-each", f"Graphcore,{each}")
    assert done.returncode == 2 and f"--focus {each}: no scored result" in done.stderr
    assert not (tmp_path / "out" / "training-v1.0" / "focus" / "graphcore" / "training-v1.0" / "notebooks").exists() \
        or not any((tmp_path / "out" / "training-v1.0" / "focus" / "graphcore" / "training-v1.0" / "notebooks").glob("*.ipynb"))


def test_no_assemble_runs_every_focus_s_notebooks_only(training_tables, tmp_path):
    out = tmp_path / "out"
    done = _batch(training_tables, out, "--focus-each", "Graphcore,NVIDIA", "--no-assemble")
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ("graphcore", "nvidia"):
        folder = out / "training-v1.0" / "focus" / name / "training-v1.0"
        assert (folder / "notebooks" / "summary.ipynb").is_file() and not list(folder.glob("report.*"))
    assert not (out / "training-v1.0" / "index.html").exists()
