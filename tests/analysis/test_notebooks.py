"""The notebooks: parameters match what build.py passes; the benchmark notebook, executed for real by
papermill on a tiny synthetic tree, shows every chart and table in every language and writes the
figures.json the narrative reads, identical to what the package computes in-process."""

import json

import nbformat
import papermill
import pytest

from mlperf_report.suites.training import context
from mlperf_report.suites.training import charts
from mlperf_report.analysis import figures as shared_figures
from mlperf_report.core import paths
from mlperf_report.cli import report
from mlperf_report.analysis import outputs as nb_outputs

CHARTS = ["time_to_train", "scaling", "perf_per_dollar", "run_spread", "round_over_round"]
TABLES = ["equal_scale"]
LANGS = ["en", "zh-Hant"]


@pytest.fixture(scope="module")
def plan(training_tables, tmp_path_factory):
    return report.make_plan(round_id="training-v1.0", data_dir=training_tables, output_dir=tmp_path_factory.mktemp("out"))


@pytest.fixture(scope="module")
def inference_plan(tmp_path_factory):
    """The plan of an Inference round with an open-division variant, so it has the exhibits notebook
    too (its notebooks are checked the same way)."""
    from mlperf_report.core.sources import open_source
    from mlperf_report.suites.inference.ingest import ingest, write_tables
    from mlperf_report.suites.inference.rounds import parse_round
    from tests.inference_trees import spellings_tree

    root = tmp_path_factory.mktemp("inference")
    source, facts = open_source(str(spellings_tree(root / "tree")))
    write_tables(ingest(source, facts, parse_round("inference-v4.1")), root / "data" / "inference-v4.1")
    return report.make_plan(round_id="inference-v4.1", data_dir=root / "data", output_dir=root / "out",
                            focus_submitter="Dell")


@pytest.mark.parametrize("notebook", sorted(paths.NOTEBOOKS.glob("*/*.ipynb")), ids=lambda p: p.name)
def test_parameters_match_what_build_py_passes(notebook, plan, inference_plan):
    declared = papermill.inspect_notebook(str(notebook))
    jobs = [job for job in plan.jobs + inference_plan.jobs if job.notebook == notebook]
    assert jobs, f"build.py never runs {notebook.name}"
    for job in jobs:
        assert set(job.parameters) == set(declared), f"{notebook.name}: passed {sorted(job.parameters)}, declared {sorted(declared)}"
    for name, spec in declared.items():
        assert spec["inferred_type_name"] != "None" and spec["help"], f"{notebook.name}: {name} needs a type and a comment"
    report.check_parameters(jobs)  # the same check build.py makes before any kernel starts


def test_parameters_cell_and_presentation_tags():
    for notebook in paths.NOTEBOOKS.glob("*/*.ipynb"):
        nb = nbformat.read(notebook, as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert sum("parameters" in c.metadata.get("tags", []) for c in code) == 1
        assert all({"remove-input", "remove-cell"} & set(c.metadata.get("tags", [])) for c in code), notebook.name
        assert all(len(c.source.splitlines()) <= 25 for c in code), f"{notebook.name}: a long cell is a function waiting to be written"
        assert all(not c.get("outputs") for c in code), f"{notebook.name}: commit notebooks without outputs"


@pytest.fixture(scope="module")
def executed(plan, tmp_path_factory):
    """Run the resnet notebook once with exactly the parameters build.py would pass."""
    job = next(j for j in plan.jobs if j.name == "resnet")
    out = tmp_path_factory.mktemp("nb") / "resnet.ipynb"
    papermill.execute_notebook(str(job.notebook), str(out), parameters=job.parameters, kernel_name="python3",
                               progress_bar=False, cwd=str(paths.ROOT))
    return job, nbformat.read(out, as_version=4)


def tagged_outputs(nb):
    found = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            meta = output.get("metadata", {}).get("mlperf_report")
            if meta:
                kind = "chart" if "chart" in meta else "table"
                found[(kind, meta[kind], meta["lang"])] = output
    return found


def test_every_chart_and_table_in_every_language(executed):
    _, nb = executed
    found = tagged_outputs(nb)
    for lang in LANGS:
        for name in CHARTS:
            output = found[("chart", name, lang)]
            assert output["data"]["image/svg+xml"].lstrip().startswith("<?xml")
            assert "label_lang" not in output["metadata"]["mlperf_report"]  # the CJK font was there
        for name in TABLES:
            assert "<table" in found[("table", name, lang)]["data"]["text/html"]
    assert not [o for c in nb.cells for o in c.get("outputs", []) if o.get("name") == "stderr"], "no warnings in the record"


def test_the_exhibits_show_every_benchmark_s_results_whatever_the_focus(plan, tmp_path):
    """The closing exhibits take no focus (a batch shares them): every entry of every benchmark, scored
    or not, under the benchmark's full name, in both languages."""
    job = next(j for j in plan.jobs if j.name == "exhibits")
    assert job.shared and not {"focus_submitter", "focus_accelerator", "config_file"} & set(job.parameters)
    out = tmp_path / "exhibits.ipynb"
    papermill.execute_notebook(str(job.notebook), str(out), parameters=job.parameters, kernel_name="python3",
                               progress_bar=False, cwd=str(paths.ROOT))
    found = tagged_outputs(nbformat.read(out, as_version=4))
    benchmarks = job.parameters["benchmarks"]
    assert len(benchmarks) >= 2 and all(("table", f"results_{b}", lang) in found for b in benchmarks for lang in LANGS)
    results_en = found[("table", "results_resnet", "en")]["data"]["text/html"]
    assert "Graphcore IPU-POD16" in results_en and "NVIDIA DGX A100 640GB" in results_en
    assert "incomplete: 1 of 5 runs present" in results_en  # unscored entries listed with the reason
    assert "封閉" in found[("table", "results_resnet", "zh-Hant")]["data"]["text/html"]
    assert found[("table", "results_heading_resnet", "en")]["data"]["text/plain"] == \
        "Image Classification (ResNet-50 v1.5): every result"
    assert "全部成績" in found[("table", "results_heading_resnet", "zh-Hant")]["data"]["text/plain"]
    assert json.loads(job.figures.read_text())["benchmarks"]["resnet"] >= 2


def test_figures_json_is_the_contract_and_matches_the_package(executed, training_tables):
    job, nb = executed
    text = job.figures.read_text(encoding="utf-8")
    got = json.loads(text)
    assert list(got) == ["round", "benchmark", "benchmark_title", "benchmark_model", "focus_submitter", "focus_kind",
                         "focus_name", "fastest", "focus", "baseline", "baseline_rule", "perf_per_dollar", "equal_scale",
                         "scales", "previous_round", "unscored", "official_times"]
    assert got["official_times"] == [] and got["baseline"]["official_factor"] is None
    assert got["baseline_rule"]["used"] == "pinned" and got["equal_scale"] is None  # priced: perf/$ instead
    assert [(s["accelerators"], s["systems"], s["focus_position"]) for s in got["scales"]] == [
        (4, 1, None), (8, 1, None), (16, 1, 1), (64, 2, 2)]
    assert got["baseline"]["system_id"] == "dgxa100_ngc21.05_mxnet" and got["baseline"]["minutes"] == 28.77
    assert [r["minutes"] for r in got["focus"]["closed"]] == [14.48, 37.12]
    [ppd] = got["perf_per_dollar"]
    assert round(ppd["ratio"], 2) == 1.55 and ppd["price"]["amount"] == 149995 and ppd["baseline_price"]["amount"] == 300000
    assert ppd["price"]["source"] and ppd["baseline_price"]["date"] == "2021-06-30"
    assert got["previous_round"] == {"round": "training-v0.7", "division": "closed", "focus_best": None,
                                     "this_best": got["focus"]["closed"][0], "speedup": None}
    assert got["unscored"][0]["status_detail"] == "incomplete: 1 of 5 runs present"
    # same inputs, other process: byte-identical figures and charts
    a = context.load_benchmark(**{k: job.parameters[k] for k in ("round_id", "benchmark", "division", "focus_submitter",
                                                                  "focus_accelerator", "baseline_system", "data_dir", "prices_file", "config_file")})
    assert shared_figures.to_json(a.figures()) == text
    svg = nb_outputs.chart_svg(charts.time_to_train, lang="zh-Hant", rows=len(a.scored), data=a.scored,
                               colours=charts.result_colours(a.scored, focus=a.focus_keys, baseline=a.baseline_key),
                               benchmark=a.title)
    assert svg == tagged_outputs(nb)[("chart", "time_to_train", "zh-Hant")]["data"]["image/svg+xml"]
