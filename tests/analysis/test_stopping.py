"""Issue 12: a killed build leaves no worker or kernel running (they went on executing notebooks and
writing stamps). Real build, real pool workers, real kernels: SIGTERM, Ctrl-C (SIGINT) and SIGKILL of
the build each stop every process it started within seconds (30 s allowed on a loaded machine)."""

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


def _poll(condition, timeout: float, what):
    """``condition()`` until true; else fail with ``what`` (a text, or a callable giving it at that moment)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.1)
    pytest.fail(what() if callable(what) else what)


def _notebooks_in_progress(progress: str) -> int:
    """Notebooks started and not yet ended, from the build's progress lines ("  bert  running")."""
    lines = [line.split() for line in progress.splitlines()]
    started = sum(1 for words in lines if len(words) == 2 and words[1] == "running")
    ended = sum(1 for words in lines if len(words) >= 2 and words[1] in ("done", "FAILED"))
    return started - ended


def _kernel_in_a_notebook(build: subprocess.Popen, log, out, mark: str) -> list[psutil.Process]:
    """The build's processes once a kernel runs and a notebook is executing: its progress says more
    notebooks started than ended (the partial ``.running.ipynb`` is written only at a notebook's end,
    too brief a window to poll for). A build that ended before that fails the test with what it printed."""
    def state():
        if build.poll() is not None:
            pytest.fail(f"the build ended (exit {build.returncode}) before a notebook ran:\n"
                        + log.read_text(errors="replace")[-2000:])
        family = _marked(mark)
        kernel = any(_is_kernel(p) for p in family)
        return family if kernel and _notebooks_in_progress(log.read_text(errors="replace")) else []
    return _poll(state, 300, lambda: "no kernel started a notebook within 300 s; the build printed:\n"
                 + log.read_text(errors="replace")[-2000:])


def _is_kernel(proc: psutil.Process) -> bool:
    """A kernel: a new Python running ipykernel, or a worker's seeded kernel (``kernel_seed``: a copy of
    the worker, with its command line, alone in a session of its own, as kernels are)."""
    try:
        return "ipykernel" in " ".join(proc.cmdline()) or os.getsid(proc.pid) == proc.pid
    except (psutil.NoSuchProcess, ProcessLookupError):
        return False


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_a_stopped_build_leaves_no_worker_or_kernel(tmp_path, how):
    data_dir, out = write_tree(tmp_path / "data"), tmp_path / "out"
    mark = f"{os.getpid()}-{tmp_path.name}"
    # stderr to a file, never an unread pipe: a build whose progress filled a pipe would block on write
    log = tmp_path / "build.log"
    build = subprocess.Popen([sys.executable, "build.py", "report", "--round", "training-v1.0", "--languages", "en",
                              "--data-dir", str(data_dir), "--output-dir", str(out), "--jobs", "2"],
                             cwd=paths.ROOT, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
                             env={**os.environ, MARK: mark})
    try:
        family = _kernel_in_a_notebook(build, log, out, mark)
        assert any(p.pid == build.pid for p in family) and len(family) > 1
        build.send_signal(how)
        build.wait(timeout=20)
        _poll(lambda: not _marked(mark), 30, lambda: "left running: "
              + "; ".join(" ".join(p.cmdline()[:3]) for p in _marked(mark)))
        # with no process of the build left (found by the inherited mark, not by parentage), nothing
        # it started can write any more: no fixed wait needed to see that
    finally:
        for proc in _marked(mark):
            proc.kill()
