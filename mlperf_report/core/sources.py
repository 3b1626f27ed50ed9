"""A results tree as a flat list of file names, read in place from a folder, a zip, a tar or a git URL.

Ingest only needs two things from a source: the names of its files (POSIX paths relative to the
source) and a way to read one of them as a stream. Archives are never unpacked to disk; names that
would escape the tree (``../``, absolute paths, links) are refused rather than followed.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import posixpath
import re
import shutil
import struct
import subprocess
import tarfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Iterator

from mlperf_report.core import limits
from mlperf_report.core.errors import InputError
from mlperf_report.core.paths import CACHE

_GIT_URL = re.compile(r"^(?:git@|git://|ssh://|file://|https?://)|\.git/?$")
_TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")


@dataclass(frozen=True)
class Entry:
    """One file of a source: its path inside the source and its size in bytes."""

    name: str
    size: int


@dataclass
class Listing:
    """What a source holds: readable entries, and entries refused with the reason."""

    entries: list[Entry]
    refused: list[tuple[str, str]] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)  # every folder, so empty result folders show


def unsafe_reason(name: str) -> str | None:
    """Why an archive member name must not be read as part of the tree, or None when it is safe."""
    if name.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", name):
        return "absolute path in archive; ignored"
    parts = name.replace("\\", "/").split("/")
    if ".." in parts:
        return "path would escape the results tree ('..'); ignored"
    return name_problem(name)


def name_problem(name: str) -> str | None:
    """Why a file name cannot be recorded (not UTF-8, too deep, too long), or None."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "file name is not valid UTF-8; ignored"
    if len(name) > limits.MAX_PATH_CHARS:
        return f"path longer than {limits.MAX_PATH_CHARS} characters (limit MAX_PATH_CHARS); ignored"
    if name.strip("/").count("/") >= limits.MAX_PATH_DEPTH:
        return f"more than {limits.MAX_PATH_DEPTH} folders deep (limit MAX_PATH_DEPTH); ignored"
    return None


def printable_name(name: str) -> str:
    """``name`` as valid UTF-8 text for messages and the manifest (undecodable bytes shown as U+FFFD)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def listing_of(members) -> Listing:
    """A Listing from an archive's ``(name, size, kind)`` members, kind being dir, file or link."""
    entries, refused, folders = [], [], []
    for name, size, kind in members:
        reason = unsafe_reason(name)
        if kind == "dir":
            if not name_problem(name):
                folders.append(name.rstrip("/"))
        elif reason:
            refused.append((printable_name(name), reason))
        elif kind != "file":
            refused.append((name, "link or special file in archive; ignored"))
        else:
            entries.append(Entry(name, size))
    return Listing(sorted(entries, key=lambda e: e.name), sorted(refused), sorted(folders))


class Source:
    """Base of every source kind; ``label`` is what the manifest records as the origin."""

    kind = "source"

    def __init__(self, location: str, label: str):
        self.location = location
        self.label = label

    def list(self) -> Listing:
        raise NotImplementedError

    def open(self, name: str) -> BinaryIO:
        raise NotImplementedError

    def read_bytes(self, name: str) -> bytes:
        with self.open(name) as handle:
            return handle.read()

    def local_path(self, name: str) -> Path | None:
        """A file system path for ``name`` when the source is a folder (lets the scanner mmap)."""
        return None

    def close(self) -> None:
        pass

    def reopen(self) -> None:
        """Drop inherited handles (called in a forked worker before it reads)."""


class FolderSource(Source):
    kind = "folder"

    def __init__(self, root: Path, label: str | None = None):
        super().__init__(str(root), label or root.name)
        self.root = root

    def list(self) -> Listing:
        """Walk the folder without recursion (a tree 1,000 folders deep is refused, not a crash)."""
        entries: list[Entry] = []
        refused: list[tuple[str, str]] = []
        folders: list[str] = []
        pending = [""]
        while pending:
            rel_dir = pending.pop()
            try:
                with os.scandir(os.path.join(str(self.root), rel_dir)) as scan:
                    items = sorted(scan, key=lambda item: item.name)
            except OSError as error:
                refused.append((printable_name(rel_dir), f"folder cannot be read: {error.strerror}"))
                continue
            if len(entries) + len(folders) + len(refused) + len(items) > limits.MAX_ENTRIES:
                raise _too_many(str(self.root))
            for item in items:
                rel = f"{rel_dir}/{item.name}" if rel_dir else item.name
                kind = _kind(item)
                problem = name_problem(rel)
                if kind == "dir" and not problem:
                    folders.append(rel)
                    pending.append(rel)
                elif kind == "dir" and problem:
                    refused.append((printable_name(rel) + "/", problem.replace("; ignored", "; not read")))
                elif problem:
                    refused.append((printable_name(rel), problem))
                elif kind == "link":
                    refused.append((rel, "symbolic link; ignored"))
                elif kind == "file":
                    try:
                        entries.append(Entry(rel, item.stat(follow_symlinks=False).st_size))
                    except OSError as error:
                        refused.append((rel, f"cannot be read: {error.strerror}"))
                else:
                    refused.append((rel, kind))
        return Listing(sorted(entries, key=lambda e: e.name), sorted(refused), sorted(folders))

    def open(self, name: str) -> BinaryIO:
        return open(self.root / name, "rb")

    def local_path(self, name: str) -> Path | None:
        return self.root / name


def _kind(item: os.DirEntry) -> str:
    try:
        if item.is_symlink():
            return "link"
        if item.is_dir(follow_symlinks=False):
            return "dir"
        if item.is_file(follow_symlinks=False):
            return "file"
        return "special file (not a regular file); ignored"
    except OSError as error:
        return f"cannot be read: {error.strerror}"


class ZipSource(Source):
    kind = "zip"

    def __init__(self, path: Path):
        super().__init__(str(path), path.name)
        self.path = path
        self._zip: zipfile.ZipFile | None = None

    @property
    def zip(self) -> zipfile.ZipFile:
        if self._zip is None:
            _check_zip_index(self.path)
            try:
                self._zip = zipfile.ZipFile(self.path)
            except zipfile.BadZipFile as error:
                raise InputError(f"{self.path}: not a readable zip archive ({error})") from error
        return self._zip

    def list(self) -> Listing:
        def kind(info: zipfile.ZipInfo) -> str:
            if info.is_dir():
                return "dir"
            return "link" if (info.external_attr >> 16) & 0o170000 == 0o120000 else "file"

        return listing_of((info.filename, info.file_size, kind(info)) for info in self.zip.infolist())

    def open(self, name: str) -> BinaryIO:
        return self.zip.open(name)

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()
            self._zip = None

    def reopen(self) -> None:
        self._zip = None  # the parent's handle stays open in the parent; this process opens its own



def _check_zip_index(path: Path) -> None:
    """Refuse a zip whose index lists more than MAX_ENTRIES members before reading that index."""
    try:
        with open(path, "rb") as handle:
            total = zip_entries(handle)
    except OSError:
        return  # ZipFile says what is wrong
    if total is not None and total > limits.MAX_ENTRIES:
        raise InputError(f"{path}: the archive lists {total:,} members, more than "
                         f"{limits.MAX_ENTRIES:,} (limit MAX_ENTRIES); not read")


def zip_entries(handle: BinaryIO) -> int | None:
    """How many members a zip's end-of-archive record says it has (None: no such record), read from
    the format's own records (PKWARE's APPNOTE 4.3.14-16: the record ends the file, its comment at
    most 65,535 bytes; ZIP64 when the count is 0xFFFF), as no public API reads that record alone."""
    handle.seek(0, 2)
    size = handle.tell()
    handle.seek(max(0, size - 22 - 0xFFFF))
    tail = handle.read()
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        return None
    total = struct.unpack_from("<H", tail, at + 10)[0]
    locator = at - 20
    if total == 0xFFFF and locator >= 0 and tail[locator:locator + 4] == b"PK\x06\x07":
        handle.seek(struct.unpack_from("<Q", tail, locator + 8)[0])
        record = handle.read(56)
        if record[:4] == b"PK\x06\x06" and len(record) == 56:
            return struct.unpack_from("<Q", record, 32)[0]
    return total


def _too_many(label: str) -> InputError:
    return InputError(f"{label}: more than {limits.MAX_ENTRIES:,} files and folders (limit MAX_ENTRIES); not read")


class TarSource(Source):
    """A tar archive (optionally compressed). Tar has no index, so random access would mean
    decompressing from the start for every file: members are streamed in one pass instead."""

    kind = "tar"

    def __init__(self, path: Path):
        super().__init__(str(path), path.name)
        self.path = path

    def list(self) -> Listing:
        def kind(member: tarfile.TarInfo) -> str:
            return "dir" if member.isdir() else "file" if member.isfile() else "link"

        members: list[tuple[str, int, str]] = []
        try:
            with tarfile.open(self.path, "r:*") as tar:
                for member in tar:
                    members.append((member.name, member.size, kind(member)))
                    tar.members = []  # tarfile keeps every member it has read: not needed here
                    if len(members) > limits.MAX_ENTRIES:
                        raise _too_many(str(self.path))
        except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
            if not members:
                raise InputError(f"{self.path}: not a readable tar archive ({error})") from error
            listing = listing_of(members)  # a cut or corrupt archive: keep what came before the damage
            listing.refused.append((self.path.name, f"archive unreadable after {len(members)} members "
                                                    f"({type(error).__name__}: {error}); the rest is not read"))
            return listing
        return listing_of(members)

    def iter_members(self, names: set[str]) -> Iterator[tuple[str, BinaryIO]]:
        """Stream the wanted members in archive order: one pass over the (compressed) archive."""
        try:
            with tarfile.open(self.path, "r|*") as tar:
                for member in tar:
                    tar.members = []  # tarfile keeps every member it has read: not needed here
                    if member.isfile() and member.name in names:
                        handle = tar.extractfile(member)
                        if handle is not None:
                            yield member.name, handle
        except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
            # a cut or corrupt archive: what came before stays read; callers report the missing members
            self.stream_error = f"archive unreadable from here on ({type(error).__name__}: {error})"

    stream_error: str | None = None

    def open(self, name: str) -> BinaryIO:
        for member_name, handle in self.iter_members({name}):
            return io.BytesIO(limits.read_capped(handle, limits.MAX_JSON_BYTES, name))
        raise FileNotFoundError(name)


def is_git_url(text: str) -> bool:
    return bool(_GIT_URL.search(text)) and not Path(text).exists()


def git_repository_exists(url: str, timeout: float = 60) -> bool:
    """Whether ``url`` names a git repository that answers (``git ls-remote``), without cloning it.
    A repository that does not exist yet, an unreachable host and a timeout all say False."""
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    try:
        done = subprocess.run(["git", "ls-remote", "--exit-code", "--", url, "HEAD"], capture_output=True,
                              env=env, timeout=timeout)
    except (subprocess.TimeoutExpired, FileNotFoundError):
        return False
    return done.returncode == 0


def clone_git(url: str, cache: Path = CACHE / "git") -> tuple[Path, str]:
    """Shallow-clone ``url`` into the cache (or refresh an earlier clone); return folder and commit."""
    name = posixpath.basename(url.rstrip("/")).removesuffix(".git") or "repo"
    target = cache / f"{name}-{hashlib.sha256(url.encode()).hexdigest()[:10]}"
    cache.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    git = functools.partial(subprocess.run, check=True, capture_output=True, env=env,
                            timeout=limits.GIT_TIMEOUT_S)
    try:
        if (target / ".git").exists():
            git(["git", "-C", str(target), "fetch", "--depth", "1", "origin", "HEAD"])
            git(["git", "-C", str(target), "reset", "--hard", "FETCH_HEAD"])
        else:
            tmp = target.with_name(target.name + ".partial")
            shutil.rmtree(tmp, ignore_errors=True)
            # `--` ends the options: a "URL" such as --upload-pack=... is a repository name, never an option
            git(["git", "clone", "--depth", "1", "--quiet", "--", url, str(tmp)])
            tmp.rename(target)
        commit = git(["git", "-C", str(target), "rev-parse", "HEAD"], text=True).stdout.strip()
    except subprocess.TimeoutExpired:
        raise InputError(f"{url}: git took longer than {limits.GIT_TIMEOUT_S} s (limit GIT_TIMEOUT_S); "
                         "nothing was read") from None
    except FileNotFoundError as error:
        raise InputError("git is not installed; install it or pass a folder or archive instead") from error
    except subprocess.CalledProcessError as error:
        detail = (error.stderr or b"").decode(errors="replace").strip().splitlines()
        raise InputError(f"{url}: git could not fetch it ({detail[-1] if detail else error})") from error
    return target, commit


def open_source(text: str) -> tuple[Source, dict]:
    """Resolve SOURCE (folder, archive or git URL) to a Source and the facts the manifest records."""
    if is_git_url(text):
        folder, commit = clone_git(text)
        name = posixpath.basename(text.rstrip("/")).removesuffix(".git")
        return FolderSource(folder, label=name), {"kind": "git", "url": text, "commit": commit}
    path = Path(text)
    if not path.exists():
        raise InputError(f"{text}: no such folder, archive or git URL")
    if path.is_dir():
        return FolderSource(path.resolve(), label=path.resolve().name), {"kind": "folder", "name": path.resolve().name}
    facts = {"name": path.name, "bytes": path.stat().st_size}
    if path.name.endswith(".zip"):
        return ZipSource(path), {"kind": "zip", **facts}
    if path.name.endswith(_TAR_SUFFIXES):
        return TarSource(path), {"kind": "tar", **facts}
    raise InputError(f"{text}: not a folder, .zip, .tar.* archive or git URL")
