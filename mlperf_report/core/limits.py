"""Every limit on untrusted input, in one place, with the message a user sees when one is passed.

A results tree is third-party data and a copy of it may be cut, corrupted or crafted: a tiny zip can
inflate to gigabytes, a log can be one endless line, JSON can nest without end, folders can nest a
thousand deep. Each limit below is far above anything an official round holds (Training v0.7-v4.1:
~0.5 GiB of result files per round, the largest ~4 MiB; systems JSONs of 2 KiB, Inference's up to
66 KiB; trees 5 to 10 folders deep), so real data never
meets one; hostile data meets one early and gets a clear problem line naming the file, while the
rest of the round goes on. Memory then stays bounded whatever the input (streams are read in
chunks of at most :data:`CHUNK_BYTES`, a line is never held beyond :data:`MAX_LINE_BYTES`).
"""

from __future__ import annotations

import json
import math
from typing import BinaryIO

#: Bytes read from one result file (after decompression); the rest is not scanned.
MAX_MEMBER_BYTES = 256 << 20
#: Bytes read from all result files of one round together (after decompression).
MAX_ROUND_BYTES = 16 << 30
#: Longest log line kept whole; a longer line is skipped (a problem), never buffered.
MAX_LINE_BYTES = 1 << 20
#: Largest systems JSON or scaling.json.
MAX_JSON_BYTES = 4 << 20
#: Largest MLCommons summary (a Training submitter's ``summary.json``, an Inference round's
#: ``summary_results.json``: a few MiB for the largest round) or results table given with ``--official``.
MAX_SUMMARY_BYTES = 64 << 20
#: Deepest nesting of arrays/objects in a JSON document (systems JSON, MLLOG line, scaling.json).
MAX_JSON_DEPTH = 64
#: Deepest folder (or archive path) below the source root; deeper ones are not listed.
MAX_PATH_DEPTH = 32
#: Most files and folders listed from one source (a zip's index is refused above it before it is read:
#: a crafted 100 MB zip can index millions of empty members).
MAX_ENTRIES = 500_000
#: Longest file name path (characters) listed from a source.
MAX_PATH_CHARS = 4096
#: Longest submitter / system name drawn in a chart; longer names are shortened with "…" there
#: (the tables and CSVs keep the full text).
MAX_LABEL_CHARS = 80
#: Seconds a ``git clone`` / ``git fetch`` of a source may take.
GIT_TIMEOUT_S = 600
#: Longest plausible run (minutes): a run_stop later than this after run_start is an error, not a score.
MAX_RUN_MINUTES = 60 * 24 * 30
#: Read size of streamed members.
CHUNK_BYTES = 8 << 20
#: Files up to this size are memory-mapped for the scan; larger ones are streamed (a mapped file's
#: pages count in the process's memory as they are read).
MAX_MAPPED_BYTES = 64 << 20


class LimitError(ValueError):
    """Input beyond one of the limits above; the message names the limit and its value."""


def mib(value: int) -> str:
    return f"{value / (1 << 20):g} MiB"


def read_capped(handle: BinaryIO, limit: int, what: str, limit_name: str = "MAX_JSON_BYTES") -> bytes:
    """All of ``handle`` when it holds at most ``limit`` bytes, else LimitError (reads limit+1 at most)."""
    data = handle.read(limit + 1)
    if len(data) > limit:
        raise LimitError(f"{what} is larger than {mib(limit)} (limit {limit_name}); not read")
    return data


def json_depth_ok(text: bytes | str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether brackets outside strings nest at most ``limit`` deep (a linear scan, no parse)."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    depth = 0
    in_string = escaped = False
    for byte in text:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return False
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return True


def loads(data: bytes | str, what: str):
    """``json.loads`` bounded in depth: deeper than MAX_JSON_DEPTH is a LimitError, not a RecursionError."""
    if not _shallow(data):
        raise LimitError(f"{what} nests deeper than {MAX_JSON_DEPTH} levels (limit MAX_JSON_DEPTH); not read")
    try:
        return json.loads(data)
    except RecursionError:  # belt and braces: the scan above should have caught it
        raise LimitError(f"{what} nests too deeply to read; not read") from None


def _shallow(data: bytes | str) -> bool:
    # Fast path: a document cannot nest deeper than it has opening brackets.
    if isinstance(data, str):
        count = data.count("[") + data.count("{")
    else:
        count = data.count(b"[") + data.count(b"{")
    return count <= MAX_JSON_DEPTH or json_depth_ok(data)


def finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)

#: Largest result file handed whole to MLCommons' compliance checker (which holds the file and its parsed
#: lines in memory). Real result logs are a few MiB; a larger one is scanned, reported, and left unchecked.
MAX_CHECKED_BYTES = 32 << 20
