"""Which notebooks are up to date: a digest of every input, stored as a stamp beside the executed
notebook.

A notebook's result depends on its parameters, the tables it reads, the prices and report
configuration (minus the ``mail`` section), the notebook file, the ``mlperf_report`` modules it
imports (followed transitively, so an edit to ``charts.py`` re-runs the notebooks and an edit to
``mail.py`` does not) and the data files those modules read: a module declares them in
``DATA_INPUTS`` (files or folders: the gettext catalogues, the benchmark and accelerator
catalogues), so a changed translation re-runs exactly the notebooks whose code reads it. Each input
file is hashed once per build, however many notebooks read it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib
import json
import sys
from pathlib import Path
from typing import Iterable

from mlperf_report.core import paths
from mlperf_report.analysis.jobs import KERNEL, NotebookJob

#: Bump when the stamp's meaning changes, so old stamps stop matching.
STAMP_VERSION = 2


def file_digest(path: Path) -> str:
    """A file's content hash, taken once per version of the file (path, modification time, size)."""
    return _digest(_file_key(path))


@functools.lru_cache(maxsize=None)
def _digest(key: tuple) -> str:
    """Content hash of a file, read once per build however many notebooks depend on it."""
    if key[1] is None:
        return "missing"
    return hashlib.sha256(Path(key[0]).read_bytes()).hexdigest()


def package_modules(notebook: Path) -> list[Path]:
    """Source files of the ``mlperf_report`` modules a notebook imports, followed transitively."""
    return list(_package_modules(notebook, _file_key(notebook)))


def _file_key(path: Path) -> tuple:
    """What says a file is unchanged within one build (modification time and size)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return (str(path), None, None)
    return (str(path), st.st_mtime_ns, st.st_size)


def modules_of(sources: Iterable[Path]) -> list[Path]:
    """Source files of the ``mlperf_report`` modules that these Python files or notebooks import,
    themselves included, followed transitively (what a report made by them depends on). One walk for
    all of them: the assembly starts from a dozen files (its formats among them) that share most of
    what they import."""
    sources = [Path(source) for source in sources]
    todo = [name for source in sources for name in _start_imports(source)]
    found = set(_closure(tuple(sorted(set(todo)))))
    return sorted(found | {source for source in sources if source.suffix == ".py"})


def _start_imports(source: Path) -> tuple[str, ...]:
    if source.suffix == ".py":
        return _imports_of(_file_key(source))
    return tuple(name for text in _code_cells(source) for name in _imported_modules(text))


def _code_cells(notebook: Path) -> list[str]:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb.get("cells", []) if c.get("cell_type") == "code"]


def _closure(names: tuple[str, ...]) -> tuple[Path, ...]:
    """The module files importing ``names`` runs, followed transitively, the package's ``__init__`` included."""
    seen: set[Path] = {paths.ROOT / "mlperf_report" / "__init__.py"}
    todo = list(names)
    while todo:
        for path in _module_files(todo.pop()):
            if path not in seen:
                seen.add(path)
                todo.extend(_imports_of(_file_key(path)))
    return tuple(sorted(seen))


def data_inputs(modules: Iterable[Path]) -> list[Path]:
    """The data files the given package modules declare they read (``DATA_INPUTS``), folders expanded."""
    files: set[Path] = set()
    for module in modules:
        for declared in _declared(Path(module)):
            files |= {p for p in declared.rglob("*") if p.is_file()} if declared.is_dir() else {declared}
    return sorted(files)


@functools.lru_cache(maxsize=None)
def _declared(module: Path) -> tuple[Path, ...]:
    if b"DATA_INPUTS" not in module.read_bytes() or not module.is_relative_to(paths.ROOT):
        return ()  # importing every module only to find it declares nothing would slow each build
    relative = module.relative_to(paths.ROOT).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return tuple(Path(p) for p in getattr(importlib.import_module(".".join(parts)), "DATA_INPUTS", ()))


@functools.lru_cache(maxsize=None)
def _package_modules(notebook: Path, _key: tuple) -> tuple[Path, ...]:
    sources = [notebook.read_text(encoding="utf-8")] if notebook.suffix == ".py" else _code_cells(notebook)
    return _closure(tuple(name for source in sources for name in _imported_modules(source)))


@functools.lru_cache(maxsize=None)
def _imports_of(key: tuple) -> tuple[str, ...]:
    """The package modules one module file imports: parsed once per build however many notebooks (and
    the assembly) reach it, and remembered across builds by file (path, modification time, size) in
    ``.cache/stamps/imports.json``, so a no-op rebuild parses nothing."""
    known = _import_cache()
    entry = known.get(key[0])
    if entry and entry[:2] == [key[1], key[2]]:
        return tuple(entry[2])
    names = tuple(_imported_modules(Path(key[0]).read_text(encoding="utf-8")))
    known[key[0]] = [key[1], key[2], list(names)]
    _IMPORT_CACHE_CHANGED.append(key[0])
    return names


_IMPORT_CACHE_CHANGED: list[str] = []


@functools.lru_cache(maxsize=None)
def _import_cache() -> dict:
    """The remembered import lists, saved once when the process ends if any was added."""
    import atexit

    path = paths.CACHE / "stamps" / "imports.json"
    try:
        known = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    atexit.register(_save_import_cache, path, known)
    return known if isinstance(known, dict) else {}


def _save_import_cache(path: Path, known: dict) -> None:
    if not _IMPORT_CACHE_CHANGED:
        return
    from mlperf_report.core.atomic import write_text

    try:
        write_text(path, json.dumps(known, sort_keys=True))
    except OSError:
        pass  # a read-only cache folder: the imports are parsed again next time


@functools.lru_cache(maxsize=None)
def _module_files(dotted: str) -> tuple[Path, ...]:
    """Files that importing ``mlperf_report.<dotted>`` runs: each package's ``__init__`` on the way and
    the module itself (nothing for a name that is not a module, such as an imported function)."""
    files, folder = [], paths.ROOT / "mlperf_report"
    for part in dotted.split("."):
        if (folder / part / "__init__.py").is_file():
            folder = folder / part
            files.append(folder / "__init__.py")
        elif (folder / f"{part}.py").is_file():
            files.append(folder / f"{part}.py")
            break
        else:
            break
    return tuple(files)


def _imported_modules(source: str) -> list[str]:
    """Dotted names below ``mlperf_report`` that ``source`` imports (module level or inside functions);
    ``from mlperf_report.a import b`` gives ``a.b`` too, since ``b`` may be a module."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "mlperf_report":
            below = node.module.split(".", 1)[1] if "." in node.module else ""
            names.extend(f"{below}.{alias.name}".lstrip(".") for alias in node.names)
        elif isinstance(node, ast.Import):
            names.extend(a.name.split(".", 1)[1] for a in node.names if a.name.startswith("mlperf_report."))
    return names


def _readable(path: Path) -> str:
    try:
        return str(path.relative_to(paths.ROOT))
    except ValueError:
        return str(path)


def _config_digest(path: Path) -> str:
    """The report configuration minus its ``mail`` and ``watch`` sections: editing a mailing list must
    not re-run every notebook."""
    return _config_digest_of(_file_key(path))


@functools.lru_cache(maxsize=None)
def _config_digest_of(key: tuple) -> str:
    """Parsed once per build, however many notebooks read the configuration."""
    import yaml

    from mlperf_report.core.yaml_files import safe_load

    path = Path(key[0])
    try:
        raw = safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return file_digest(path)
    if isinstance(raw, dict):
        raw = {k: v for k, v in raw.items() if k not in ("mail", "watch")}
    return hashlib.sha256(json.dumps(raw, sort_keys=True, default=str).encode()).hexdigest()


def input_digests(job: NotebookJob) -> dict[str, str]:
    """A digest of each thing the notebook's result depends on, by readable name."""
    config = Path(job.parameters.get("config_file", "")) if job.parameters.get("config_file") else None
    digests = {"(runner)": f"stamp v{STAMP_VERSION}, Python {sys.version_info[0]}.{sys.version_info[1]}, kernel {KERNEL}",
               "(parameters)": hashlib.sha256(json.dumps(job.parameters, sort_keys=True).encode()).hexdigest()}
    modules = package_modules(job.notebook)
    for path in (job.notebook, *job.inputs, *modules, *data_inputs(modules)):
        digests[_readable(path)] = _config_digest(path) if path == config else file_digest(path)
    return digests


def input_hash(job: NotebookJob) -> str:
    """One hash of :func:`input_digests`."""
    return _hash_of(input_digests(job))


def _hash_of(digests: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(digests, sort_keys=True).encode()).hexdigest()


def _stamp(job: NotebookJob) -> dict:
    try:
        return json.loads(job.stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def must_run(job: NotebookJob) -> bool:
    """True when the notebook has to run whatever its inputs say: it never finished (no executed
    notebook, figures or stamp). Known from three file names, before any input is read."""
    return not (job.output.is_file() and job.figures.is_file() and job.stamp.is_file())


def stale_reason(job: NotebookJob, digests: dict[str, str]) -> str | None:
    """None when the executed notebook and its figures exist and were made from exactly these inputs;
    else why the notebook must run ("not built yet", "changed: data/prices.yaml")."""
    stamp = _stamp(job)
    if must_run(job) or not stamp:
        return "not built yet" if not job.output.is_file() else "no stamp from a finished run"
    if stamp.get("hash") == _hash_of(digests):
        return None
    before = stamp.get("inputs", {})
    changed = sorted(name for name in set(before) | set(digests) if before.get(name) != digests.get(name))
    return "changed: " + ", ".join(changed[:4]) + (f" and {len(changed) - 4} more" if len(changed) > 4 else "")


def write_stamp(job: NotebookJob, digests: dict[str, str]) -> None:
    from mlperf_report.core.atomic import write_text

    write_text(job.stamp, json.dumps({"hash": _hash_of(digests), "inputs": digests, "notebook": job.notebook.name,
                                      "parameters": job.parameters}, indent=2, sort_keys=True) + "\n")
