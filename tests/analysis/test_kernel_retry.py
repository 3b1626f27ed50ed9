"""A kernel that dies before the first cell ran (seen on a loaded 2-core machine) is replaced once, with
a progress line that says so; a notebook whose cells already ran is never re-run behind its back."""

from __future__ import annotations

import json
import queue
import sys

import nbformat
import pytest

from mlperf_report.analysis import runner
from mlperf_report.analysis.jobs import KERNEL, NotebookJob


def _notebook(path, *, executed: bool = False):
    cell = nbformat.v4.new_code_cell("answer = 6 * 7\nprint(answer)")
    if executed:
        cell.execution_count = 1
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
    return path


def _flaky_kernel(tmp_path, monkeypatch, deaths: int):
    """A real kernelspec named like ours whose kernel process exits at once the first ``deaths`` times."""
    counter = tmp_path / "starts"
    launcher = tmp_path / "launch.py"
    launcher.write_text(
        "import os, pathlib, sys\n"
        f"counter = pathlib.Path({str(counter)!r})\n"
        "starts = int(counter.read_text()) if counter.exists() else 0\n"
        "counter.write_text(str(starts + 1))\n"
        f"if starts < {deaths}:\n"
        "    sys.exit(1)\n"
        "os.execv(sys.executable, [sys.executable, '-m', 'ipykernel_launcher', *sys.argv[1:]])\n")
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, str(launcher), "-f", "{connection_file}"],
        "display_name": "dies at start", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    return counter


def _job(tmp_path):
    return NotebookJob(name="flaky", notebook=_notebook(tmp_path / "in.ipynb"), output=tmp_path / "out.ipynb",
                       figures=tmp_path / "flaky.json", parameters={}, inputs=())


def test_a_kernel_that_died_before_the_first_cell_is_replaced_once(tmp_path, monkeypatch):
    starts = _flaky_kernel(tmp_path, monkeypatch, deaths=1)
    events = queue.Queue()
    partial = tmp_path / "running.ipynb"
    runner._papermill(_job(tmp_path), partial, True, events)
    assert starts.read_text() == "2"
    outputs = nbformat.read(partial, as_version=4).cells[0].outputs
    assert outputs[0]["text"].strip() == "42"
    name, line, _ = events.get_nowait()
    assert name == "flaky" and line.startswith("retrying once with a fresh kernel: its kernel died before the first cell ran")


def test_a_kernel_that_dies_twice_fails_the_notebook(tmp_path, monkeypatch):
    starts = _flaky_kernel(tmp_path, monkeypatch, deaths=2)
    with pytest.raises(RuntimeError, match="Kernel died"):
        runner._papermill(_job(tmp_path), tmp_path / "running.ipynb", True, None)
    assert starts.read_text() == "2"  # one retry, no more


def test_only_a_death_before_any_cell_counts(tmp_path):
    died = RuntimeError("Kernel died before replying to kernel_info")
    assert runner.kernel_died_before_first_cell(died, tmp_path / "never-written.ipynb")
    assert runner.kernel_died_before_first_cell(died, _notebook(tmp_path / "fresh.ipynb"))
    assert not runner.kernel_died_before_first_cell(died, _notebook(tmp_path / "ran.ipynb", executed=True))
    assert not runner.kernel_died_before_first_cell(ValueError("bad parameter"), tmp_path / "never-written.ipynb")


def test_kernels_start_without_scipy_and_seaborn_still_imports(tmp_path):
    """The kernel startup keeps SciPy out (seaborn's optional import of it was most of seaborn's);
    seaborn must still import and draw with its own fallbacks."""
    notebook = tmp_path / "in.ipynb"
    cell = nbformat.v4.new_code_cell(
        "import sys, seaborn\n"
        "print(sys.modules.get('scipy'), seaborn.__name__, any(m.startswith('scipy.') for m in sys.modules))")
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), notebook)
    job = NotebookJob(name="startup", notebook=notebook, output=tmp_path / "out.ipynb",
                      figures=tmp_path / "startup.json", parameters={}, inputs=())
    partial = tmp_path / "running.ipynb"
    runner._papermill(job, partial, True, None)
    outputs = nbformat.read(partial, as_version=4).cells[0].outputs
    assert outputs[0]["text"].strip() == "None seaborn False"
