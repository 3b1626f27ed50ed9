"""Round ids of any MLPerf suite: ``training-v1.0``, ``inference-v4.1``.

Only the naming lives here (what a round id, a results-tree name and a title look like); what a round
of a suite contains is that suite's business (``suites/<suite>/rounds``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The suite of a bare version (``v1.0``, ``1.0``). Which suites exist is the registry's business
#: (``suites.names()``); here a suite is any lowercase word, as round ids and results repositories spell it.
DEFAULT_SUITE = "training"

_ROUND_ID = re.compile(r"^(?:(?P<suite>[a-z]+)-)?v?(?P<major>\d+)\.(?P<minor>\d+)$")
_TREE_NAME = re.compile(r"(?P<suite>[a-z]+)_results_v(?P<major>\d+)\.(?P<minor>\d+)")


@dataclass(frozen=True, order=True)
class RoundId:
    """A suite and a version, e.g. ``RoundId("inference", 4, 1)`` is ``inference-v4.1``."""

    suite: str
    major: int
    minor: int

    @property
    def id(self) -> str:
        return f"{self.suite}-v{self.major}.{self.minor}"

    @property
    def version(self) -> str:
        return f"{self.major}.{self.minor}"

    @property
    def title(self) -> str:
        return f"MLPerf {self.suite.capitalize()} v{self.version}"

    def __str__(self) -> str:
        return self.id


#: Where MLCommons publishes a round's results tree (``{suite}_results_v{version}``).
RESULTS_URL = "https://github.com/mlcommons/{suite}_results_v{version}"


def ingest_command(round_id: RoundId) -> str:
    """The one command that ingests a round from MLCommons' public repository."""
    return f"python build.py ingest {RESULTS_URL.format(suite=round_id.suite, version=round_id.version)}"


def successors(round_id: RoundId) -> list[RoundId]:
    """The names the next round of a suite may have: the next minor version, then the next major
    (``training-v4.1`` -> ``training-v4.2``, ``training-v5.0``)."""
    return [RoundId(round_id.suite, round_id.major, round_id.minor + 1), RoundId(round_id.suite, round_id.major + 1, 0)]


def parse_round_id(text: str, default_suite: str = DEFAULT_SUITE) -> RoundId:
    """``training-v1.0``, ``inference-v4.1`` (or ``v1.0``, ``1.0`` for the default suite) to a RoundId;
    a clear error for anything else."""
    match = _ROUND_ID.match(text.strip())
    suite = (match.group("suite") or default_suite) if match else None
    if not match:
        raise ValueError(f"round {text.strip()!r} is not of the form <suite>-vX.Y "
                         f"(for example training-v1.0 or inference-v4.1)")
    return RoundId(suite, int(match.group("major")), int(match.group("minor")))


def round_from_tree_name(name: str) -> RoundId | None:
    """The round a ``training_results_vX.Y`` / ``inference_results_vX.Y`` folder, archive or URL names."""
    match = _TREE_NAME.search(name)
    if not match:
        return None
    return RoundId(match.group("suite"), int(match.group("major")), int(match.group("minor")))


def rounds_present(data_dir) -> list[str]:
    """Round ids of every suite with a results table under ``data_dir`` (``data/<round>/results.csv``),
    in round order (suite, then version)."""
    from pathlib import Path

    found = []
    for folder in Path(data_dir).iterdir() if Path(data_dir).is_dir() else ():
        try:
            parsed = parse_round_id(folder.name)
        except ValueError:
            continue
        if parsed.id == folder.name and (folder / "results.csv").is_file():
            found.append(parsed)
    return [r.id for r in sorted(found)]


def rounds_up_to(round_id: str, data_dir) -> list[str]:
    """The rounds of ``round_id``'s suite present under ``data_dir`` up to and including it, oldest first
    (the round-over-round comparisons read them)."""
    this = parse_round_id(round_id)
    return [r for r in rounds_present(data_dir)
            if parse_round_id(r).suite == this.suite and parse_round_id(r) <= this]


def latest_before(round_id: str, available) -> str | None:
    """The newest of ``available`` before ``round_id`` in the same suite, or None."""
    this = parse_round_id(round_id)
    earlier = [parse_round_id(r) for r in available]
    earlier = [r for r in earlier if r.suite == this.suite and r < this]
    return max(earlier).id if earlier else None
