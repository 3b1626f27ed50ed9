"""A pool worker's signal handler always ends the worker.

Seen in CI: a SIGKILLed build's worker got its parent-death SIGTERM while jupyter_client was importing
psutil; the handler's own ``import psutil`` found the module half initialised and raised, the
exception surfaced in the notebook's execution (caught and reported), and the worker lived on with
SIGTERM ignored, blocked on the dead build's task queue, its kernel with it. The race is timing-bound
(about one build in five on a loaded machine), so these tests force each half of it."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys

import pytest

from mlperf_report.core import processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork and prctl are Linux")


def _failing_handler_worker() -> None:
    processes.worker_setup()

    def broken(*_args, **_kwargs):
        raise AttributeError("partially initialized module 'psutil' has no attribute 'Process'")

    processes.stop_children = broken
    os.kill(os.getpid(), signal.SIGTERM)
    signal.pause()  # only reached if the handler returned (or raised into here)


def _check_psutil_imported() -> None:
    sys.modules.pop("psutil", None)
    processes.worker_setup()
    os._exit(0 if "psutil" in sys.modules else 3)


def _run(target) -> int:
    child = multiprocessing.get_context("fork").Process(target=target)
    child.start()
    child.join(30)
    if child.is_alive():
        child.kill()
        child.join()
        pytest.fail("the worker outlived its SIGTERM")
    return child.exitcode


def test_a_worker_exits_on_sigterm_even_when_stopping_its_kernels_fails():
    assert _run(_failing_handler_worker) == 128 + signal.SIGTERM


def test_a_worker_has_psutil_loaded_before_any_handler_can_run():
    assert _run(_check_psutil_imported) == 0


def test_a_killed_build_s_assembling_processes_exit_with_it(tmp_path):
    """The pool that assembles reports never outlives a killed build: without ``worker_setup`` they sat
    blocked on the dead build's queue for good, and forked from the fork server (which lives as long
    as its children) they lived on until they watched the build itself (``exit_with``)."""
    import subprocess
    import time

    import psutil

    from mlperf_report.core import paths

    code = ("import time\nfrom mlperf_report.assemble import report_pools\npool = report_pools.RenewingPool(2)\n"
            "futures = [pool.submit(time.sleep, 30) for _ in range(2)]\nprint('started', flush=True)\ntime.sleep(60)\n")
    log = tmp_path / "build.log"
    build = subprocess.Popen([sys.executable, "-c", code], cwd=paths.ROOT, stdout=log.open("wb"))
    family: list = []
    try:
        deadline = time.monotonic() + 120
        while "started" not in log.read_text() or len(psutil.Process(build.pid).children()) < 2:
            assert time.monotonic() < deadline and build.poll() is None, "the pool never started"
            time.sleep(0.1)
        time.sleep(1)  # the workers ran their setup
        family = psutil.Process(build.pid).children(recursive=True)
        build.kill()
        build.wait()
        _, alive = psutil.wait_procs(family, timeout=30)
        assert not alive, f"left running: {[p.pid for p in alive]}"
    finally:
        build.kill()
        for proc in family:
            try:
                proc.kill()
            except psutil.Error:
                pass


_LEAVING = """
import atexit, os, sys
from mlperf_report.core import processes
processes.skip_teardown_at_exit()
seen = open(sys.argv[1], "a", buffering=1)
atexit.register(lambda: (seen.write("exit handler\\n"), seen.flush()))  # registered later: runs earlier


class Kept:
    def __del__(self, write=os.write, fd=os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)):  # teardown only
        write(fd, b"teardown\\n")


kept = Kept()
sys.stdout.write("the build's last line, still buffered")
if sys.argv[2] == "fails":
    raise RuntimeError("the build failed")
processes.exit_without_teardown(3)
"""


@pytest.mark.parametrize("how", ["returns", "fails"])
def test_a_finished_build_leaves_without_teardown_after_every_exit_handler(tmp_path, how):
    import subprocess

    from mlperf_report.core import paths

    seen = tmp_path / "seen"
    done = subprocess.run([sys.executable, "-c", _LEAVING, str(seen), how], cwd=paths.ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout == "the build's last line, still buffered"  # flushed on the way out
    if how == "returns":
        assert done.returncode == 3 and seen.read_text() == "exit handler\n"  # no teardown
    else:  # an error leaves the interpreter's own way: its traceback, its code, its teardown
        assert done.returncode == 1 and "the build failed" in done.stderr
        assert seen.read_text() == "exit handler\nteardown\n"
