"""`build.py report --force` and `--fresh-kernels`, from the command line's options to the kernels:
the options are parsed by the report's own parser, the plan is made from them, and its jobs are
swapped for two tiny notebooks that print their kernel's process id (real papermill, real kernels,
one worker, so both notebooks go through the same worker one after the other)."""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from mlperf_report.analysis.jobs import NotebookJob
from mlperf_report.cli import report as pipeline
from mlperf_report.core import paths
from synthetic_round import write_tree

ROUND = "training-v1.0"


def _plan(tmp_path, *flags):
    data_dir, out = tmp_path / "data", tmp_path / "out"
    if not data_dir.exists():
        write_tree(data_dir)
    parser = argparse.ArgumentParser()
    pipeline.configure_parser(parser)
    args = parser.parse_args(["--round", ROUND, "--data-dir", str(data_dir), "--output-dir", str(out),
                              "--jobs", "1", "--languages", "en", *flags])
    plan = pipeline.plan_from_args(args)
    folder, figures = out / ROUND / "notebooks", out / ROUND / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    jobs = []
    for name in ("first", "second"):
        source = tmp_path / f"{name}.ipynb"  # prints its kernel's pid, writes its figures file
        code = f"import os\nprint(os.getpid())\nopen({str(figures / (name + '.json'))!r}, 'w').write('{{}}')"
        if not source.exists():  # written once: a rewritten notebook is a changed input
            nbformat.write(new_notebook(cells=[new_code_cell(code)],
                                        metadata={"kernelspec": {"name": "python3", "language": "python",
                                                                 "display_name": "Python 3"}}), source)
        jobs.append(NotebookJob(name=name, notebook=source, output=folder / f"{name}.ipynb",
                                figures=figures / f"{name}.json", parameters={}, inputs=(source,)))
    jobs = tuple(jobs)
    return dataclasses.replace(plan, jobs=jobs)


def _kernel_pids(plan) -> list[int]:
    return [int(nbformat.read(job.output, as_version=4).cells[0].outputs[0]["text"]) for job in plan.jobs]


def _run(plan) -> list[str]:
    return [result.status for result in pipeline.run_notebooks(plan, progress=lambda line: None)]


def test_one_kernel_per_worker_by_default_and_a_new_one_per_notebook_with_fresh_kernels(tmp_path):
    reused = _plan(tmp_path)
    assert not reused.fresh_kernels and _run(reused) == ["ok", "ok"]
    first, second = _kernel_pids(reused)
    assert first == second  # one kernel, reset between the notebooks

    fresh = _plan(tmp_path, "--fresh-kernels", "--force")
    assert fresh.fresh_kernels and _run(fresh) == ["ok", "ok"]
    first, second = _kernel_pids(fresh)
    assert first != second  # a kernel of its own for each notebook


def test_force_runs_notebooks_whose_inputs_have_not_changed(tmp_path):
    plan = _plan(tmp_path)
    assert not plan.force and _run(plan) == ["ok", "ok"]
    before = _kernel_pids(plan)
    assert _run(_plan(tmp_path)) == ["cached", "cached"]  # nothing changed: nothing runs ...
    assert _kernel_pids(plan) == before
    forced = _plan(tmp_path, "--force")
    assert forced.force and _run(forced) == ["ok", "ok"]  # ... unless forced: run again, in a new worker
    assert _kernel_pids(forced) != before


def test_force_on_the_command_line_runs_every_notebook_and_assembles_again(tmp_path, report_only_config):
    data_dir, out = write_tree(tmp_path / "data"), tmp_path / "out"

    def report(*extra):
        done = subprocess.run([sys.executable, "build.py", "report", "--round", ROUND, "--benchmarks", "resnet",
                               "--languages", "en", "--data-dir", str(data_dir), "--output-dir", str(out),
                               "--config", str(report_only_config), *extra],
                              cwd=paths.ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stderr

    assert "notebooks: 3 executed, 0 up to date" in report()  # resnet, summary, exhibits
    again = report()
    assert "notebooks: 0 executed, 3 up to date" in again and "reports: up to date" in again
    forced = report("--force")
    assert "notebooks: 3 executed, 0 up to date" in forced and "reports: up to date" not in forced


def test_force_assembles_again_reports_whose_inputs_have_not_changed(tmp_path, capsys):
    """The notebooks are up to date (not re-run, so not changed): only --force assembles again."""
    from mlperf_report.assemble.build import build_reports

    data_dir, out = write_tree(tmp_path / "data"), tmp_path / "out"
    plan = pipeline.make_plan(round_id=ROUND, benchmarks=["resnet"], data_dir=data_dir, output_dir=out,
                              languages=["en"], jobs=1)
    assert [r.status for r in pipeline.run_notebooks(plan, progress=lambda line: None)] == ["ok"] * 3
    results = pipeline.run_notebooks(plan, progress=lambda line: None)
    assert [r.status for r in results] == ["cached"] * 3
    options = dict(prices_file=paths.PRICES, config_file=paths.REPORT_CONFIG, languages=["en"])
    first = build_reports(plan, results, **options)
    pdf = out / ROUND / "report.en.pdf"
    built = pdf.stat().st_mtime_ns
    assert pdf in first and "reports: assembling en" in capsys.readouterr().err
    build_reports(plan, results, **options)
    assert "reports: up to date (en)" in capsys.readouterr().err and pdf.stat().st_mtime_ns == built
    build_reports(plan, results, force=True, **options)
    assert "reports: assembling en" in capsys.readouterr().err and pdf.stat().st_mtime_ns != built
