"""A results tree as a flat list of file names, read in place from a folder, a zip, a tar or a git URL.

Ingest only needs two things from a source: the names of its files (POSIX paths relative to the
source) and a way to read one of them as a stream. Archives are never unpacked to disk; names that
would escape the tree (``../``, absolute paths, links) are refused rather than followed.
"""

from __future__ import annotations

import hashlib
import io
import os
import posixpath
import re
import subprocess
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Iterator

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
    return None


def listing_of(members) -> Listing:
    """A Listing from an archive's ``(name, size, kind)`` members, kind being dir, file or link."""
    entries, refused, folders = [], [], []
    for name, size, kind in members:
        reason = unsafe_reason(name)
        if kind == "dir":
            folders.append(name.rstrip("/"))
        elif reason:
            refused.append((name, reason))
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
        entries: list[Entry] = []
        refused: list[tuple[str, str]] = []
        folders: list[str] = []
        root = str(self.root)
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            rel_dir = os.path.relpath(dirpath, root)
            if rel_dir != ".":
                folders.append(rel_dir.replace(os.sep, "/"))
            for filename in filenames:
                rel = filename if rel_dir == "." else f"{rel_dir}/{filename}"
                rel = rel.replace(os.sep, "/")
                full = os.path.join(dirpath, filename)
                if os.path.islink(full):
                    refused.append((rel, "symbolic link; ignored"))
                    continue
                try:
                    entries.append(Entry(rel, os.path.getsize(full)))
                except OSError as error:
                    refused.append((rel, f"cannot be read: {error.strerror}"))
        return Listing(sorted(entries, key=lambda e: e.name), sorted(refused), sorted(folders))

    def open(self, name: str) -> BinaryIO:
        return open(self.root / name, "rb")

    def local_path(self, name: str) -> Path | None:
        return self.root / name


class ZipSource(Source):
    kind = "zip"

    def __init__(self, path: Path):
        super().__init__(str(path), path.name)
        self.path = path
        self._zip: zipfile.ZipFile | None = None

    @property
    def zip(self) -> zipfile.ZipFile:
        if self._zip is None:
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

        try:
            with tarfile.open(self.path, "r:*") as tar:
                return listing_of((m.name, m.size, kind(m)) for m in tar)
        except (tarfile.TarError, EOFError, OSError) as error:
            raise InputError(f"{self.path}: not a readable tar archive ({error})") from error

    def iter_members(self, names: set[str]) -> Iterator[tuple[str, BinaryIO]]:
        """Stream the wanted members in archive order: one pass over the (compressed) archive."""
        with tarfile.open(self.path, "r|*") as tar:
            for member in tar:
                if member.isfile() and member.name in names:
                    handle = tar.extractfile(member)
                    if handle is not None:
                        yield member.name, handle

    def open(self, name: str) -> BinaryIO:
        for member_name, handle in self.iter_members({name}):
            return io.BytesIO(handle.read())
        raise FileNotFoundError(name)


def is_git_url(text: str) -> bool:
    return bool(_GIT_URL.search(text)) and not Path(text).exists()


def clone_git(url: str, cache: Path = CACHE / "git") -> tuple[Path, str]:
    """Shallow-clone ``url`` into the cache (or refresh an earlier clone); return folder and commit."""
    name = posixpath.basename(url.rstrip("/")).removesuffix(".git") or "repo"
    target = cache / f"{name}-{hashlib.sha256(url.encode()).hexdigest()[:10]}"
    cache.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    try:
        if (target / ".git").exists():
            subprocess.run(["git", "-C", str(target), "fetch", "--depth", "1", "origin", "HEAD"],
                           check=True, capture_output=True, env=env)
            subprocess.run(["git", "-C", str(target), "reset", "--hard", "FETCH_HEAD"],
                           check=True, capture_output=True, env=env)
        else:
            tmp = target.with_name(target.name + ".partial")
            subprocess.run(["rm", "-rf", str(tmp)], check=True)
            subprocess.run(["git", "clone", "--depth", "1", "--quiet", url, str(tmp)],
                           check=True, capture_output=True, env=env)
            tmp.rename(target)
        commit = subprocess.run(["git", "-C", str(target), "rev-parse", "HEAD"], check=True,
                                capture_output=True, text=True).stdout.strip()
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
