"""Per-round facts of MLPerf Training: which benchmarks, how many runs, how they are scored.

Benchmark lists and result-file counts come from MLCommons' own ``mlperf-logging`` package, so a new
round needs a package upgrade, not a code change. What that package keeps only as code (the number of
runs olympic scoring drops, the round from which ``scaling.json`` applies) is kept here as data.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlperf_logging import benchmark_meta

from mlperf_report.core.rounds import parse_round_id
from mlperf_report.core.rounds import round_from_tree_name as core_round_from_tree_name
from mlperf_report.suites.training import catalogue

USAGE = "training"

#: Olympic scoring drops this many fastest and this many slowest runs (MLCommons' summarizer: 4 for
#: unet3d from Training v1.0 on, where 40 runs are required; 1 for every other benchmark).
_DROPPED_EACH_SIDE = {"unet3d": 4}

#: MLCommons' summarizer multiplies scores by ``scaling.json``'s factor from Training v2.0 on; the
#: published scores of earlier rounds did not, even where their trees hold such files.
SCALING_FROM = (2, 0)

@dataclass(frozen=True)
class Round:
    """One MLPerf Training round, e.g. ``Round(1, 0)`` is ``training-v1.0``."""

    major: int
    minor: int

    @property
    def id(self) -> str:
        return f"training-v{self.major}.{self.minor}"

    @property
    def version(self) -> str:
        return f"{self.major}.{self.minor}"

    @property
    def ruleset(self) -> str:
        return f"{self.major}.{self.minor}.0"

    @property
    def title(self) -> str:
        return f"MLPerf Training v{self.version}"

    @property
    def benchmarks(self) -> tuple[str, ...]:
        """Benchmarks allowed in this round, as mlperf-logging lists them."""
        try:
            return tuple(sorted(benchmark_meta.get_allowed_benchmarks(USAGE, self.ruleset)))
        except ValueError:
            return ()

    @property
    def applies_scaling(self) -> bool:
        return (self.major, self.minor) >= SCALING_FROM

    def __str__(self) -> str:
        return self.id


def parse_round(text: str) -> Round:
    """``training-v1.0`` (or ``v1.0``, ``1.0``) to a Round; a clear error for anything else."""
    round_id = parse_round_id(text)
    if round_id.suite != USAGE:
        raise ValueError(f"round {text.strip()!r} is not an MLPerf Training round (training-vX.Y)")
    return Round(round_id.major, round_id.minor)


def round_from_tree_name(name: str) -> Round | None:
    """The round a ``training_results_vX.Y`` folder, archive or URL name stands for, if any."""
    round_id = core_round_from_tree_name(name)
    return Round(round_id.major, round_id.minor) if round_id and round_id.suite == USAGE else None


def canonical_benchmark(folder_name: str) -> str:
    """Benchmark name of a results folder (``mask`` is ``maskrcnn``; aliases live in the catalogue)."""
    return catalogue.canonical(folder_name)


def required_runs(benchmark: str) -> int | None:
    """Result files a complete result set of ``benchmark`` needs, or None when it is unknown."""
    return benchmark_meta.get_result_file_counts(USAGE).get(benchmark)


def dropped_each_side(benchmark: str) -> int:
    """Runs olympic scoring drops at each end for ``benchmark``."""
    return _DROPPED_EACH_SIDE.get(benchmark, 1)


def benchmark_title(benchmark: str, round_id: str | Round | None = None, lang: str = "en") -> str:
    """``Image Classification (ResNet-50 v1.5)``: the full name the guidelines ask for, as the
    benchmark catalogue gives it for the round (``ssd`` is RetinaNet from v2.0); the id when unknown.
    Without a round, the newest round that lists the benchmark."""
    return catalogue.title(_round_for(benchmark, round_id), benchmark, lang)


def benchmark_model(benchmark: str, round_id: str | Round | None = None, lang: str = "en") -> str:
    """Short model name (``ResNet-50 v1.5``, ``BERT``) for headlines; the id when unknown."""
    return catalogue.model(_round_for(benchmark, round_id), benchmark, lang)


def _round_for(benchmark: str, round_id: str | Round | None) -> str:
    return str(round_id) if round_id is not None else (catalogue.newest_round(benchmark) or "")


def previous_round_id(round_id: str) -> str | None:
    """The round just before ``round_id`` among the rounds mlperf-logging knows (``training-v4.0`` for
    ``training-v4.1``, ``training-v3.1`` for ``training-v4.0``), or None."""
    this = parse_round(round_id)
    for major in range(this.major, -1, -1):
        top = this.minor - 1 if major == this.major else 9
        for minor in range(top, -1, -1):
            if Round(major, minor).benchmarks:
                return Round(major, minor).id
    return None
