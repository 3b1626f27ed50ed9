"""Write files under a temporary name and rename them when complete.

A failed or interrupted build must never leave a half-written file or destroy the previous one,
so every output of the tool goes through these helpers.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import IO, Iterator


@contextlib.contextmanager
def atomic_open(path: Path | str, mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO]:
    """Open a temporary file beside ``path``; rename it over ``path`` only if the block succeeds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    binary = "b" in mode
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, encoding=None if binary else encoding, newline=None if binary else "") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_text(path: Path | str, text: str) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) atomically."""
    with atomic_open(path, "w") as handle:
        handle.write(text)
    return Path(path)


def write_bytes(path: Path | str, data: bytes) -> Path:
    """Write ``data`` atomically."""
    with atomic_open(path, "wb") as handle:
        handle.write(data)
    return Path(path)


def write_texts(texts: dict[Path, str]) -> list[Path]:
    """Write several files so that they change together: every temporary file is complete before
    the first rename, and a failure leaves all of the previous files in place."""
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in texts.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            staged.append((tmp, path))
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
        for tmp, path in staged:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _ in staged:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        raise
    return [path for _, path in staged]
