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
"""

from __future__ import annotations

import time

from papermill.engines import NBClientEngine, NotebookExecutionManager, papermill_engines

NAME = "mlperf-report"
#: Seconds between saves while cells run (long notebooks still show progress on disk).
SAVE_EVERY = 5.0

_RESET = "get_ipython().run_line_magic('reset', '-f')\nget_ipython().execution_count = 1\n"


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
    as ``km`` is left running (its client's channels are closed) for the next notebook."""

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
        client = PapermillNotebookClient(nb_man, timeout=execution_timeout, startup_timeout=start_timeout,
                                         kernel_name=kernel_name, log=logger, log_output=log_output,
                                         stdout_file=stdout_file, stderr_file=stderr_file, **kwargs)
        try:
            return client.execute()
        finally:
            if not client.owns_km and getattr(client, "kc", None) is not None:
                client.kc.stop_channels()


papermill_engines.register(NAME, ThrottledSaveEngine)

# --- one kernel per worker ------------------------------------------------------------------------

_KERNELS: dict = {}


def worker_kernel(kernel_name: str):
    """This process's kernel manager for ``kernel_name``: the running kernel, reset, or a new manager
    (nbclient starts its kernel on first use, in papermill's working directory)."""
    from jupyter_core.utils import run_sync

    km = _KERNELS.get(kernel_name)
    if km is not None and km.has_kernel:
        try:
            if run_sync(km.is_alive)():
                run_sync(_reset)(km)
                return km
        except Exception:  # a kernel that cannot be reset is replaced, not trusted
            pass
        _shutdown(km)
    from jupyter_client.manager import AsyncKernelManager

    if not _KERNELS:
        from multiprocessing.util import Finalize

        Finalize(None, shutdown_kernels, exitpriority=10)  # runs when a pool worker exits
    km = AsyncKernelManager(kernel_name=kernel_name)
    _KERNELS[kernel_name] = km
    return km


async def _reset(km) -> None:
    kc = km.client()
    kc.start_channels()
    try:
        await kc.wait_for_ready(timeout=30)
        reply = await kc.execute_interactive(_RESET, store_history=False, timeout=30, output_hook=lambda msg: None)
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"kernel reset failed: {reply['content']}")
    finally:
        kc.stop_channels()


def _shutdown(km) -> None:
    from jupyter_core.utils import run_sync

    try:
        run_sync(km.shutdown_kernel)(now=True)
    except Exception:
        pass


def shutdown_kernels() -> None:
    """Stop every kernel this process kept."""
    while _KERNELS:
        _shutdown(_KERNELS.popitem()[1])
