"""Compliance verdicts from MLCommons' own checker, cached by file content.

MLCommons' result_summarizer runs ``mlperf_logging.compliance_checker`` (the round's ruleset,
``training_<ruleset>/common.yaml``) on every result file and counts a file that fails it as a run that
did not converge. We call the same library in process (no interpreter per file): the ruleset's own
MLLOG parser, then the checker's rules. A verdict depends only on the file's bytes, the ruleset and the
checker's version, so it is kept in a cache under ``.cache/compliance/`` keyed by exactly those; a
second ingest of the same round does not even hash its files: a small index remembers the hash of
each file by where its bytes come from (path, size, mtime and inode on disk; archive identity, member
name and stored CRC in a zip), as git's index does; a changed file has a new identity and is hashed
and judged again.

A file that fails today's rules is checked once more with the round's amendments
(``amendments``: rules changed after the round, as data): the same checker reading amended copies of
the rule files. Passing them makes the file compliant, with the amendment and today's complaint kept
beside the verdict. The amendments' digest is part of the cache's key, so editing them re-judges.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from mlperf_report.core.atomic import write_texts
from mlperf_report.core.sources import Source, ZipSource
from mlperf_report.suites.training import checker_speed

USAGE = "training"
MAX_WORDS = 240  # characters of the first failed check kept in runs.csv


@dataclass(frozen=True)
class Verdict:
    """The checker's word on one file: ``compliant``, else the first failed check in words.
    ``problem`` is set when the checker itself could not judge the file."""

    compliant: bool
    failed_check: str = ""
    problem: str = ""
    amendment: str = ""  # ids of the amendments that made the file compliant (space-separated)
    warning: str = ""  # what today's checker says about such a file: the reviewed checker's warning


@lru_cache(maxsize=1)
def checker_version() -> str:
    from importlib.metadata import version

    return version("mlperf-logging")


def cache_file(ruleset: str, cache_dir: Path, amended: str = "") -> Path:
    """The verdicts of one ruleset and checker version (and digest of the round's amendments, if any)."""
    suffix = f"-amended-{amended}" if amended else ""
    return cache_dir / "compliance" / f"{USAGE}-{ruleset}-mlperf_logging-{checker_version()}{suffix}.json"


def load_cache(ruleset: str, cache_dir: Path, amended: str = "") -> dict[str, list]:
    """Verdicts known for this ruleset, checker version and amendments: sha256 -> ``cache_entry``."""
    try:
        data = json.loads(cache_file(ruleset, cache_dir, amended).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_cache(ruleset: str, cache_dir: Path, cache: dict[str, list], amended: str = "") -> None:
    """Write the cache atomically (sorted, so the file is deterministic)."""
    text = json.dumps(dict(sorted(cache.items())), separators=(",", ":")) + "\n"
    write_texts({cache_file(ruleset, cache_dir, amended): text})


def index_file(cache_dir: Path) -> Path:
    return cache_dir / "compliance" / "digests.json"


def load_index(cache_dir: Path) -> dict[str, str]:
    """File identity -> content hash, for files hashed before."""
    try:
        data = json.loads(index_file(cache_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_index(cache_dir: Path, index: dict[str, str]) -> None:
    write_texts({index_file(cache_dir): json.dumps(dict(sorted(index.items())), separators=(",", ":")) + "\n"})


def identity(source: Source, name: str) -> str | None:
    """Where a file's bytes come from, cheaply (no read): None when the source cannot say."""
    try:
        local = source.local_path(name)
        if local is not None:
            st = os.stat(local)
            return f"file:{os.path.abspath(local)}:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"
        if isinstance(source, ZipSource):
            st, info = os.stat(source.path), source.zip.getinfo(name)
            return (f"zip:{os.path.abspath(source.path)}:{st.st_size}:{st.st_mtime_ns}:{name}:"
                    f"{info.CRC}:{info.file_size}")
    except (OSError, KeyError):
        return None
    return None


def cached_verdict(key: str | None, cache: dict[str, list]) -> Verdict | None:
    known = cache.get(key) if key else None
    if isinstance(known, list) and len(known) in (3, 5):
        return Verdict(bool(known[0]), *(str(value or "") for value in known[1:]))
    return None


def cache_entry(verdict: Verdict) -> list:
    """[compliant, failed_check, problem], plus [amendment, warning] when an amendment applied."""
    entry = [verdict.compliant, verdict.failed_check, verdict.problem]
    return entry + [verdict.amendment, verdict.warning] if verdict.amendment else entry


def digest(data) -> str:
    """Content hash of a file's bytes (bytes or mmap)."""
    return hashlib.sha256(data).hexdigest()


def _parser(ruleset: str):
    """The ruleset's own MLLOG parser module (e.g. ``mlp_parser.ruleset_410`` for 4.1.0)."""
    return importlib.import_module(
        "mlperf_logging.compliance_checker.mlp_parser.ruleset_" + ruleset.replace(".", ""))


def _in_words(message: str) -> str:
    """A checker message in one line: its first line and the failed test, without the context dumps."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    if not lines:
        return "failed a compliance check"
    kept = [lines[0].rstrip(":")] + [line for line in lines[1:] if line.startswith("failed test:")]
    text = "; ".join(kept)
    return text if len(text) <= MAX_WORDS else text[:MAX_WORDS - 1] + "…"


def parse_lines(lines, ruleset: str) -> tuple[list, list]:
    """The ruleset parser's ``parse_generator`` without its per-line regular expression: its
    ``re.sub(".*" + TOKEN, TOKEN, line)`` keeps a line from the last TOKEN on (``.*`` is greedy and a
    line holds no newline before its end), which ``str.rfind`` finds in a fraction of the time; each
    kept line then goes through the ruleset's own ``string_to_logline``, errors as the parser reports
    them. (A test checks the two agree on arbitrary lines.)"""
    parser = _parser(ruleset)
    if not (hasattr(parser, "TOKEN") and hasattr(parser, "string_to_logline")):  # a parser of another shape
        return parser.parse_generator(lines)
    token = parser.TOKEN
    loglines, failed = [], []
    lineno = 0
    for line in lines:
        at = line.rfind(token)
        if at == -1:
            continue
        text = line[at:].strip()
        try:
            loglines.append(parser.string_to_logline(lineno, text))
        except ValueError as error:
            failed.append((text, str(error)))
        lineno += 1
    return loglines, failed


@lru_cache(maxsize=1)
def _reviewed_checker_class():
    """MLCommons' checker, reading the amended copy of a rule file where an amendment changed it
    (``configured_checks`` is where it opens each file; everything else is the checker's own)."""
    from mlperf_logging.compliance_checker.mlp_compliance import ComplianceChecker

    class ReviewedChecker(ComplianceChecker):
        def __init__(self, ruleset: str, reviewed) -> None:
            super().__init__(USAGE, ruleset, True, False)
            self.reviewed, self.used = reviewed, set()

        def configured_checks(self, loglines, config_file):
            original = os.path.normpath(config_file)
            amended = self.reviewed.swapped.get(original)
            if amended:
                self.used.add(original)
            return super().configured_checks(loglines, amended or config_file)

    return ReviewedChecker


def _run_checker(loglines, errors, ruleset: str, reviewed=None):
    """One pass of the checker over parsed lines, exactly as the summarizer's ``mlp_compliance.main``:
    parse errors fail the file, then every configured check runs."""
    from mlperf_logging.compliance_checker import mlp_compliance

    checker_speed.install(mlp_compliance)
    mlp_compliance.enqueued_configs.clear()  # a module-level queue: never inherit a broken run's leftovers
    if reviewed is None:
        checker = mlp_compliance.make_checker(USAGE, ruleset, quiet=True, werror=False)
    else:
        checker = _reviewed_checker_class()(ruleset, reviewed)
    if errors:
        checker.put_message("Log lines had parsing errors.")
    checker.check_loglines(loglines, f"{USAGE}_{ruleset}/common.yaml")
    return checker


def _first_failure(checker) -> str:
    return _in_words(next(iter(checker.overwritable.values()), None) or checker.not_overwritable[0])


def _all_failures(checker) -> str:
    text = " | ".join(_in_words(m) for m in [*checker.overwritable.values(), *checker.not_overwritable])
    return text if len(text) <= MAX_WORDS else text[:MAX_WORDS - 1] + "…"


def check_lines(lines, ruleset: str, reviewed=None) -> Verdict:
    """Run MLCommons' checker (the round's ruleset) over the lines of one result file; when it fails
    and the round has amendments (``reviewed``: ``amendments.Reviewed``), once more with the rules as
    the round was reviewed. Passing those: compliant, the amendment named, today's complaint kept."""
    loglines, errors = parse_lines(lines, ruleset)
    checker = _run_checker(loglines, errors, ruleset)
    if not checker.has_messages():
        return Verdict(True)
    if errors:
        first = str(errors[0][1]).split(":")[0]
        return Verdict(False, _in_words(f"{len(errors)} MLLOG line(s) are corrupted and do not parse (first: {first})"))
    if reviewed is None:
        return Verdict(False, _first_failure(checker))
    again = _run_checker(loglines, errors, ruleset, reviewed)
    if again.has_messages():  # a failure under the rules the round was reviewed with: that one is reported
        return Verdict(False, _first_failure(again))
    applied = sorted({name for path in again.used for name in reviewed.applied[path]})
    return Verdict(True, amendment=" ".join(applied), warning=_all_failures(checker))


def check_bytes(data, ruleset: str, reviewed=None) -> Verdict:
    """Verdict for a whole file's bytes; a checker failure on the file is a verdict, never a crash."""
    lines = io.TextIOWrapper(io.BytesIO(data), encoding="latin-1")  # as the checker opens files (universal newlines)
    try:
        return check_lines(lines, ruleset, reviewed)
    except Exception as error:  # noqa: BLE001 - the checker runs the ruleset's code; any failure is the file's
        reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        return Verdict(False, "the compliance checker could not check this file",
                       problem=f"compliance checker failed on this file ({reason}); counted as not compliant")


def verdict_for(data, ruleset: str, cache: dict[str, list], reviewed=None) -> tuple[str, Verdict, bool]:
    """(content hash, verdict, whether it came from ``cache``)."""
    key = digest(data)
    known = cached_verdict(key, cache)
    if known is not None:
        return key, known, True
    return key, check_bytes(data, ruleset, reviewed), False
