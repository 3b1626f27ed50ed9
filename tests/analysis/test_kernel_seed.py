"""A worker's kept kernel starts from its seed (a copy of the worker, which has what kernels import
already): the notebook runs as in any kernel, in a session of its own, a child of its worker that
reads the kernel's environment; with ``--fresh-kernels``, or on a jupyter_client it was not checked
with, kernels start as new Pythons, as before."""

from __future__ import annotations

import json

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from mlperf_report.analysis import kernel_seed, runner
from mlperf_report.analysis.jobs import NotebookJob, Plan

_PROBE = ("import json, os, sys\n"
          "print(json.dumps({'seeded': os.environ.get('%s'), 'pid': os.getpid(), 'parent': os.getppid(),\n"
          "                  'session': os.getsid(0), 'jpy_parent': os.environ.get('JPY_PARENT_PID'),\n"
          "                  'cwd': os.getcwd(), 'pandas': 'pandas' in sys.modules}))"
          % kernel_seed.MARK)


def _plan(tmp_path, *, fresh: bool, count: int = 2) -> Plan:
    jobs = []
    for i in range(count):
        notebook = tmp_path / f"probe{i}.ipynb"
        nbformat.write(new_notebook(cells=[new_code_cell(_PROBE)], metadata={
            "kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}}), notebook)
        jobs.append(NotebookJob(name=f"probe{i}", notebook=notebook, output=tmp_path / "out" / f"probe{i}.ipynb",
                                figures=tmp_path / "out" / f"probe{i}.json", parameters={}, inputs=()))
    (tmp_path / "out").mkdir(exist_ok=True)
    return Plan(round_id="training-v1.0", jobs=tuple(jobs), workers=2, force=True, output_dir=tmp_path / "built",
                fresh_kernels=fresh)


def _probes(results) -> list[dict]:
    assert [r.status for r in results] == ["ok"] * len(results), [r.error for r in results]
    return [json.loads(nbformat.read(r.notebook, as_version=4).cells[0].outputs[0]["text"]) for r in results]


@pytest.mark.skipif(not kernel_seed.usable(), reason="no fork, or a jupyter_client not checked")
def test_a_kept_kernel_starts_from_its_worker_s_seed(tmp_path):
    (tmp_path / "built" / "training-v1.0" / "notebooks").mkdir(parents=True)
    probes = _probes(runner.run_notebooks(_plan(tmp_path, fresh=False), progress=lambda line: None))
    for probe in probes:
        assert probe["seeded"] == "1" and probe["pandas"]  # imported before it started
        assert probe["session"] == probe["pid"]  # a session of its own, as jupyter_client starts kernels
        assert probe["jpy_parent"] == str(probe["parent"])  # its worker, whom ipykernel watches
        assert probe["cwd"] == str(runner.paths.ROOT)


def test_fresh_kernels_and_an_unchecked_jupyter_client_start_new_pythons(tmp_path, monkeypatch):
    (tmp_path / "built" / "training-v1.0" / "notebooks").mkdir(parents=True)
    fresh = _probes(runner.run_notebooks(_plan(tmp_path, fresh=True, count=1), progress=lambda line: None))
    monkeypatch.setattr(kernel_seed, "CHECKED", ())
    kept = _probes(runner.run_notebooks(_plan(tmp_path, fresh=False, count=1), progress=lambda line: None))
    assert [p["seeded"] for p in fresh + kept] == [None, None]


def test_only_this_python_s_ipykernel_goes_to_the_seed():
    import sys

    assert kernel_seed._kernel_arguments([sys.executable, "-Xfrozen_modules=off", "-m", "ipykernel_launcher",
                                          "-f", "c.json"]) == ["-f", "c.json"]
    assert kernel_seed._kernel_arguments(["/usr/bin/python3-other", "-m", "ipykernel_launcher", "-f", "c.json"]) is None
    assert kernel_seed._kernel_arguments([sys.executable, "-m", "other_kernel", "-f", "c.json"]) is None


@pytest.mark.skipif(not kernel_seed.usable(), reason="no fork, or a jupyter_client not checked")
def test_a_seeded_kernel_starts_whatever_event_loop_the_build_s_process_had(tmp_path):
    """A harness (pytest's plugins, a notebook running the build) may have set an event loop: its
    selector is inherited by every seed, and a kernel that took it died before answering (every
    seeded kernel of a full test run did)."""
    import asyncio

    (tmp_path / "built" / "training-v1.0" / "notebooks").mkdir(parents=True)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        probes = _probes(runner.run_notebooks(_plan(tmp_path, fresh=False), progress=lambda line: None))
    finally:
        asyncio.set_event_loop(None)
        loop.close()
    assert [p["seeded"] for p in probes] == ["1", "1"]
