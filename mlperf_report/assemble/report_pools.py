"""The processes that assemble reports: two languages of one report side by side, or a batch's dozens.

WeasyPrint is single-threaded Python, so reports are printed in processes, each exiting with the build
even when the build is killed (``processes.worker_setup``). They are forked from a fork server
(``multiprocessing``'s ``forkserver``: a process of its own, with no thread of the caller's kernels or
zmq to copy) that imported WeasyPrint and nbconvert and rehearsed a report once (``fork_server``):
each process starts ready, and the build pays that warm-up once rather than once per process. A single
build forks the server from itself once it has imported what its kernels share with it (numpy,
pandas, matplotlib: ``forked_server``); a batch, and any build where that cannot be, starts it as a
new Python.
A process assembles several reports, and after each gives back what it left behind
(:func:`_run_pooled`). Where there is no fork server (Windows), processes are spawned and warm up
themselves.

A batch hands every focus's reports over as soon as their narrative is rendered
(:class:`RenewingPool`), so neither process waits while the other finishes a longer language or while
the next focus's narrative is rendered. Its processes are renewed every few reports by starting a new
pool, not with ``ProcessPoolExecutor``'s ``max_tasks_per_child``: on Python 3.11 a worker that exits
there is replaced only when no idle-worker token is left over (CPython issue 115634), so with a queue
of reports the pool can shrink to no process at all and the build waits forever (it did, with 34
reports queued).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from mlperf_report.assemble.document import AssembledReport, ReportRequest

#: Reports a pool's process assembles, on average, before a fresh pool takes over: imports, templates
#: and the first report's warm-up (about 3 s of CPU) are paid once per so many reports, while nothing
#: left behind can pile up without bound. With :func:`_run_pooled`'s clean-up a process's peak stays
#: flat from its second report on (Inference v4.1, eight of the largest reports in one process:
#: 206 MB, then 225-228 MB each); without it a process kept for all 22 focuses grew to 322 MB.
REPORTS_PER_PROCESS = 8


#: What an assembling process imports and sets up before its first report: (module, function to call
#: in it, or ""): WeasyPrint and its font configuration, the document code, nbconvert's exporter, a
#: rehearsal of a tiny report, and what a report imports later (the suites read their YAML; the press
#: kit draws its charts with matplotlib, writes its deck with python-pptx, its workbook with openpyxl).
WARM_UP = (("weasyprint.text.fonts", "FontConfiguration"), ("mlperf_report.assemble.document", ""),
           ("mlperf_report.assemble.sections", "exporter"), ("mlperf_report.assemble.report_pools", "rehearse"),
           ("yaml", ""), ("mlperf_report.assemble.kit_charts", "rehearse"), ("pptx", ""), ("openpyxl", ""))

#: The module the fork server imports when it starts: the warm-up, done once for every process.
FORK_SERVER = "mlperf_report.assemble.fork_server"


def report_pool(workers: int, warm_up: tuple[tuple[str, str], ...] = WARM_UP):
    """``workers`` processes that assemble reports (a ``ProcessPoolExecutor``), each running the
    ``warm_up`` steps (see :data:`WARM_UP`) when it starts: nothing left to do in a process forked
    from the warm fork server, the whole warm-up in a spawned one."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, mp_context=start_context(),
                               initializer=_ready_worker, initargs=(os.getpid(), warm_up))


def start_context():
    """How assembling processes start: forked from the fork server, which imports ``fork_server``
    (the warm-up) when it starts; spawned where there is none."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([FORK_SERVER])
    return context


def warm_pool(workers: int, warm_up: tuple[tuple[str, str], ...] = WARM_UP):
    """An assembling pool whose fork server starts now and warms up while the notebooks run (about
    0.9 s of CPU, when the kernels are still starting and a core is often idle). Its processes are
    forked when the first report is handed over, ready at once. Starting the server does not wait for
    it: the caller goes on starting the notebooks."""
    context = start_context()
    if context.get_start_method() == "forkserver":
        from mlperf_report.assemble import forked_server

        if not forked_server.start([FORK_SERVER]):  # forked from this process where it can be
            from multiprocessing import forkserver

            forkserver.ensure_running()
    return report_pool(workers, warm_up)


def warm_up(steps: tuple[tuple[str, str], ...]) -> None:
    """Run the warm-up ``steps``. A step that fails is skipped: an initializer that raises breaks the
    whole pool with no reason given (and a fork server that raises takes every process with it),
    while the report that needs what failed raises it itself, with its own message."""
    import importlib

    for module, function in steps:
        try:
            loaded = importlib.import_module(module)
            if function:
                getattr(loaded, function)()
        except Exception:  # noqa: BLE001  (see above)
            continue


@functools.cache
def rehearse() -> None:
    """A tiny report's first steps, for what they compile on first use and keep: nbconvert's templates
    and Markdown patterns, the page template, WeasyPrint's style sheets (0.3 s of CPU, once: a forked
    process has it done)."""
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    from mlperf_report.assemble import page, pdf_print, sections

    table = new_output("display_data", data={"text/html": "<table><tr><td>1</td></tr></table>", "text/plain": "1"})
    notebook = new_notebook(cells=[new_markdown_cell("# A\n\nB *c* `d` [e](#f)\n\n- g\n- h"),
                                   new_code_cell("", outputs=[table])])
    sections.notebook_section(notebook, "en", "rehearsal")
    pdf_print.render_pdf(page.render_page(lang="en", title="", round_title="", date="", sections=[]))


def _ready_worker(build_pid: int, steps: tuple[tuple[str, str], ...]) -> None:
    """A pool process's start: exit with the build, then the warm-up. A process forked from the fork
    server exits with the server too, but the server lives as long as any process it forked (each
    holds its "alive" pipe open), so the process watches the build itself."""
    import sys

    from mlperf_report.core import processes

    server = sys.modules.get(FORK_SERVER)
    processes.worker_setup(server.PID if server else build_pid)
    if server:
        processes.exit_with(build_pid)
    warm_up(steps)


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


def assemble_reports(requests: list[ReportRequest], *, workers: int = 2) -> list[AssembledReport]:
    """Several languages at once, one process each (WeasyPrint is single-threaded Python: two
    languages on two cores take the time of one). Results in the order of ``requests``; the first
    error is raised after every request has finished, and each language's files are all-or-nothing.
    A batch hands its reports to :class:`RenewingPool` instead."""
    if workers <= 1 or len(requests) <= 1:
        return [request.run() for request in requests]
    with report_pool(min(workers, len(requests))) as own:
        return submit_reports(requests, own)()


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


_RAN: list[bool] = []  # this process has assembled a report before


def _run_pooled(request: ReportRequest) -> AssembledReport:
    """One report in a pooled process, what an earlier report of this process left behind given back
    first (``processes.give_back_memory``). Without it a pooled process's second large report peaked
    70 MB above its first (Inference v4.1: 227 MB, then 299 MB); with it, 264 MB. Given back before
    the next report rather than after each: the peak is the same, and a process's last report (the
    only one, in a default build) is handed back without the build waiting for its collection."""
    from mlperf_report.core import processes

    if _RAN:
        processes.give_back_memory()
    _RAN.append(True)
    return request.run()
