"""Issue 12: a killed build leaves no worker or kernel running (they went on executing notebooks and
writing stamps). Real build, real pool workers, real kernels: SIGTERM, Ctrl-C (SIGINT) and SIGKILL of
the build each stop every process it started within seconds."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import psutil
import pytest

from mlperf_report.core import paths
from synthetic_round import write_tree


def _alive(procs: list[psutil.Process]) -> list[psutil.Process]:
    alive = []
    for proc in procs:
        try:
            if proc.status() != psutil.STATUS_ZOMBIE:
                alive.append(proc)
        except psutil.NoSuchProcess:
            pass
    return alive


def _kernels_running(build: psutil.Process, timeout: float = 120) -> list[psutil.Process]:
    """Every descendant of the build once a kernel runs a notebook (a kernel has started)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            family = build.children(recursive=True)
            if any("ipykernel" in " ".join(p.cmdline()) for p in family):
                time.sleep(1.0)  # let it get into a notebook
                return build.children(recursive=True)
        except psutil.NoSuchProcess:
            pass
        time.sleep(0.1)
    pytest.fail("no kernel started")


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_a_stopped_build_leaves_no_worker_or_kernel(tmp_path, how):
    data_dir, out = write_tree(tmp_path / "data"), tmp_path / "out"
    build = subprocess.Popen([sys.executable, "build.py", "report", "--round", "training-v1.0", "--languages", "en",
                              "--data-dir", str(data_dir), "--output-dir", str(out), "--jobs", "2"],
                             cwd=paths.ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        family = _kernels_running(psutil.Process(build.pid))
        assert family
        build.send_signal(how)
        build.wait(timeout=20)
        deadline = time.monotonic() + 10
        while _alive(family) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _alive(family) == [], [p.cmdline()[:3] for p in _alive(family)]
        stamps = sorted(out.rglob("*.stamp*")) if out.exists() else []
        time.sleep(2)
        assert (sorted(out.rglob("*.stamp*")) if out.exists() else []) == stamps  # nothing writes any more
    finally:
        if build.poll() is None:
            build.kill()
        for proc in _alive(psutil.Process(build.pid).children(recursive=True) if build.poll() is None else []):
            proc.kill()
