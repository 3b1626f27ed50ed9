"""The processes that assemble reports: two languages of one report side by side, or a batch's dozens.

WeasyPrint is single-threaded Python, so reports are printed in processes, spawned (the caller may
hold threads: kernels, zmq), each exiting with the build even when the build is killed
(``processes.worker_setup``). A process imports WeasyPrint and nbconvert and loads the fonts once for
several reports, and after each report gives back what it left behind (:func:`_run_pooled`).

A batch hands every focus's reports over as soon as their narrative is rendered
(:class:`RenewingPool`), so neither process waits while the other finishes a longer language or while
the next focus's narrative is rendered. Its processes are renewed every few reports by starting a new
pool, not with ``ProcessPoolExecutor``'s ``max_tasks_per_child``: on Python 3.11 a worker that exits
there is replaced only when no idle-worker token is left over (CPython issue 115634), so with a queue
of reports the pool can shrink to no process at all and the build waits forever (it did, with 34
reports queued).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from mlperf_report.assemble.document import AssembledReport, ReportRequest

#: Reports a pool's process assembles, on average, before a fresh pool takes over: imports, templates
#: and the first report's warm-up (about 3 s of CPU) are paid once per so many reports, while nothing
#: left behind can pile up without bound. With :func:`_run_pooled`'s clean-up a process's peak stays
#: flat from its second report on (Inference v4.1, eight of the largest reports in one process:
#: 206 MB, then 225-228 MB each); without it a process kept for all 22 focuses grew to 322 MB.
REPORTS_PER_PROCESS = 8


def report_pool(workers: int, warm_up: tuple[tuple[str, str], ...] = ()):
    """``workers`` processes that assemble reports (a ``ProcessPoolExecutor``), each running the
    ``warm_up`` steps (see :data:`WARM_UP`) when it starts."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_ready_worker, initargs=(os.getpid(), warm_up))


#: What an assembling process imports and sets up before its first report: (module, function to call
#: in it, or ""): WeasyPrint and its font configuration, the document code, nbconvert's exporter.
WARM_UP = (("weasyprint.text.fonts", "FontConfiguration"), ("mlperf_report.assemble.document", ""),
           ("mlperf_report.assemble.sections", "exporter"))


def warm_pool(workers: int, warm_up: tuple[tuple[str, str], ...] = WARM_UP):
    """``workers`` assembling processes started now and made ready while the notebooks run: each
    imports WeasyPrint and nbconvert and sets up fonts and templates (0.6 s of CPU a process). At the
    start of a build the kernels are still starting and a core is often idle; ready by the time the
    notebooks end, the reports start at once (a cold default build: 0.4 s sooner)."""
    pool = report_pool(workers, warm_up)
    for _ in range(workers):  # one task each, submitted at once: every process starts now
        pool.submit(int)
    return pool


def _ready_worker(parent_pid: int, warm_up: tuple[tuple[str, str], ...]) -> None:
    """A pool process's start: exit with the build, then the warm-up. A step that fails is skipped:
    an initializer that raises breaks the whole pool with no reason given, while the report that
    needs what failed raises it itself, with its own message."""
    import importlib

    from mlperf_report.core import processes

    processes.worker_setup(parent_pid)
    for module, function in warm_up:
        try:
            loaded = importlib.import_module(module)
            if function:
                getattr(loaded, function)()
        except Exception:  # noqa: BLE001  (see above)
            continue


def submit_reports(requests: list[ReportRequest], pool) -> Callable[[], list[AssembledReport]]:
    """Hand ``requests`` to ``pool`` now; the returned call waits for them (results in the order of
    ``requests``; the first error raised after every one has finished)."""
    futures = [pool.submit(_run_pooled, request) for request in requests]

    def results() -> list[AssembledReport]:
        errors = [future.exception() for future in futures]
        for error in errors:
            if error is not None:
                raise error
        return [future.result() for future in futures]

    return results


class RenewingPool:
    """A pool of ``workers`` assembling processes that a fresh pool replaces every
    ``REPORTS_PER_PROCESS × workers`` reports. The fresh one starts once the old one has no report
    left waiting (its last ones still printing), so at most two pools overlap and no core idles at the
    change. Use as a context manager; ``submit`` is ``ProcessPoolExecutor.submit``'s."""

    def __init__(self, workers: int, per_process: int = REPORTS_PER_PROCESS):
        self.workers = max(workers, 1)
        self.per_pool = self.workers * max(per_process, 1)
        self._pool, self._futures, self._retired = None, [], []

    def submit(self, function, *args):
        if self._pool is None or len(self._futures) == self.per_pool:
            self._renew()
        future = self._pool.submit(function, *args)
        self._futures.append(future)
        return future

    def _renew(self) -> None:
        from concurrent.futures import FIRST_COMPLETED, wait

        if self._pool is not None:
            unfinished = [f for f in self._futures if not f.done()]
            while len(unfinished) > self.workers:  # reports still waiting for a process of this pool
                wait(unfinished, return_when=FIRST_COMPLETED)
                unfinished = [f for f in unfinished if not f.done()]
            self._pool.shutdown(wait=False)  # it prints what it has, then its processes exit
            self._retired.append(self._pool)
        self._pool, self._futures = report_pool(self.workers), []

    def __enter__(self) -> RenewingPool:
        return self

    def __exit__(self, kind, error, trace) -> None:
        for pool in [*self._retired, *([self._pool] if self._pool else [])]:
            pool.shutdown(wait=True, cancel_futures=kind is not None)


def _run_pooled(request: ReportRequest) -> AssembledReport:
    """One report in a pooled process, then what it left behind given back: a full collection (the
    font configurations and layout trees sit in reference cycles) and glibc's free heap pages returned
    to the system. Without it a pooled process's second large report peaked 70 MB above its first
    (Inference v4.1: 227 MB, then 299 MB); with it, 264 MB."""
    import gc

    try:
        return request.run()
    finally:
        gc.collect()
        _trim_heap()


def _trim_heap() -> None:
    """``malloc_trim(0)`` where the C library has it (glibc, found among the process's own symbols:
    no library search); nothing elsewhere."""
    import ctypes

    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass
