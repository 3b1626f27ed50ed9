"""How our runner drives papermill: fewer intermediate saves, and one kernel per worker, reset between
notebooks instead of started afresh.

*Saves.* papermill's default engine rewrites (and re-validates) the whole notebook after each cell:
with a dozen SVG charts that is ~0.5 s of CPU per notebook, taken from the kernels running beside
it. Saves during execution are throttled to one per :data:`SAVE_EVERY` seconds; the final save still
happens whatever the outcome, so a failed or killed kernel leaves its partial notebook as before.

*Kernels.* Starting a kernel and importing pandas, matplotlib and seaborn in it is ~2 s of CPU, close
to half of what a benchmark notebook costs. A worker therefore keeps its kernel and, before each
further notebook, resets it: the user namespace is cleared (``%reset -f``) and the execution counter
restarts at 1, so every cell still runs in order from the parameters down, and the executed notebook
reads exactly as from a fresh kernel. What survives is the import cache (the same package code) and
nothing a notebook assigns. A kernel that died is replaced. ``fresh=True`` gives a new kernel per
notebook for anyone who wants that instead.

*Clients.* The worker also keeps its connection to that kernel (one kernel client, its channels open):
a new client waits for the kernel to answer and then 0.2 s more for stray broadcast messages
(jupyter_client's ``wait_for_ready``), which at two new clients per notebook (the reset's and
nbclient's) was more time than a notebook whose charts are in the memo spends running its cells.
Messages of an earlier notebook still queued on the kept channels are harmless: nbclient takes only
the replies and outputs whose parent is the request it sent. After the reset the kernel's surviving
objects (modules, caches) are moved out of the collector's way (``gc.freeze``): ``%reset`` runs two
full collections, which otherwise walk every object pandas and matplotlib made at import.

*Startup.* Every kernel runs :data:`KERNEL_STARTUP` before its first notebook (``IPKernelApp.exec_lines``);
a worker's kept kernel starts from a seed that has it all imported already (``kernel_seed``).
It imports what every notebook imports (:data:`PRELOAD`: pandas, matplotlib, seaborn, the shared
chart and table modules) and freezes the lot (``gc.freeze``): imported later, by the first notebook,
they were walked by the first reset's full collections (0.14 s of CPU per kernel; 0.005 s now).
A module that fails to import there is skipped, so the notebook importing it fails with its own
error in a live kernel. SciPy is kept out of it. seaborn imports SciPy when it can, for density estimates and clustering no
chart here draws, and uses its own copies when SciPy is missing; that import was two thirds of
seaborn's (0.69 s of each kernel's start; 0.23 s without). SciPy stays installed for mlperf-logging's
checker, which runs at ingest, never in a kernel. A notebook that does import SciPy fails loudly.
The young-object collections run every 10,000 allocations instead of 700: a chart makes tens of
thousands of short-lived matplotlib objects, and collecting them every 700 was CPU for nothing
(alternating cold builds: a median 0.2 s sooner). IPython's input history is off
(``HistoryManager.enabled=False``): no SQLite database opened at start and no row written per cell
(about 3 ms a cell) for a history nobody reads; execution counts and outputs are the same.
"""

from __future__ import annotations

import time

from papermill.engines import NBClientEngine, NotebookExecutionManager, papermill_engines

NAME = "mlperf-report"
#: Seconds between saves while cells run (long notebooks still show progress on disk).
SAVE_EVERY = 5.0

_RESET = ("get_ipython().run_line_magic('reset', '-f')\n"
          "__import__('gc').freeze()\n"  # after the reset's collections: what is left lives on anyway
          "get_ipython().execution_count = 1\n")
#: What every notebook imports, imported when a kernel starts (see *Startup* above): the packages the
#: charts and tables are drawn with and the shared modules the notebooks of every suite import.
PRELOAD = ("numpy", "pandas", "matplotlib.pyplot", "matplotlib.figure", "matplotlib.backends.backend_svg", "seaborn",
           "IPython.display", "mlperf_report.analysis.outputs", "mlperf_report.analysis.figures",
           "mlperf_report.analysis.axes", "mlperf_report.analysis.chart_memo", "mlperf_report.analysis.measured_text",
           "mlperf_report.analysis.paint", "mlperf_report.analysis.html_tables")


def kernel_startup(preload=PRELOAD) -> str:
    """The code a kernel runs when it starts, before any notebook (see *Startup* above): ``preload``
    imported, then frozen. A module that fails to import is left out: the notebook importing it
    fails on its own line, with its own error, in a kernel that is alive."""
    return ("import sys; sys.modules.setdefault('scipy', None); import gc; gc.set_threshold(10000, 20, 20)\n"
            f"_module = None\nfor _module in {tuple(preload)!r}:\n"
            "    try:\n        __import__(_module)\n    except Exception:\n        pass\n"
            "del _module; gc.freeze()")


KERNEL_STARTUP = kernel_startup()
#: Arguments every kernel is started with.
KERNEL_ARGUMENTS = (f"--IPKernelApp.exec_lines={KERNEL_STARTUP}", "--HistoryManager.enabled=False")
#: Seconds a kept kernel may take to answer the reset before it is replaced.
RESET_TIMEOUT = 30.0
#: Seconds between liveness checks while waiting for the reset's reply.
LIVENESS_EVERY = 0.5


class _ThrottledSaves(NotebookExecutionManager):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._final = False
        self._saved_at = time.monotonic()

    def save(self, **kwargs):
        if self._final or time.monotonic() - self._saved_at >= SAVE_EVERY:
            super().save(**kwargs)
            self._saved_at = time.monotonic()

    def notebook_complete(self, **kwargs):
        self._final = True
        super().notebook_complete(**kwargs)


class ThrottledSaveEngine(NBClientEngine):
    """nbclient execution and papermill bookkeeping, fewer intermediate saves; a kernel manager passed
    as ``km`` is left running, and its client kept connected, for the next notebook."""

    @classmethod
    def execute_notebook(cls, nb, kernel_name, output_path=None, progress_bar=True, log_output=False,
                         autosave_cell_every=30, **kwargs):
        nb_man = _ThrottledSaves(nb, output_path=output_path, progress_bar=progress_bar, log_output=log_output,
                                 autosave_cell_every=autosave_cell_every)
        nb_man.notebook_start()
        try:
            cls.execute_managed_notebook(nb_man, kernel_name, log_output=log_output, **kwargs)
        finally:
            nb_man.cleanup_pbar()
            nb_man.notebook_complete()
        return nb_man.nb

    @classmethod
    def execute_managed_notebook(cls, nb_man, kernel_name, log_output=False, stdout_file=None, stderr_file=None,
                                 start_timeout=60, execution_timeout=None, **kwargs):
        from papermill.clientwrap import PapermillNotebookClient
        from papermill.log import logger

        kwargs = {k: v for k, v in kwargs.items() if k not in ("input_path", "timeout", "startup_timeout")}
        kwargs.setdefault("extra_arguments", list(KERNEL_ARGUMENTS))
        client = PapermillNotebookClient(nb_man, timeout=execution_timeout, startup_timeout=start_timeout,
                                         kernel_name=kernel_name, log=logger, log_output=log_output,
                                         stdout_file=stdout_file, stderr_file=stderr_file, **kwargs)
        if not client.owns_km:
            client.kc = _CLIENTS.get(id(client.km))  # None: nbclient connects (and waits) as usual
        try:
            return client.execute()
        finally:
            if not client.owns_km and getattr(client, "kc", None) is not None:
                _CLIENTS[id(client.km)] = client.kc


papermill_engines.register(NAME, ThrottledSaveEngine)

# --- one kernel per worker ------------------------------------------------------------------------

_KERNELS: dict = {}
_CLIENTS: dict = {}  # id(kernel manager) -> its kept, connected client


def worker_kernel(kernel_name: str):
    """This process's kernel manager for ``kernel_name``: the running kernel, reset, or a new manager
    (nbclient starts its kernel on first use, in papermill's working directory)."""
    from jupyter_core.utils import run_sync

    km = _KERNELS.get(kernel_name)
    if km is not None and km.has_kernel and id(km) in _CLIENTS:
        try:
            if run_sync(km.is_alive)():
                run_sync(_reset)(km, _CLIENTS[id(km)])
                return km
        except Exception:  # a kernel that cannot be reset is replaced, not trusted
            pass
    if km is not None:
        _shutdown(_KERNELS.pop(kernel_name))
    from jupyter_client.manager import AsyncKernelManager

    if not _KERNELS:
        from multiprocessing.util import Finalize

        Finalize(None, shutdown_kernels, exitpriority=10)  # runs when a pool worker exits
    km = AsyncKernelManager(kernel_name=kernel_name)
    _KERNELS[kernel_name] = km
    return km


async def _reset(km, kc) -> None:
    """Run the reset over the kept client and wait for its reply (the reply channel alone: nothing it
    prints is wanted, and nbclient skips its broadcast messages later). A kernel that dies meanwhile
    (a signal arrives a moment after ``is_alive`` said yes) is noticed within a second, not at the
    deadline."""
    from queue import Empty

    msg_id = kc.execute(_RESET, silent=True, store_history=False, allow_stdin=False)
    deadline = time.monotonic() + RESET_TIMEOUT
    while True:
        left = deadline - time.monotonic()
        try:
            reply = await kc.get_shell_msg(timeout=max(0.0, min(LIVENESS_EVERY, left)))
        except Empty:
            if left <= LIVENESS_EVERY or not await km.is_alive():
                raise
            continue
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    if reply["content"]["status"] != "ok":
        raise RuntimeError(f"kernel reset failed: {reply['content']}")


def _shutdown(km) -> None:
    from jupyter_core.utils import run_sync

    kc = _CLIENTS.pop(id(km), None)
    try:
        if kc is not None:
            kc.stop_channels()
        run_sync(km.shutdown_kernel)(now=True)
    except Exception:
        pass


def shutdown_kernels() -> None:
    """Stop every kernel this process kept."""
    while _KERNELS:
        _shutdown(_KERNELS.popitem()[1])
