"""Scan one MLLOG result file for the few keys scoring needs, without reading it line by line.

Result files are megabytes of ordinary log output with ``:::MLLOG {json}`` lines scattered between;
only a handful of those lines matter (``run_start``, ``run_stop`` and some submission facts). One
compiled pattern finds the ``"key": "<wanted>"`` fragments at C speed; only the lines around those
hits are decoded and parsed. Files are streamed in chunks (or memory-mapped), never read whole.
Like MLCommons' summarizer, the first ``run_start`` and the first ``run_stop`` of a file count.
"""

from __future__ import annotations

import json
import mmap
import re
from dataclasses import dataclass, field
from typing import BinaryIO

from mlperf_logging.mllog import constants as keys

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
CHUNK_BYTES = 8 << 20


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

    def feed(self, buf, end: int) -> None:
        """Scan ``buf[:end]``, which ends at a line boundary (or at the end of the file)."""
        facts = self.facts
        for match in _KEY_PATTERN.finditer(buf, 0, end):
            key = match.group(1).decode()
            if key in facts.values or (key == keys.RUN_START and facts.run_start_ms is not None):
                continue
            start = buf.rfind(b"\n", 0, match.start()) + 1
            stop = buf.find(b"\n", match.end(), end)
            line = buf[start:stop if stop != -1 else end]
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
                return

    def _line_number(self, buf, pos: int) -> int:
        return self.lines_before + buf[:pos].count(b"\n") + 1  # only on a problem: mmap has no count()

    def _parse(self, payload: bytes, buf, pos: int) -> dict | None:
        payload = payload.strip()
        try:
            return json.loads(payload)
        except UnicodeDecodeError:
            self.facts.problems.append(
                f"line {self._line_number(buf, pos)}: MLLOG line is not valid UTF-8; read with replacement characters")
            try:
                return json.loads(payload.decode("utf-8", errors="replace"))
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
            if not isinstance(time_ms, (int, float)):
                facts.problems.append(f"line {self._line_number(buf, pos)}: {key} has no numeric time_ms; ignored")
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
        return facts


def scan_buffer(buf) -> RunFacts:
    """Scan a whole file held in ``buf`` (bytes or mmap)."""
    scanner = _Scanner()
    scanner.facts.size = len(buf)
    scanner.feed(buf, len(buf))
    return scanner.finish(ended_with_newline=len(buf) == 0 or buf[-1:] == b"\n")


def scan_stream(handle: BinaryIO, chunk_bytes: int = CHUNK_BYTES) -> RunFacts:
    """Scan a file read as a stream, ``chunk_bytes`` at a time, carrying the partial last line over."""
    scanner = _Scanner()
    carry = b""
    last = b""
    size = 0
    while not scanner.done:
        chunk = handle.read(chunk_bytes)
        if not chunk:
            break
        size += len(chunk)
        last = chunk[-1:]
        buf = carry + chunk if carry else chunk
        end = buf.rfind(b"\n") + 1
        if end:
            scanner.feed(buf, end)
            scanner.lines_before += buf.count(b"\n", 0, end)
        carry = buf[end:]
    if carry and not scanner.done:
        scanner.feed(carry, len(carry))
    scanner.facts.size = size  # bytes read: the rest, after the first run_stop, cannot change the facts
    return scanner.finish(ended_with_newline=size == 0 or last == b"\n")


def scan_path(path) -> RunFacts:
    """Scan a file on disk through a read-only memory map (no copy of the file into memory)."""
    with open(path, "rb") as handle:
        try:
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as buf:
                return scan_buffer(buf)
        except ValueError:  # empty files cannot be mapped
            return scan_buffer(b"")
