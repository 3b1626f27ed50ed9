"""build.py report: the plan fails before any kernel starts; a failing notebook is named with its cell
and exception while the others still run; an unchanged rebuild is a no-op under a second."""

import csv
import json
import shutil
import subprocess
import sys
import time

import nbformat
import pytest

from mlperf_report.core import paths
from mlperf_report.cli import report as pipeline
from mlperf_report.analysis import runner, stamps
from mlperf_report.core.errors import InputError, UserError
from synthetic_round import write_tree


def plan_for(fresh_training_tables, out, **options):
    return pipeline.make_plan(round_id="training-v1.0", data_dir=fresh_training_tables, output_dir=out, **options)


def test_plan_one_notebook_per_scored_benchmark_plus_summary(fresh_training_tables, tmp_path):
    plan = plan_for(fresh_training_tables, tmp_path / "out", jobs=3)
    assert [job.name for job in plan.jobs] == ["bert", "resnet", "summary", "exhibits"]
    assert [job.shared for job in plan.jobs] == [False, False, False, True]  # the exhibits take no focus
    assert plan.workers == 3
    resnet = plan.jobs[1]
    assert resnet.output == tmp_path / "out" / "training-v1.0" / "notebooks" / "resnet.ipynb"
    assert resnet.figures == tmp_path / "out" / "training-v1.0" / "figures" / "resnet.json"
    assert resnet.parameters["baseline_system"] == "NVIDIA/dgxa100_ngc21.05_mxnet"
    assert resnet.parameters["languages"] == ["en", "zh-Hant"]
    assert fresh_training_tables / "training-v0.7" / "results.csv" in resnet.inputs  # round over round reads it
    assert pipeline.make_plan(round_id="training-v1.0", data_dir=fresh_training_tables, output_dir=tmp_path).workers >= 1


def test_plan_errors_name_the_fix(fresh_training_tables, tmp_path):
    with pytest.raises(UserError, match=r"--benchmarks: ssd has no scored result in training-v1.0; must be among bert, resnet"):
        plan_for(fresh_training_tables, tmp_path, benchmarks=["ssd"])
    with pytest.raises(InputError, match=r"training-v1.1/results.csv: not found; run `python build.py ingest"):
        pipeline.make_plan(round_id="training-v1.1", data_dir=fresh_training_tables, output_dir=tmp_path)
    with pytest.raises(InputError, match="not supported"):
        plan_for(fresh_training_tables, tmp_path, languages=["fr"])
    bad_prices = tmp_path / "prices.yaml"
    bad_prices.write_text("systems:\n  - {pattern: 'x*', price: {amount: 1, currency: USD, date: '2021-01-01'}}\n")
    with pytest.raises(InputError, match="a price needs a source"):
        plan_for(fresh_training_tables, tmp_path, prices_file=bad_prices)


def test_parameter_mismatch_fails_before_any_kernel(fresh_training_tables, tmp_path):
    plan = plan_for(fresh_training_tables, tmp_path / "out", benchmarks=["resnet"])
    job = plan.jobs[0]
    renamed = type(job)(**{**job.__dict__, "parameters": {**job.parameters, "colour": "red"}})
    with pytest.raises(UserError, match=r"benchmark.ipynb \(resnet\): unknown parameter\(s\) colour"):
        pipeline.check_parameters([renamed])
    short = {k: v for k, v in job.parameters.items() if k != "division"}
    with pytest.raises(UserError, match=r"parameter\(s\) division not passed"):
        pipeline.check_parameters([type(job)(**{**job.__dict__, "parameters": short})])


def test_hash_covers_data_prices_parameters_and_package_code(fresh_training_tables, tmp_path):
    prices = tmp_path / "prices.yaml"
    shutil.copy(paths.PRICES, prices)
    job = plan_for(fresh_training_tables, tmp_path / "out", benchmarks=["resnet"], prices_file=prices).jobs[0]
    before = stamps.input_hash(job)
    assert stamps.input_hash(job) == before
    found = stamps.package_modules(job.notebook)
    modules = {str(p.relative_to(paths.ROOT / "mlperf_report")) for p in found}
    assert {"suites/training/charts.py", "suites/training/metrics.py", "core/prices.py", "analysis/style.py",
            "i18n/fonts.py", "analysis/figures.py", "analysis/__init__.py", "core/__init__.py"} <= modules
    assert not any(m.startswith("suites/inference/") for m in modules)  # Inference code never stales Training
    assert "analysis/runner.py" not in modules and not any(m.startswith("cli/") for m in modules)  # not used by the notebook
    with prices.open("a") as handle:
        handle.write("\n# a comment is a change too\n")
    assert stamps.input_hash(job) != before
    config = tmp_path / "report.yaml"
    config.write_text(paths.REPORT_CONFIG.read_text() + "\n")
    job = type(job)(**{**job.__dict__, "parameters": {**job.parameters, "config_file": str(config)},
                       "inputs": tuple(config if p == paths.REPORT_CONFIG else p for p in job.inputs)})
    with_config = stamps.input_hash(job)
    config.write_text(paths.REPORT_CONFIG.read_text().replace("default_list:", "default_list:  ") + "# mail only\n")
    assert stamps.input_hash(job) == with_config  # the mail section is not the notebooks' business
    config.write_text(paths.REPORT_CONFIG.read_text().replace("focus_submitter: Graphcore", "focus_submitter: NVIDIA"))
    assert stamps.input_hash(job) != with_config
    other = type(job)(**{**job.__dict__, "parameters": {**job.parameters, "division": "open"}})
    assert stamps.input_hash(other) != stamps.input_hash(job)


def break_runs_table(fresh_training_tables):
    """runs.csv without its time column: the benchmark notebook fails, the summary (results only) does not."""
    path = fresh_training_tables / "training-v1.0" / "runs.csv"
    rows = list(csv.DictReader(path.open()))
    fields = [f for f in rows[0] if f != "time_to_train_min"]
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def test_failing_notebook_is_named_others_run_and_a_fixed_rerun_is_then_a_no_op(fresh_training_tables, tmp_path):
    out = tmp_path / "out"
    break_runs_table(fresh_training_tables)
    plan = plan_for(fresh_training_tables, out, benchmarks=["resnet"], languages=["en"])
    lines = []
    results = pipeline.run_notebooks(plan, progress=lines.append)
    resnet, summary, exhibits = results
    assert (resnet.status, summary.status, exhibits.status) == ("failed", "ok", "ok")
    assert "notebook benchmark.ipynb (resnet) failed in cell" in resnet.error
    assert "KeyError: 'time_to_train_min'" in resnet.error and "run_spread" in resnet.error  # the cell's source
    assert str(resnet.notebook) in resnet.error
    partial = nbformat.read(resnet.notebook, as_version=4)  # kept, with the charts drawn before the failure
    shown = [o["metadata"]["mlperf_report"]["chart"] for c in partial.cells for o in c.get("outputs", [])
             if "chart" in o.get("metadata", {}).get("mlperf_report", {})]
    assert shown == ["time_to_train", "scaling", "perf_per_dollar"]
    injected = [c for c in partial.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert len(injected) == 1 and "remove-input" in injected[0].metadata["tags"]
    assert not resnet.figures.exists() and not plan.jobs[0].stamp.exists()
    assert json.loads(summary.figures.read_text())["round"] == "training-v1.0"
    assert any("resnet" in line and "FAILED" in line for line in lines)
    assert runner.summarize(results, 1.0) == 1
    assert not list((out / "training-v1.0" / "notebooks").glob(".*.running.ipynb"))

    write_tree(fresh_training_tables)  # fixed: only the failed notebook runs again
    lines.clear()
    started = []  # the build starts its assembling processes then (report_pools.warm_pool)
    again = pipeline.run_notebooks(plan, progress=lines.append, when_running=lambda: started.append(len(lines)))
    assert [r.status for r in again] == ["ok", "cached", "cached"]
    assert started and "running" not in " ".join(lines[:started[0]]) and len(started) == 1
    assert any(line.split() == ["resnet", "queued", "(no", "stamp", "from", "a", "finished", "run)"] for line in lines)
    with (fresh_training_tables / "training-v1.0" / "runs.csv").open("a") as handle:
        handle.write("\n")
    resnet_job = plan.jobs[0]
    assert stamps.stale_reason(resnet_job, stamps.input_digests(resnet_job)).endswith("training-v1.0/runs.csv")
    write_tree(fresh_training_tables)
    assert [r.status for r in pipeline.run_notebooks(plan, progress=lines.append, when_running=lambda: started.append(0))
            ] == ["cached"] * 3
    assert len(started) == 1  # nothing ran: no assembling process started either

    cli = subprocess.run([sys.executable, "build.py", "report", "--round", "training-v1.0", "--benchmarks", "resnet",
                          "--languages", "en", "--data-dir", str(fresh_training_tables), "--output-dir", str(out), "--no-assemble"],
                         cwd=paths.ROOT, capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    assert "0 executed, 3 up to date" in cli.stderr  # speed of this no-op: bench/notebooks_speed.py


def test_a_reused_kernel_is_reset_between_notebooks(tmp_path):
    """One kernel per worker: the second notebook runs in the same process, but sees nothing the first
    assigned and counts its cells from 1, as in a fresh kernel."""
    import papermill
    from nbformat.v4 import new_code_cell, new_notebook

    from mlperf_report.analysis import papermill_engine

    def notebook(name, *sources):
        nb = new_notebook(cells=[new_code_cell(s) for s in sources],
                          metadata={"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}})
        path = tmp_path / name
        nbformat.write(nb, path)
        return path

    first = notebook("first.ipynb", "leak = 1", "import os; pid = os.getpid(); print(pid)")
    second = notebook("second.ipynb", "import os; print(os.getpid())", "assert 'leak' not in globals(), 'state leaked'")
    try:
        runs = []
        for path in (first, second):
            km = papermill_engine.worker_kernel("python3")
            papermill.execute_notebook(str(path), str(path.with_suffix(".out.ipynb")), kernel_name="python3",
                                       progress_bar=False, engine_name=papermill_engine.NAME, km=km)
            runs.append(nbformat.read(path.with_suffix(".out.ipynb"), as_version=4))
    finally:
        papermill_engine.shutdown_kernels()
    pids = [run.cells[1 if i == 0 else 0].outputs[0]["text"].strip() for i, run in enumerate(runs)]
    assert pids[0] == pids[1]  # the same kernel process...
    assert [c.execution_count for c in runs[1].cells] == [1, 2]  # ...reset: counts from 1, no leaked names


def test_a_kept_kernel_connection_takes_only_its_own_notebooks_outputs_and_a_dead_kernel_is_replaced(tmp_path):
    """The worker keeps its client connected from one notebook to the next: a message the kernel sends
    between two notebooks (here a line a thread of the first prints after its cell finished) waits on
    the kept connection and never lands in the second notebook; a kernel killed between notebooks is
    replaced (new process, new connection) rather than waited on."""
    import os
    import signal

    import papermill
    from nbformat.v4 import new_code_cell, new_notebook

    from mlperf_report.analysis import papermill_engine

    def notebook(name, *sources):
        nb = new_notebook(cells=[new_code_cell(s) for s in sources],
                          metadata={"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}})
        nbformat.write(nb, tmp_path / name)
        return tmp_path / name

    def run(path):
        km = papermill_engine.worker_kernel("python3")
        out = path.with_suffix(".out.ipynb")
        papermill.execute_notebook(str(path), str(out), kernel_name="python3", progress_bar=False,
                                   engine_name=papermill_engine.NAME, km=km)
        return km, nbformat.read(out, as_version=4)

    late = notebook("late.ipynb", "import threading; threading.Timer(0.3, print, ['LATE']).start(); print('early')")
    quiet = notebook("quiet.ipynb", "print('second')", "import os; print(os.getpid())")
    try:
        km_first, first = run(late)
        time.sleep(1.5)  # the late line is sent now, between the two notebooks
        km_second, second = run(quiet)
        assert km_second is km_first  # the same kernel, reached over the kept connection
        texts = ["".join(o.get("text", "") for o in c.outputs) for c in second.cells]
        assert texts[0] == "second\n", texts  # the first notebook's late line is not the second's output
        os.kill(int(texts[1]), signal.SIGKILL)  # the kernel dies between notebooks
        km_third, third = run(quiet)
        assert km_third is not km_first
        assert third.cells[1].outputs[0]["text"].strip() != texts[1]  # a new kernel process
    finally:
        papermill_engine.shutdown_kernels()


def test_a_changed_translation_or_catalogue_makes_the_notebooks_that_read_it_stale(fresh_training_tables, tmp_path,
                                                                                     monkeypatch):
    from mlperf_report.i18n import catalogue
    from mlperf_report.assemble import formats, report_stamp

    job = plan_for(fresh_training_tables, tmp_path / "out", benchmarks=["resnet"]).jobs[0]
    digests = stamps.input_digests(job)
    assert {"locale/zh_Hant/LC_MESSAGES/messages.po", "data/benchmarks.yaml"} <= set(digests)
    assert not any("suites/inference/" in name or "mlperf_report/mail/" in name for name in digests)
    assembled = {str(p.relative_to(paths.ROOT)) for p in report_stamp.report_inputs(
        type("P", (), {"round_id": "training-v1.0"})(), [], paths.PRICES, paths.REPORT_CONFIG, tuple(formats.BUILT_IN))}
    assert "locale/zh_Hant/LC_MESSAGES/messages.po" in assembled and "templates/report.css" in assembled
    assert not any(name.startswith("mlperf_report/mail/") or name.startswith("mlperf_report/cli/") for name in assembled)

    # a translation edited in a copy of the catalogues (the repository's are never touched)
    locale = tmp_path / "locale"
    shutil.copytree(paths.LOCALE, locale)
    monkeypatch.setattr(catalogue, "DATA_INPUTS", (locale,))
    stamps._declared.cache_clear()
    before = stamps.input_digests(job)
    po = locale / "zh_Hant" / "LC_MESSAGES" / "messages.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "加速器"', 'msgstr "加速晶片"', 1), encoding="utf-8")
    assert stamps.stale_reason(_stamped(job, before), stamps.input_digests(job)) == f"changed: {po}"
    stamps._declared.cache_clear()


def _stamped(job, digests):
    """The job with its output, figures and a stamp of ``digests`` in place, as a finished run leaves it."""
    for path in (job.output, job.figures):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
    stamps.write_stamp(job, digests)
    return job


def test_a_module_s_imports_are_remembered_by_path_time_and_size(tmp_path, monkeypatch):
    """The no-op rebuild parses no module: import lists are kept across builds, and an edited module
    (another modification time or size) is parsed again."""
    module = tmp_path / "m.py"
    module.write_text("from mlperf_report.analysis import style\n")
    known: dict = {}
    monkeypatch.setattr(stamps, "_import_cache", lambda: known)
    assert stamps._imports_of(stamps._file_key(module)) == ("analysis.style",)
    assert known[str(module)][2] == ["analysis.style"]
    module.write_text("import mlperf_report.core.paths\nfrom mlperf_report.narrative import story_text\n")
    assert stamps._imports_of(stamps._file_key(module)) == ("core.paths", "narrative.story_text")
    known[str(module)][2] = ["remembered"]  # same file, same key: the remembered list, not a parse
    stamps._imports_of.cache_clear()
    assert stamps._imports_of(stamps._file_key(module)) == ("remembered",)
    stamps._imports_of.cache_clear()
