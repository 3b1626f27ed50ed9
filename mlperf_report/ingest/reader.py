"""Reading the many files of a results tree within bounds, for every suite.

A folder or a zip allows random access: the files are read by forked workers (each with its own
handle: a forked copy of the parent's open archive would share its file offset), in batches of similar
size. A tar does not: it is streamed once, in archive order. Whatever one file raises is that file's
problem and the round goes on. And a round reads at most ``limits.MAX_ROUND_BYTES`` of files (declared
sizes, which zip and tar readers never exceed): the rest are listed as not read.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import BinaryIO, Callable, Iterable, TypeVar

from mlperf_report.core import limits, processes
from mlperf_report.core.sources import Source, TarSource

T = TypeVar("T")
Item = TypeVar("Item")

#: Why a file beyond the round limit was not read.
OVER_ROUND_LIMIT = (f"not read: the round's result files hold more than {limits.MAX_ROUND_BYTES >> 30} GiB "
                    "(limit MAX_ROUND_BYTES)")

_worker_source: Source | None = None
_worker_read: Callable | None = None
_worker_failed: Callable | None = None


def within_round_limit(items: Iterable[Item], size_of: Callable[[Item], int]) -> tuple[list[Item], list[Item]]:
    """(items to read, items beyond ``MAX_ROUND_BYTES``), in the order given; each item counts at most
    ``MAX_MEMBER_BYTES`` (no single member is read past it)."""
    kept, over, total = [], [], 0
    for item in items:
        total += min(size_of(item), limits.MAX_MEMBER_BYTES)
        (over if total > limits.MAX_ROUND_BYTES else kept).append(item)
    return kept, over


def batches(files: list[tuple[str, int]], count: int) -> list[list[str]]:
    """Split (name, size) pairs into ``count`` batches of similar total size (largest first, greedy)."""
    bins: list[list[str]] = [[] for _ in range(count)]
    sizes = [0] * count
    for name, size in sorted(files, key=lambda f: -f[1]):
        i = sizes.index(min(sizes))
        bins[i].append(name)
        sizes[i] += size
    return [b for b in bins if b]


def read_files(source: Source, files: list[tuple[str, int]], *, read: Callable[[Source, str], T],
               stream: Callable[[str, BinaryIO], T], failed: Callable[[BaseException], T],
               missing: Callable[[str], T], jobs: int, progress: Callable[[int, int], None] | None = None,
               progress_every: int = 100, batches_per_job: int = 4) -> dict[str, T]:
    """``name -> outcome`` of every (name, size) in ``files``: ``read(source, name)`` with random
    access (in ``jobs`` forked processes when there are enough files), ``stream(name, handle)`` for a
    tar's members, ``failed(error)`` for a file that raised, ``missing(why)`` for a listed tar member
    the stream never reached."""
    outcomes: dict[str, T] = {}
    total = len(files)
    if isinstance(source, TarSource):
        for done, (name, handle) in enumerate(source.iter_members({name for name, _ in files}), 1):
            outcomes[name] = _guarded(lambda: stream(name, handle), failed)
            if progress:
                progress(done, total)
        why = source.stream_error or "listed in the archive but could not be read"
        for name, _ in files:
            outcomes.setdefault(name, missing(why))
        return outcomes
    if jobs <= 1 or total < 32:
        for name, _ in files:
            outcomes[name] = _guarded(lambda: read(source, name), failed)
            if progress and (len(outcomes) % progress_every == 0 or len(outcomes) == total):
                progress(len(outcomes), total)
        return outcomes
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                             initargs=(source, os.getpid(), read, failed)) as pool:
        try:
            for batch in pool.map(_read_batch, batches(files, jobs * batches_per_job)):
                outcomes.update(batch)
                if progress:
                    progress(len(outcomes), total)
        except BaseException:  # Ctrl-C / SIGTERM: stop the readers now, not after their batches
            processes.terminate_pool(pool)
            raise
    return outcomes


def _guarded(call: Callable[[], T], failed: Callable[[BaseException], T]) -> T:
    try:
        return call()
    except Exception as error:  # noqa: BLE001 - whatever one file raises, the round goes on
        return failed(error)


def _init_worker(source: Source, parent_pid: int, read: Callable, failed: Callable) -> None:
    global _worker_source, _worker_read, _worker_failed
    processes.worker_setup(parent_pid)
    source.reopen()
    _worker_source, _worker_read, _worker_failed = source, read, failed


def _read_batch(names: list[str]) -> list[tuple[str, object]]:
    assert _worker_source is not None and _worker_read is not None and _worker_failed is not None
    return [(name, _guarded(lambda: _worker_read(_worker_source, name), _worker_failed)) for name in names]
