"""A papermill engine that saves the running notebook every few seconds instead of after every cell.

papermill's default engine rewrites (and re-validates) the whole notebook after each cell: with a
dozen SVG charts that is ~0.5 s of CPU per notebook, taken from the kernels running beside it. Here
saves during execution are throttled to one per :data:`SAVE_EVERY` seconds, and the final save still
happens whatever the outcome, so a failed or killed kernel leaves its partial notebook exactly as
before.
"""

from __future__ import annotations

import time

from papermill.engines import NBClientEngine, NotebookExecutionManager, papermill_engines

NAME = "mlperf-report"
#: Seconds between saves while cells run (long notebooks still show progress on disk).
SAVE_EVERY = 5.0


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
    """nbclient execution, papermill bookkeeping, fewer intermediate saves."""

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


papermill_engines.register(NAME, ThrottledSaveEngine)
