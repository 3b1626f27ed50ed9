"""Stopping cleanly: a killed build leaves no worker or kernel behind.

Pool workers (notebook runners, ingest scanners) are forked from the build; kernels are children of
the workers, in their own session (jupyter_client starts them so, which keeps a terminal's Ctrl-C
from reaching them). Three rules cover every way a build can end:

* the build turns SIGTERM into KeyboardInterrupt (:func:`interrupt_on_sigterm`), so ``kill`` takes
  the same path as Ctrl-C: the runner terminates its workers (:func:`terminate_pool`);
* a worker that gets SIGTERM or SIGINT stops its whole process tree (its kernels) and exits
  (:func:`worker_setup`);
* a worker asks the kernel to send it SIGTERM when its parent dies, even by SIGKILL
  (``PR_SET_PDEATHSIG``, Linux); a kernel whose worker dies exits on its own (ipykernel's parent
  poller, via ``JPY_PARENT_PID``), and is also stopped by the worker's handler first. A worker whose
  parent is not the build (forked from a fork server, which lives as long as its children) watches
  the build itself (:func:`exit_with`).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1
_PR_SET_NAME = 15
#: Seconds a process gets between SIGTERM and SIGKILL.
GRACE_S = 2.0


def _prctl(option: int, argument) -> None:
    """Linux's ``prctl(option, argument)``; nothing elsewhere, or where the C library lacks it."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, argument, 0, 0, 0)
    except (OSError, AttributeError):
        return


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Have the kernel send ``sig`` to this process when its parent exits (Linux; no-op elsewhere)."""
    _prctl(_PR_SET_PDEATHSIG, int(sig))


def as_new_process(keep: set[int]) -> None:
    """In a child forked to become another program (a kernel, a fork server): what a new process
    would have. The default signal handlers (the build turns SIGTERM and SIGHUP into an interrupt,
    a pool worker stops its kernels on them), and no descriptor but the standard streams and
    ``keep`` (as ``Popen`` closes them): nothing of the parent's stays open, or is closed later by
    its finalisers under a descriptor number the child reuses."""
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGCHLD):
        signal.signal(number, signal.SIG_DFL)
    kept = sorted({0, 1, 2, *keep})
    for low, high in zip(kept, [*kept[1:], os.sysconf("SC_OPEN_MAX")]):
        os.closerange(low + 1, high)


_EXIT_CODE: list[int] = []  # set by exit_without_teardown: what _leave exits with


def skip_teardown_at_exit() -> None:
    """Call first thing in a program: from then on :func:`exit_without_teardown` leaves without the
    interpreter's teardown. ``atexit`` runs its handlers last registered first, so the one registered
    here runs after every other (the pools' joins, ``weakref.finalize``'s clean-ups, logging's flush)."""
    import atexit

    atexit.register(_leave)


def exit_without_teardown(code: int) -> None:
    """``sys.exit(code)``, then, once every exit handler has run, leave at once: a build's process
    holds pandas, matplotlib, ipykernel and the kernels' imports, and tearing them down object by
    object was 0.3-0.4 s of CPU between the build's last line and its end, for nothing it keeps."""
    _EXIT_CODE.append(int(code))
    sys.exit(code)


def _leave() -> None:
    if not _EXIT_CODE:  # an error or an interrupt: the interpreter's own way out, as always
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(_EXIT_CODE[-1])


def set_name(name: str) -> None:
    """Name this process as ``ps``, ``top`` and psutil's ``name()`` show it (Linux: at most 15 bytes;
    no-op elsewhere). Forked processes keep the name."""
    _prctl(_PR_SET_NAME, name.encode()[:15])


def stop_children(grace: float = GRACE_S) -> None:
    """Terminate every descendant of this process (kernels and their children), then kill stragglers."""
    import psutil

    try:
        children = psutil.Process().children(recursive=True)
    except psutil.Error:
        return
    for child in children:
        try:
            child.terminate()
        except psutil.Error:
            pass
    _, alive = psutil.wait_procs(children, timeout=grace)
    for child in alive:
        try:
            child.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(alive, timeout=grace)


def _worker_exit(signum, _frame) -> None:
    """Stop the kernels and exit, whatever the interrupted code was doing: an exception raised in
    here would surface in that code (a notebook's execution, caught and reported) and leave the
    worker alive, its SIGTERM ignored, blocked on the dead build's task queue."""
    try:
        signal.signal(signum, signal.SIG_IGN)
        stop_children()
    finally:
        os._exit(128 + signum)


def worker_setup(parent_pid: int | None = None) -> None:
    """In a freshly started pool worker: exit with the parent, and take the kernels along on a signal.

    psutil is imported here, before any handler can run: a signal that lands while the worker's own
    code is importing it (jupyter_client does, when it starts a kernel) would otherwise find the
    module half initialised in the handler (seen in CI: a SIGKILLed build left a worker and kernel)."""
    import psutil  # noqa: F401  (imported for the handler, see above)

    die_with_parent()
    signal.signal(signal.SIGTERM, _worker_exit)
    signal.signal(signal.SIGINT, _worker_exit)
    if parent_pid is not None and os.getppid() != parent_pid:  # the parent died before prctl took hold
        _worker_exit(signal.SIGTERM, None)


def exit_with(pid: int) -> None:
    """Send this process SIGTERM (see :func:`worker_setup`) when process ``pid`` ends, by any means:
    for a worker whose parent is not ``pid``. A thread waits on the process (``pidfd``, Linux 5.3;
    elsewhere it looks once a second); the signal, not the thread, ends the worker, so the main
    thread's handler stops the kernels as it does on any SIGTERM."""
    import threading
    import time

    def gone() -> None:
        try:
            handle = os.pidfd_open(pid)
        except ProcessLookupError:  # already gone
            handle = None
        except (AttributeError, OSError):  # no pidfd here
            import psutil

            while psutil.pid_exists(pid):
                time.sleep(1.0)
            handle = None
        if handle is not None:
            import select

            select.select([handle], [], [])
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=gone, name=f"exit-with-{pid}", daemon=True).start()


def _raise_interrupt(signum, _frame) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signal.Signals(signum).name}")


def interrupt_on_sigterm() -> None:
    """In the build's main process: SIGTERM (and SIGHUP) stop the build as Ctrl-C does."""
    signal.signal(signal.SIGTERM, _raise_interrupt)
    signal.signal(signal.SIGHUP, _raise_interrupt)


def terminate_pool(pool, grace: float = GRACE_S) -> None:
    """Stop a ProcessPoolExecutor's workers now (they stop their kernels), not after their current task:
    by ``terminate_workers`` where Python has it (3.14), by the workers the executor keeps on the Python
    versions that was checked with (``core.compat``), else by a shutdown that lets them finish."""
    from mlperf_report.core import compat

    if hasattr(pool, "terminate_workers"):
        pool.terminate_workers()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values()) if compat.private_ok("python") else []
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        if not _gone_within(process, grace):
            process.kill()
            _gone_within(process, grace)
    pool.shutdown(wait=False, cancel_futures=True)


def _gone_within(process, seconds: float) -> bool:
    """Whether ``process`` was reaped within ``seconds``. ``join`` alone can return early: it waits on
    the child's end of a pipe, which closes as the child exits but a moment before the child can be
    reaped, so ``is_alive`` is asked again until it says no (CI saw a SIGTERMed worker "alive")."""
    import time

    deadline = time.monotonic() + seconds
    process.join(seconds)
    while process.is_alive() and time.monotonic() < deadline:
        time.sleep(0.005)
    return not process.is_alive()


def give_back_memory() -> None:
    """What the process left behind, given back to the system: a full collection (WeasyPrint's layout
    trees and font configurations sit in reference cycles), then glibc's free heap pages returned
    (``malloc_trim(0)``, found among the process's own symbols: no library search; nothing where the
    C library has no such call). About 0.08 s with a report's heap."""
    import gc

    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass
