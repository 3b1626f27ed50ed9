"""Executing notebooks: a process pool whose workers call papermill, with a line of progress per
state change, and a failing notebook reported by name, cell and exception while the others run.

Each worker keeps one kernel, reset between notebooks (see ``papermill_engine``); executed notebooks
are written beside their final name and renamed into place, finished or failed.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Callable

from mlperf_report.core import paths, processes
from mlperf_report.core.errors import InputError, UserError
from mlperf_report.analysis.jobs import KERNEL, NotebookJob, NotebookResult, Plan
from mlperf_report.analysis.stamps import input_digests, must_run, stale_reason, write_stamp


def _execute(job: NotebookJob, digests: dict[str, str], events=None, *, fresh_kernel: bool = False,
             kernel_log: Path | None = None) -> NotebookResult:
    """Run one notebook with papermill (in a worker process). The notebook is written beside its final
    name while it runs and renamed into place at the end, finished or failed (a failed one keeps its
    partial output and papermill's banner pointing at the failing cell).

    The worker's kernel is reused, reset, from one notebook to the next (see ``papermill_engine``);
    with ``fresh_kernel`` each notebook gets its own, stopped at once when the last cell has replied
    (nbclient's ``immediate``): every output has arrived by then, and a worker waiting ~0.5 s on a
    kernel's exit is an idle core."""
    from papermill.exceptions import PapermillExecutionError

    if events is not None:
        events.put((job.name, "running", None))
    started = time.perf_counter()
    partial = job.output.with_name(f".{job.output.stem}.running.ipynb")
    job.stamp.unlink(missing_ok=True)
    error = None
    try:
        _papermill(job, partial, fresh_kernel, events)
    except PapermillExecutionError as exc:
        error = _cell_error(job, exc)
    except Exception as exc:  # kernel died, timeout, bad notebook: still a per-notebook failure
        error = f"notebook {job.notebook.name} ({job.name}) failed before finishing: {type(exc).__name__}: {exc}"
        if kernel_log:
            error += f"\n    kernel log: {kernel_log}"
    finally:
        if partial.exists():
            _tag_injected_parameters(partial)
            os.replace(partial, job.output)
    seconds = time.perf_counter() - started
    if error is None:
        write_stamp(job, digests)
    return NotebookResult(job.name, job.output, job.figures, "failed" if error else "ok", seconds, error)


def _papermill(job: NotebookJob, partial: Path, fresh_kernel: bool, events) -> None:
    """papermill on one notebook; a kernel that dies before the first cell ran (``Kernel died before
    replying to kernel_info``, seen on a loaded machine) is replaced by a fresh one, once, and the
    progress line says so. A failure after a cell ran is the notebook's and is never retried."""
    import papermill

    from mlperf_report.analysis import papermill_engine

    for attempt in (1, 2):
        kernel = {} if fresh_kernel else {"km": papermill_engine.worker_kernel(KERNEL)}
        try:
            papermill.execute_notebook(str(job.notebook), str(partial), parameters=job.parameters,
                                       kernel_name=KERNEL, progress_bar=False, cwd=str(paths.ROOT),
                                       engine_name=papermill_engine.NAME, shutdown_kernel="immediate", **kernel)
            return
        except Exception as exc:
            if attempt == 2 or not kernel_died_before_first_cell(exc, partial):
                raise
            papermill_engine.shutdown_kernels()  # never reuse the kernel that died
            fresh_kernel = True
            if events is not None:
                events.put((job.name, f"retrying once with a fresh kernel: its kernel died before the first "
                                      f"cell ran ({type(exc).__name__}: {str(exc)[:120]})", None))


def kernel_died_before_first_cell(exc: BaseException, partial: Path) -> bool:
    """True when ``exc`` is the kernel dying (not a cell's error) and no code cell has run yet."""
    from papermill.exceptions import PapermillExecutionError

    if isinstance(exc, PapermillExecutionError):
        return False
    text = f"{type(exc).__name__}: {exc}"
    if not any(sign in text for sign in ("Kernel died", "DeadKernel", "kernel_info", "Kernel didn't respond")):
        return False
    if not partial.exists():
        return True
    import nbformat

    try:
        nb = nbformat.read(partial, as_version=4)
    except Exception:  # a half-written notebook: nothing ran that we can see
        return True
    return not any(c.cell_type == "code" and c.get("execution_count") for c in nb.cells)


def _tag_injected_parameters(path: Path) -> None:
    """Hide the input of papermill's injected-parameters cell in the report, like our own parameters cell."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if "injected-parameters" in tags and "remove-input" not in tags:
            cell.metadata["tags"] = [*tags, "remove-input"]
            nbformat.write(nb, path)
            return


def _cell_error(job: NotebookJob, exc) -> str:
    source = "\n".join("      " + line for line in str(exc.source).strip().splitlines()[:6])
    return (f"notebook {job.notebook.name} ({job.name}) failed in cell {exc.cell_index} (In [{exc.exec_count}]): "
            f"{exc.ename}: {exc.evalue}\n    cell source:\n{source}\n    partial notebook: {job.output}")


def check_parameters(jobs: tuple[NotebookJob, ...] | list[NotebookJob]) -> None:
    """Every parameter we pass must be declared in the notebook's parameters cell, and every declared
    one passed (so a renamed parameter fails here, not as a silent default inside a kernel)."""
    import papermill

    declared_by_notebook: dict[Path, set[str]] = {}
    problems = []
    for job in jobs:
        if job.notebook not in declared_by_notebook:
            if not job.notebook.is_file():
                raise InputError(f"{job.notebook}: notebook not found")
            declared_by_notebook[job.notebook] = set(papermill.inspect_notebook(str(job.notebook)))
        declared = declared_by_notebook[job.notebook]
        passed = set(job.parameters)
        if passed - declared:
            problems.append(f"{job.notebook.name} ({job.name}): unknown parameter(s) {', '.join(sorted(passed - declared))}; "
                            f"add them to its parameters cell or stop passing them in its suite's plan")
        if declared - passed:
            problems.append(f"{job.notebook.name} ({job.name}): parameter(s) {', '.join(sorted(declared - passed))} not passed; "
                            f"pass them in its suite's plan or remove them from the parameters cell")
    if problems:
        raise UserError("notebook parameters do not match what build.py passes:\n  " + "\n  ".join(problems))


def run_notebooks(plan: Plan, *, progress: Callable[[str], None] | None = None,
                  when_running: Callable[[], None] | None = None) -> list[NotebookResult]:
    """Execute the plan's out-of-date notebooks in parallel; results in plan order.

    One failing notebook does not stop the others. ``progress`` gets one line per state change
    (default: printed to stderr). ``when_running`` is called once, before the first notebook starts,
    when any has to run, after this process has imported what the kernels import (a build starts its
    assembling processes' fork server then, forked from here: see ``report_pools.warm_pool``).
    """
    say = _serialized(progress or _print_line)
    results: dict[Path, NotebookResult] = {}  # by executed notebook: a batch has one "bert" per focus
    context = _context()
    seeded: list[bool] = []  # whether the kernels start from seeds, once decided (``_seeded``)

    def start_running() -> None:
        # what kernels share with the caller's processes is imported first, then the caller starts
        # them (forked from here, they inherit it: ``forked_server``), then the kernels' own imports
        from mlperf_report.analysis import kernel_seed

        seeds = _seeds_usable(plan, context)
        if seeds:
            kernel_seed.preload(kernel_seed.SHARED, kernel=False)
        if when_running is not None:
            when_running()
        if seeds:
            from mlperf_report.analysis import papermill_engine  # papermill: after the caller's start

            kernel_seed.preload(papermill_engine.PRELOAD)
        seeded.append(seeds)

    if plan.force or any(must_run(job) for job in plan.jobs):
        start_running()  # surely running: start now, on the core this process leaves idle while it checks
    pending = []
    for job in plan.jobs:
        digests = input_digests(job)
        reason = "--force" if plan.force else stale_reason(job, digests)
        if reason is None:
            results[job.output] = NotebookResult(job.name, job.output, job.figures, "cached")
            say(f"  {job.name:<12} up to date")
        else:
            pending.append((job, digests, reason))
    if pending:
        check_parameters([job for job, *_ in pending])
        for job, _, reason in pending:
            say(f"  {job.name:<12} queued ({reason})")
        if not seeded:
            start_running()
        results.update({r.notebook: r for r in _run_parallel([(j, d) for j, d, _ in pending], plan, say,
                                                             context, seeded[0])})
    return [results[job.output] for job in plan.jobs]


def _print_line(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def _serialized(say: Callable[[str], None]) -> Callable[[str], None]:
    """Progress lines come from two threads (worker events, finished futures): one line at a time."""
    import threading

    lock = threading.Lock()

    def locked(line: str) -> None:
        with lock:
            say(line)

    return locked


def _context():
    """How notebook workers start: forked (they inherit what the build imported for the kernels)."""
    import multiprocessing

    return multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")


def _run_parallel(pending: list, plan: Plan, say: Callable[[str], None], context, seeded: bool) -> list[NotebookResult]:
    """A process pool where each worker calls papermill; worker state changes come back on a queue."""
    import threading
    from concurrent.futures import ProcessPoolExecutor, as_completed

    events = context.Queue()

    def relay():
        for name, state, _ in iter(events.get, None):
            say(f"  {name:<12} {state}")

    listener = threading.Thread(target=relay, daemon=True)
    listener.start()
    plan.kernel_log.write_bytes(b"")
    out = []
    try:
        pool = ProcessPoolExecutor(max_workers=min(plan.workers, len(pending)), mp_context=context,
                                   initializer=_init_worker,
                                   initargs=(events, plan.fresh_kernels, plan.kernel_log, os.getpid(), seeded))
        try:
            futures = {pool.submit(_execute_in_worker, job, digests): job for job, digests in pending}
            for future in as_completed(futures):
                job = futures[future]
                try:
                    result = future.result()
                except Exception as exc:  # the worker process itself died
                    result = NotebookResult(job.name, job.output, job.figures, "failed",
                                            error=f"notebook {job.notebook.name} ({job.name}): worker died: {exc}")
                out.append(result)
                state = f"done in {result.seconds:.1f} s" if result.ok else "FAILED"
                say(f"  {result.name:<12} {state}")
        except BaseException:  # Ctrl-C / SIGTERM: stop the workers now; each stops its kernel
            processes.terminate_pool(pool)
            raise
        # Every notebook has its result: the workers stop their kernels and exit while the build goes
        # on (waiting for that left both cores idle for 0.15 s); interpreter exit joins them.
        pool.shutdown(wait=False)
    finally:
        events.put(None)
        listener.join(timeout=5)
    return out


_WORKER: dict = {}


def _seeds_usable(plan: Plan, context) -> bool:
    """Whether the workers' kernels start from seeds (``kernel_seed``): kept kernels, forked workers,
    the checked jupyter_client (then ``start_running`` imports what kernels import, once, here)."""
    from mlperf_report.analysis import kernel_seed

    return not plan.fresh_kernels and context.get_start_method() == "fork" and kernel_seed.usable()


def _init_worker(events, fresh_kernels: bool, kernel_log: Path, parent_pid: int, seeded: bool = False) -> None:
    """Per worker: the progress queue, the kernel policy, stderr (inherited by kernels) to the log, and
    exit (with its kernels) when signalled or when the build dies; with ``seeded``, its kernel's seed."""
    processes.worker_setup(parent_pid)
    _WORKER.update(events=events, fresh_kernel=fresh_kernels, kernel_log=kernel_log)
    log = os.open(kernel_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 2)
    os.close(log)
    if seeded:
        from mlperf_report.analysis import kernel_seed

        kernel_seed.plant()


def _execute_in_worker(job: NotebookJob, digests: dict[str, str]) -> NotebookResult:
    return _execute(job, digests, _WORKER["events"], fresh_kernel=_WORKER["fresh_kernel"],
                    kernel_log=_WORKER["kernel_log"])


def summarize(results: list[NotebookResult], seconds: float) -> int:
    """Print the outcome; 0 when every notebook is ok or cached, 1 otherwise."""
    failed = [r for r in results if not r.ok]
    ran = sum(r.status == "ok" for r in results)
    cached = sum(r.status == "cached" for r in results)
    print(f"notebooks: {ran} executed, {cached} up to date, {len(failed)} failed ({seconds:.1f} s)", file=sys.stderr)
    for result in failed:
        print(f"error: {result.error}", file=sys.stderr)
    return 1 if failed else 0
