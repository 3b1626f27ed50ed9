"""What the analysis stage plans and returns: notebook jobs, the plan, and each notebook's result.

Plain data shared by ``pipeline`` (which makes the plan), ``stamps`` (which decides what is up to
date) and ``runner`` (which executes), and by the stages after it, which read ``NotebookResult``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mlperf_report.core import paths
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # an annotation only: `build.py report --help` need not load the configuration
    from mlperf_report.core.config import ReportConfig

KERNEL = "python3"


@dataclass(frozen=True)
class NotebookJob:
    """One notebook execution: what runs, with which parameters, where it goes, what it reads.

    ``shared``: its parameters name no focus, so a batch of focuses (``report --focus-each``) runs it
    once and every focus's report shows that one executed notebook."""

    name: str
    notebook: Path
    output: Path
    figures: Path
    parameters: dict
    inputs: tuple[Path, ...]
    shared: bool = False

    @property
    def stamp(self) -> Path:
        return self.output.with_suffix(".stamp.json")


@dataclass(frozen=True)
class Plan:
    round_id: str
    jobs: tuple[NotebookJob, ...]
    workers: int
    force: bool = False
    output_dir: Path = paths.OUTPUT
    fresh_kernels: bool = False     # a new kernel per notebook instead of one reset kernel per worker
    data_dir: Path = paths.DATA     # the round's tables (the results workbook is made from them)
    #: The typed configuration, overrides applied, resolved once by the planner (``suites.planner``)
    #: for every stage after it (the assembly, the batch); None for a plan made by hand.
    config: ReportConfig | None = None

    @property
    def kernel_log(self) -> Path:
        """Where the kernels' own stderr goes (it would drown the progress display)."""
        return self.output_dir / self.round_id / "notebooks" / "kernels.log"


@dataclass
class NotebookResult:
    name: str
    notebook: Path           # the executed (or partial, when failed) notebook
    figures: Path
    status: str              # ok | cached | failed
    seconds: float = 0.0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status in ("ok", "cached")
