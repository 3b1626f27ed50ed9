"""A kernel imports what every notebook imports before the first notebook, frozen out of the
collector's way; a module that cannot be imported then leaves the kernel alive and the notebook that
imports it fails with that module's own error."""

from __future__ import annotations

import nbformat
import papermill
import pytest

from mlperf_report.analysis import papermill_engine
from mlperf_report.core import paths


def _run(tmp_path, *sources, preload, cwd=None):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources], metadata={
        "kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}})
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    arguments = [f"--IPKernelApp.exec_lines={papermill_engine.kernel_startup(preload)}", "--HistoryManager.enabled=False"]
    try:
        papermill.execute_notebook(str(path), str(tmp_path / "out.ipynb"), kernel_name="python3", progress_bar=False,
                                   engine_name=papermill_engine.NAME, cwd=str(cwd or tmp_path), extra_arguments=arguments)
    finally:
        executed = nbformat.read(tmp_path / "out.ipynb", as_version=4)
    return ["".join(o.get("text", "") for o in cell.outputs) for cell in executed.cells if cell.cell_type == "code"]


def test_the_shared_imports_are_loaded_and_frozen_before_the_first_notebook(tmp_path):
    texts = _run(tmp_path, "import sys, gc\nprint(sorted(m for m in ('pandas', 'seaborn', 'mlperf_report.analysis.outputs')"
                 " if m in sys.modules), gc.get_freeze_count() > 50000, sys.modules['scipy'])",
                 preload=papermill_engine.PRELOAD, cwd=paths.ROOT)  # where the runner starts kernels
    assert texts == ["['mlperf_report.analysis.outputs', 'pandas', 'seaborn'] True None\n"]


def test_a_module_broken_at_startup_fails_the_notebook_with_its_own_error_in_a_live_kernel(tmp_path):
    (tmp_path / "broken_module.py").write_text("raise ValueError('broken on purpose')\n")
    with pytest.raises(papermill.PapermillExecutionError) as failure:
        _run(tmp_path, "print('alive')", "import broken_module", preload=("json", "broken_module", "no_such_module_x"))
    assert failure.value.ename == "ValueError" and "broken on purpose" in failure.value.evalue
    code = [c for c in nbformat.read(tmp_path / "out.ipynb", as_version=4).cells if c.cell_type == "code"]
    assert code[0].outputs[0]["text"] == "alive\n"  # the kernel started and ran the first cell


def test_an_empty_preload_still_starts_a_kernel(tmp_path):
    assert _run(tmp_path, "print('alive')", preload=()) == ["alive\n"]
