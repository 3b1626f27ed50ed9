"""Issue 12: a killed build leaves no worker or kernel running (they went on executing notebooks and
writing stamps). Real build, real pool workers, real kernels: SIGTERM, Ctrl-C (SIGINT) and SIGKILL of
the build each stop every process it started within seconds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from mlperf_report.core import paths
from synthetic_round import write_tree


MARK = "MLPERF_REPORT_STOPPING_TEST"  # every process the build starts inherits it, however re-parented


def _marked(mark: str) -> list[psutil.Process]:
    """Every living process started by the build (pool workers, kernels), found by its environment."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(MARK) == mark and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            pass
    return found


def _poll(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.1)
    pytest.fail(what)


def _kernel_in_a_notebook(out, mark: str) -> list[psutil.Process]:
    """The build's processes once a kernel runs and a notebook has started (its partial output exists)."""
    def state():
        family = _marked(mark)
        kernel = any("ipykernel" in " ".join(p.cmdline()) for p in family)
        return family if kernel and any(out.rglob(".*.running.ipynb")) else []
    return _poll(state, 120, "no kernel started a notebook")


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_a_stopped_build_leaves_no_worker_or_kernel(tmp_path, how):
    data_dir, out = write_tree(tmp_path / "data"), tmp_path / "out"
    mark = f"{os.getpid()}-{tmp_path.name}"
    build = subprocess.Popen([sys.executable, "build.py", "report", "--round", "training-v1.0", "--languages", "en",
                              "--data-dir", str(data_dir), "--output-dir", str(out), "--jobs", "2"],
                             cwd=paths.ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env={**os.environ, MARK: mark})
    try:
        family = _kernel_in_a_notebook(out, mark)
        assert any(p.pid == build.pid for p in family) and len(family) > 1
        build.send_signal(how)
        build.wait(timeout=20)
        _poll(lambda: not _marked(mark), 10, "left running: "
              + "; ".join(" ".join(p.cmdline()[:3]) for p in _marked(mark)))
        # with no process of the build left (found by the inherited mark, not by parentage), nothing
        # it started can write any more: no fixed wait needed to see that
    finally:
        for proc in _marked(mark):
            proc.kill()
