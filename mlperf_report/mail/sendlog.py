"""The send log: JSON lines per message, so a re-run never mails anyone twice.

``output/<round>/mail/sent.jsonl`` is appended to and flushed (and fsynced) line by line: a
``sending`` line before a message goes to the server, then its ``sent`` or ``failed`` line. A run that
crashes or is interrupted halfway thus leaves a log that says who has the report, who does not, and
whose message was in flight (``sending`` with no outcome: maybe delivered, so a re-run does not guess).
A report is "the same" when its PDF has the same SHA-256; a rebuilt report is a new one and goes again.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from pathlib import Path
from typing import Iterator

from mlperf_report.core.errors import UserError

SENDING = "sending"
SENT = "sent"
FAILED = "failed"


def log_path(mail_dir: Path) -> Path:
    """Where the send log of one round lives (``output/<round>/mail/sent.jsonl``)."""
    return Path(mail_dir) / "sent.jsonl"


def read_entries(path: Path) -> list[dict]:
    """Every entry of the log, oldest first; a torn last line (a crash mid-write) is ignored."""
    path = Path(path)
    if not path.exists():
        return []
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(ValueError):
            entry = json.loads(line)
            if isinstance(entry, dict):
                entries.append(entry)
    return entries


def sent_keys(entries: list[dict]) -> set[tuple[str, str]]:
    """(recipient address, report sha256) pairs that were delivered."""
    return {
        (str(e.get("recipient", "")).lower(), str(e.get("sha256", "")))
        for e in entries
        if e.get("status") == SENT
    }


def in_flight_keys(entries: list[dict]) -> set[tuple[str, str]]:
    """(recipient, sha256) pairs whose message was handed to the server with no outcome recorded."""
    settled = {e.get("message_id") for e in entries if e.get("status") in (SENT, FAILED)}
    return {
        (str(e.get("recipient", "")).lower(), str(e.get("sha256", "")))
        for e in entries
        if e.get("status") == SENDING and e.get("message_id") not in settled
    } - sent_keys(entries)


def already_sent(keys: set[tuple[str, str]], recipient: str, sha256: str) -> bool:
    return (recipient.lower(), sha256) in keys


def append(path: Path, entry: dict) -> None:
    """Append one entry and push it to disk before the next message is attempted."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


@contextlib.contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold a lock beside the log so two sends of the same round cannot both mail the same people."""
    lock = Path(str(path) + ".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError(
                f"another `build.py send` is running for this round (lock {lock}); wait for it to finish"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
