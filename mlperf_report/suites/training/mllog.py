"""Scan one MLLOG result file for the few keys scoring needs, without reading it line by line.

Result files are megabytes of ordinary log output with ``:::MLLOG {json}`` lines scattered between;
only a handful of those lines matter (``run_start``, ``run_stop`` and some submission facts). One
compiled pattern finds the ``"key": "<wanted>"`` fragments at C speed; only the lines around those
hits are decoded and parsed. Files are streamed in chunks (or memory-mapped), never read whole.
Like MLCommons' summarizer, the first ``run_start`` and the first ``run_stop`` of a file count.
"""

from __future__ import annotations

import mmap
import os
import re
from dataclasses import dataclass, field
from typing import BinaryIO

from mlperf_logging.mllog import constants as keys

from mlperf_report.core import limits

#: The MLLOG keys read from every result file (names from MLCommons' mlperf-logging package).
WANTED_KEYS = (
    keys.RUN_START,
    keys.RUN_STOP,
    keys.SUBMISSION_BENCHMARK,
    keys.SUBMISSION_DIVISION,
    keys.SUBMISSION_ORG,
    keys.GLOBAL_BATCH_SIZE,
    keys.SEED,
    keys.TRAIN_SAMPLES,
)
_KEY_PATTERN = re.compile(rb'"key":\s*"(' + b"|".join(k.encode() for k in WANTED_KEYS) + rb')"')
_MARKER = b":::MLLOG"
CHUNK_BYTES = limits.CHUNK_BYTES
#: A time_ms beyond this (about the year 33,700) is not a clock reading.
_MAX_TIME_MS = 1e15


@dataclass
class RunFacts:
    """What one result file says about its run. ``problems`` are human-readable, one per issue."""

    run_start_ms: float | None = None
    run_stop_ms: float | None = None
    stop_status: str | None = None
    values: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    mllog_hits: int = 0
    size: int = 0
    #: bytes actually read (decompressed): scanning stops at the first run_stop or at a limit
    bytes_read: int = 0

    @property
    def converged(self) -> bool:
        return (self.stop_status == "success" and self.run_start_ms is not None
                and self.run_stop_ms is not None and self.run_stop_ms >= self.run_start_ms)

    @property
    def readable(self) -> bool:
        """False when the file is not an MLLOG log at all (nothing to score, not merely unconverged)."""
        return self.run_start_ms is not None or self.run_stop_ms is not None

    @property
    def minutes(self) -> float | None:
        if self.run_start_ms is None or self.run_stop_ms is None:
            return None
        return (self.run_stop_ms - self.run_start_ms) / 60 / 1000  # as MLCommons' summarizer computes it


class _Scanner:
    """Accumulates facts over the buffers of one file, tracking line numbers for messages."""

    def __init__(self) -> None:
        self.facts = RunFacts()
        self.lines_before = 0  # newlines in the buffers already done
        self.done = False
        self.scanned_to = 0  # where the last feed stopped (its end, or just after the run_stop line)

    def feed(self, buf, end: int) -> None:
        """Scan ``buf[:end]``, which ends at a line boundary (or at the end of the file)."""
        facts = self.facts
        self.scanned_to = end
        next_line = 0
        for match in _KEY_PATTERN.finditer(buf, 0, end):
            if match.start() < next_line:
                continue  # inside an overlong line already reported
            key = match.group(1).decode()
            if key in facts.values or (key == keys.RUN_START and facts.run_start_ms is not None):
                continue
            start = buf.rfind(b"\n", 0, match.start()) + 1
            stop = buf.find(b"\n", match.end(), end)
            stop = stop if stop != -1 else end
            if stop - start > limits.MAX_LINE_BYTES:
                facts.problems.append(f"line {self._line_number(buf, start)}: longer than "
                                      f"{limits.mib(limits.MAX_LINE_BYTES)} (limit MAX_LINE_BYTES); skipped")
                next_line = stop
                continue
            line = buf[start:stop]
            marker = line.find(_MARKER)
            if marker == -1:
                continue
            facts.mllog_hits += 1
            record = self._parse(line[marker + len(_MARKER):], buf, start)
            if record is None or record.get("key") != key:
                continue
            self._take(key, record, buf, start)
            if facts.run_stop_ms is not None:
                self.done = True
                self.scanned_to = stop
                return

    def _line_number(self, buf, pos: int) -> int:
        return self.lines_before + buf[:pos].count(b"\n") + 1  # only on a problem: mmap has no count()

    def _parse(self, payload: bytes, buf, pos: int) -> dict | None:
        payload = payload.strip()
        try:
            return limits.loads(payload, "MLLOG line")
        except limits.LimitError as error:
            self.facts.problems.append(f"line {self._line_number(buf, pos)}: {error}")
            return None
        except UnicodeDecodeError:
            self.facts.problems.append(
                f"line {self._line_number(buf, pos)}: MLLOG line is not valid UTF-8; read with replacement characters")
            try:
                return limits.loads(payload.decode("utf-8", errors="replace"), "MLLOG line")
            except ValueError:
                pass
        except ValueError:
            pass
        self.facts.problems.append(f"line {self._line_number(buf, pos)}: MLLOG line is not valid JSON; ignored")
        return None

    def _take(self, key: str, record: dict, buf, pos: int) -> None:
        facts = self.facts
        time_ms = record.get("time_ms")
        if key in (keys.RUN_START, keys.RUN_STOP):
            if not isinstance(time_ms, (int, float)) or isinstance(time_ms, bool):
                facts.problems.append(f"line {self._line_number(buf, pos)}: {key} has no numeric time_ms; ignored")
                return
            if not limits.finite(time_ms) or abs(time_ms) > _MAX_TIME_MS:
                facts.problems.append(f"line {self._line_number(buf, pos)}: {key} time_ms {time_ms!r} is not a "
                                      "finite, plausible time; ignored")
                return
            if key == keys.RUN_START:
                facts.run_start_ms = float(time_ms)
            else:
                facts.run_stop_ms = float(time_ms)
                metadata = record.get("metadata") or {}
                status = metadata.get("status") if isinstance(metadata, dict) else None
                facts.stop_status = str(status) if status is not None else "unknown"
        else:
            facts.values[key] = record.get("value")

    def finish(self, ended_with_newline: bool) -> RunFacts:
        facts = self.facts
        if facts.size == 0:
            facts.problems.append("empty file")
        elif facts.mllog_hits == 0 and not facts.readable:
            facts.problems.append("no MLLOG run_start/run_stop lines: not an MLLOG result log")
        else:
            if facts.run_start_ms is None:
                facts.problems.append("no run_start line; the run cannot be timed")
            if facts.run_stop_ms is None:
                hint = " (the file ends mid-line: truncated?)" if not ended_with_newline else ""
                facts.problems.append(f"no run_stop line{hint}; counted as not converged")
            elif facts.run_start_ms is not None and facts.run_stop_ms < facts.run_start_ms:
                facts.problems.append("run_stop is earlier than run_start; counted as not converged")
            elif facts.minutes is not None and facts.minutes > limits.MAX_RUN_MINUTES:
                facts.problems.append(f"run_stop is {facts.minutes:.4g} minutes after run_start, more than "
                                      f"{limits.MAX_RUN_MINUTES} (limit MAX_RUN_MINUTES); run_stop ignored, "
                                      "counted as not converged")
                facts.run_stop_ms = None
        return facts


def scan_buffer(buf) -> RunFacts:
    """Scan a whole file held in ``buf`` (bytes or mmap)."""
    scanner = _Scanner()
    scanner.facts.size = len(buf)
    end = min(len(buf), limits.MAX_MEMBER_BYTES)
    if end < len(buf):  # cut at the last line boundary within the limit
        end = buf.rfind(b"\n", 0, end) + 1 or end
    scanner.feed(buf, end)
    if not scanner.done and end < len(buf):
        scanner.facts.problems.append(_member_limit_problem())
    scanner.facts.bytes_read = scanner.scanned_to
    return scanner.finish(ended_with_newline=len(buf) == 0 or buf[-1:] == b"\n")


def _member_limit_problem() -> str:
    return (f"larger than {limits.mib(limits.MAX_MEMBER_BYTES)} (limit MAX_MEMBER_BYTES) with no run_stop "
            "before that; the rest is not read")


def scan_stream(handle: BinaryIO, chunk_bytes: int = CHUNK_BYTES) -> RunFacts:
    """Scan a file read as a stream, ``chunk_bytes`` at a time, carrying the partial last line over."""
    scanner = _Scanner()
    carry = b""
    last = b""
    size = 0
    skipping = False  # inside a line longer than MAX_LINE_BYTES: drop bytes up to its end
    while not scanner.done:
        if size >= limits.MAX_MEMBER_BYTES:
            if handle.read(1):
                scanner.facts.problems.append(_member_limit_problem())
            break
        chunk = handle.read(min(chunk_bytes, limits.MAX_MEMBER_BYTES - size))
        if not chunk:
            break
        size += len(chunk)
        last = chunk[-1:]
        if skipping:
            newline = chunk.find(b"\n")
            if newline == -1:
                continue
            scanner.lines_before += 1
            chunk, skipping = chunk[newline + 1:], False
        buf = carry + chunk if carry else chunk
        end = buf.rfind(b"\n") + 1
        if end:
            scanner.feed(buf, end)
            scanner.lines_before += buf.count(b"\n", 0, end)
        carry = buf[end:]
        if len(carry) > limits.MAX_LINE_BYTES:  # never buffer an endless line: linear time, bounded memory
            scanner.facts.problems.append(
                f"line {scanner.lines_before + 1}: longer than {limits.mib(limits.MAX_LINE_BYTES)} "
                "(limit MAX_LINE_BYTES); skipped")
            carry, skipping = b"", True
    if carry and not scanner.done:
        scanner.feed(carry, len(carry))
    scanner.facts.size = size  # bytes read: the rest, after the first run_stop, cannot change the facts
    scanner.facts.bytes_read = size
    return scanner.finish(ended_with_newline=size == 0 or last == b"\n")


def scan_path(path) -> RunFacts:
    """Scan a file on disk through a read-only memory map (no copy of the file into memory)."""
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size > limits.MAX_MAPPED_BYTES:
            return scan_stream(handle)  # bounded memory however large the file
        try:
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as buf:
                return scan_buffer(buf)
        except ValueError:  # empty files cannot be mapped
            return scan_buffer(b"")
