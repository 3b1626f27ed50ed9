"""Scanning a Training round's result files with the shared bounded reader (``ingest.reader``), and
judging each with MLCommons' compliance checker from the same bytes: the verdict cache, the round's
amendments, and the checker's summary for the manifest."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pandas as pd

from mlperf_report.core import limits
from mlperf_report.core.sources import Source
from mlperf_report.ingest import reader
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.mllog import RunFacts, scan_buffer, scan_path, scan_stream
from mlperf_report.suites.training.tree import ResultFile


@dataclass(frozen=True)
class CheckSetup:
    """What the workers need to judge files: the ruleset, its amendments ready for the checker
    (``amendments.Reviewed`` or None) and the verdicts already known."""

    ruleset: str
    cache: dict
    index: dict  # file identity -> content hash (see compliance.identity)
    reviewed: object = None
    amendments: tuple = ()
    amendments_file: str = ""

    @property
    def amended(self) -> str:
        return self.reviewed.digest if self.reviewed is not None else ""


def _read_one(source: Source, name: str, check: CheckSetup | None) -> tuple[RunFacts, tuple | None]:
    """Scan one file; with ``check``, also its compliance verdict: (hash, verdict, cached?, identity),
    from the cache when the file's identity is known, else judged from the same bytes as the scan."""
    local = source.local_path(name)
    known = None
    if check is not None:
        from mlperf_report.suites.training import compliance

        where = compliance.identity(source, name)
        key = check.index.get(where) if where else None
        verdict = compliance.cached_verdict(key, check.cache)
        known = (key, verdict, True, where) if verdict is not None else None
    if check is None or known is not None:
        if local is not None:
            return scan_path(local), known
        with source.open(name) as handle:
            return scan_stream(handle), known
    data = _bounded_bytes(source, name, local)
    if data is None:  # larger than any real result file: scanned, not judged
        facts = _read_one(source, name, None)[0]
        facts.problems.append(_TOO_LARGE_TO_CHECK)
        return facts, None
    facts = scan_buffer(data) if local is not None else _scan_as_streamed(data)
    return facts, (*compliance.verdict_for(data, check.ruleset, check.cache, check.reviewed), where)


def _scan_as_streamed(data: bytes) -> RunFacts:
    """Scan bytes already read exactly as the archive stream is scanned when the verdict is cached, so
    the facts (and ``bytes_scanned``) never depend on the state of the verdict cache."""
    import io

    return scan_stream(io.BytesIO(data))


def _bounded_bytes(source: Source, name: str, local) -> bytes | None:
    """The whole file for the checker, or None past ``limits.MAX_CHECKED_BYTES`` (never read whole)."""
    if local is not None:
        if local.stat().st_size > limits.MAX_CHECKED_BYTES:
            return None
        return local.read_bytes()
    with source.open(name) as handle:
        data = handle.read(limits.MAX_CHECKED_BYTES + 1)
    return None if len(data) > limits.MAX_CHECKED_BYTES else data


_TOO_LARGE_TO_CHECK = (f"larger than {limits.MAX_CHECKED_BYTES >> 20} MiB (limit MAX_CHECKED_BYTES): not given to "
                       "MLCommons' compliance checker; its verdict is left empty")


class _Chained:
    """A stream that first gives back bytes already read, then the rest of ``handle``."""

    def __init__(self, head: bytes, handle) -> None:
        self.head, self.handle = head, handle

    def read(self, size: int = -1) -> bytes:
        if self.head:
            out, self.head = (self.head, b"") if size < 0 or size >= len(self.head) else (self.head[:size], self.head[size:])
            return out
        return self.handle.read(size)


def _unreadable(error: BaseException) -> tuple[RunFacts, None]:
    return RunFacts(problems=[f"cannot be read ({type(error).__name__}: {error})"]), None


def _never_reached(why: str) -> tuple[RunFacts, None]:
    return RunFacts(problems=[why]), None


def _scan_member(name: str, handle, check: CheckSetup | None) -> tuple[RunFacts, tuple | None]:
    """A tar member, streamed once: scanned, and with ``check`` judged from the same bytes."""
    if check is None:
        return scan_stream(handle), None
    from mlperf_report.suites.training import compliance

    data = handle.read(limits.MAX_CHECKED_BYTES + 1)
    if len(data) > limits.MAX_CHECKED_BYTES:
        facts = scan_stream(_Chained(data, handle))
        facts.problems.append(_TOO_LARGE_TO_CHECK)
        return facts, None
    verdict = compliance.verdict_for(data, check.ruleset, check.cache, check.reviewed)
    return _scan_as_streamed(data), (*verdict, None)


def scan_results(source: Source, files: list[ResultFile], jobs: int,
                 progress: Callable[[int, int], None] | None = None, check: CheckSetup | None = None,
                 verdicts: dict | None = None) -> dict[str, RunFacts]:
    """Scan every result file with the shared bounded reader (``ingest.reader``). With ``check``, each
    file's (hash, compliance verdict, cached?) goes into ``verdicts``."""
    outcomes = reader.read_files(
        source, [(f.entry.name, f.entry.size) for f in files], read=functools.partial(_read_one, check=check),
        stream=functools.partial(_scan_member, check=check), failed=_unreadable, missing=_never_reached,
        jobs=jobs, progress=progress, progress_every=100 if check is None else 10,
        batches_per_job=4 if check is None else 32)
    verdicts = {} if verdicts is None else verdicts
    verdicts.update((name, outcome[1]) for name, outcome in outcomes.items() if outcome[1] is not None)
    return {name: outcome[0] for name, outcome in outcomes.items()}


def check_setup(round_: rounds.Round, cache_dir: Path | None, amendments_file: Path | None = None) -> CheckSetup:
    """The round's cache and amendments (patched rule files written before the workers fork)."""
    from mlperf_report.core import paths
    from mlperf_report.suites.training import amendments as amend
    from mlperf_report.suites.training import compliance as checker

    cache_dir = cache_dir or paths.CACHE
    amendments_file = amendments_file or amend.FILE
    found = amend.for_round(round_.id, amendments_file)
    reviewed = amend.prepare(round_.ruleset, found, cache_dir)
    digest = reviewed.digest if reviewed is not None else ""
    return CheckSetup(round_.ruleset, checker.load_cache(round_.ruleset, cache_dir, digest),
                      checker.load_index(cache_dir), reviewed, found, amend.display_path(amendments_file))


def save_verdicts(round_: rounds.Round, cache_dir: Path | None, check: CheckSetup, verdicts: dict) -> None:
    """Add the verdicts computed now to the cache (nothing is written on a fully warm run)."""
    from mlperf_report.core import paths
    from mlperf_report.suites.training import compliance as checker

    cache_dir = cache_dir or paths.CACHE
    new = {key: checker.cache_entry(verdict) for key, verdict, cached, _ in verdicts.values() if not cached}
    places = {where: key for key, _, _, where in verdicts.values() if where and check.index.get(where) != key}
    try:
        if new:
            checker.save_cache(round_.ruleset, cache_dir, {**check.cache, **new}, check.amended)
        if places:
            checker.save_index(cache_dir, {**check.index, **places})
    except OSError:
        pass  # a read-only checkout still ingests; the verdicts are computed again next time


def compliance_manifest(round_: rounds.Round, check: CheckSetup | None, verdicts: dict,
                         runs: pd.DataFrame) -> dict:
    """The checker's summary: files judged, non-compliant, the round's amendments with the runs each
    made compliant, and the drift alarms (rules failing across a benchmark's submitters)."""
    if check is None:
        return {"checked": False,
                "note": "ingested with --no-compliance: the scores are unchecked (MLCommons' compliance "
                        "checker did not judge the result files)"}
    from mlperf_report.suites.training import compliance as checker, drift

    values = [outcome[:3] for outcome in verdicts.values()]
    applied = runs["amendment"].fillna("").str.split()
    return {"checked": True, "checker": f"mlperf-logging {checker.checker_version()}",
            "ruleset": f"{checker.USAGE}_{round_.ruleset}", "files_checked": len(values),
            "noncompliant": sum(1 for _, verdict, _ in values if not verdict.compliant),
            "amendments_file": check.amendments_file,
            "amendments": [{**a.summary(), "runs": int(applied.map(lambda ids, a=a: a.id in ids).sum())}
                           for a in check.amendments],
            "drift": drift.find(runs)}
