"""Round day, unattended: which rounds are new, where they are, and which steps of each are done.

``build.py watch`` looks for a round it has not handled in the configured sources: git URL templates
(``https://github.com/mlcommons/{suite}_results_v{version}``, tried for the names the next rounds
will have) and folders where archives are dropped (``training_results_v5.1.zip``). The state file
records, per round, the source and each step that finished (ingest, report, send), written
atomically after every step, so a watcher killed midway resumes at the first unfinished step and
never repeats one that finished (the send step itself is exactly-once through the send log).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from mlperf_report.core.atomic import write_text
from mlperf_report.core.rounds import RoundId, parse_round_id, successors

STEPS = ("ingest", "report", "focus-each", "send")  # focus-each: one report per focus (watch.focus_each)
_ARCHIVE = re.compile(r"^(?P<suite>[a-z]+)_results_v(?P<major>\d+)\.(?P<minor>\d+)(?:\.zip|\.tar(?:\.\w+)?|\.tgz)$")


@dataclass(frozen=True)
class Found:
    """A round that is new to the watcher, and the source it will be ingested from."""

    round_id: str
    source: str


@dataclass
class State:
    """``{round: {"source", "steps": [done...], "alerted": step or null}}`` as stored in the state file."""

    rounds: dict[str, dict] = field(default_factory=dict)

    def done(self, round_id: str, step: str) -> bool:
        return step in self.rounds.get(round_id, {}).get("steps", [])

    def finish(self, round_id: str, step: str) -> None:
        entry = self.rounds.setdefault(round_id, {"source": "", "steps": [], "alerted": None})
        entry["steps"] = [s for s in STEPS if s in entry["steps"] or s == step]
        entry["alerted"] = None

    def complete(self, round_id: str) -> bool:
        return all(self.done(round_id, step) for step in STEPS)


def load_state(path: Path) -> State:
    """The state file, or an empty state when there is none yet; a damaged file is an error that names it."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return State()
    except ValueError as error:
        raise ValueError(f"{path}: not a watch state file ({error}); move it away to start afresh") from None
    return State(dict(raw.get("rounds") or {}))


def save_state(path: Path, state: State) -> None:
    write_text(path, json.dumps({"rounds": state.rounds}, indent=2, sort_keys=True) + "\n")


def candidates(known: Iterable[str], suites: Iterable[str]) -> list[RoundId]:
    """The names the next round of each suite may have, after the newest round known of it."""
    parsed = [parse_round_id(r) for r in known]
    out = []
    for suite in suites:
        mine = [r for r in parsed if r.suite == suite]
        if mine:
            out += successors(max(mine))
    return out


def archives_in(folder: Path) -> dict[str, Path]:
    """Round id -> archive, for every ``<suite>_results_vX.Y`` archive dropped in ``folder``."""
    found = {}
    for path in sorted(Path(folder).glob("*_results_v*")):
        match = _ARCHIVE.match(path.name)
        if match and path.is_file():
            found[RoundId(match["suite"], int(match["major"]), int(match["minor"])).id] = path
    return found


def find_new(sources: Iterable[str], known: Iterable[str], suites: Iterable[str],
             exists: Callable[[str], bool]) -> list[Found]:
    """Rounds not in ``known`` that a source now holds: archives in a folder source, or a git URL
    template (``{suite}``, ``{version}``) that answers for one of the next rounds' names."""
    known = set(known)
    found: dict[str, Found] = {}
    for source in sources:
        if "{version}" in source:
            for round_ in candidates(known, suites):
                url = source.format(suite=round_.suite, version=round_.version)
                if round_.id not in known and round_.id not in found and exists(url):
                    found[round_.id] = Found(round_.id, url)
        elif Path(source).is_dir():
            for round_id, path in archives_in(Path(source)).items():
                if round_id not in known and round_id not in found and parse_round_id(round_id).suite in suites:
                    found[round_id] = Found(round_id, str(path))
    return sorted(found.values(), key=lambda f: parse_round_id(f.round_id))
