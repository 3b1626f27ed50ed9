"""Every file a report build writes, one format each behind one small interface, chosen by name.

A format (``Format``) is a module of this package, or a registered object, with:

- ``name``: what ``deliverables:`` in ``data/report.yaml`` calls it;
- ``per_language``: one set of files per language (the deck), or one per report (the workbook, made
  with the first language);
- ``files(kit)``: the paths, relative to the report's folder, it writes for ``kit`` (``assemble.kit``:
  one language's claims and charts), known before anything is made: the build's stamp, the round-day
  index and the mail stage read them;
- ``companion(kit)``: how the report's contents list it beside the report, or None;
- ``make(model)``: those files' bytes, from ``document.ReportModel`` (the request, its kit, and the
  page and printed report made once for every format that needs them).

The document calls them through the registry and never by name, as the shared stages call suites;
``register`` adds one (a toy format in the tests touches nothing else).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path
from typing import Protocol

from mlperf_report.core import paths
from mlperf_report.core.errors import UserError

#: The formats of the project: name -> module.
BUILT_IN = {name: f"mlperf_report.assemble.formats.{name}"
            for name in ("html", "pdf", "exhibits", "workbook", "slides", "brief", "cards")}

_registered: dict[str, object] = {}


class Format(Protocol):
    name: str
    per_language: bool

    def files(self, kit) -> tuple[str, ...]: ...

    def companion(self, kit) -> str | None: ...

    def make(self, model) -> dict[str, bytes]: ...


def register(fmt) -> None:
    """Make ``fmt`` (an object with the members above) available by its name."""
    _registered[fmt.name] = fmt


def unregister(name: str) -> None:
    _registered.pop(name, None)


def get(name: str) -> Format:
    """The format called ``name``; a name no format has is refused with the names that exist."""
    if name in _registered:
        return _registered[name]
    if name in BUILT_IN:
        return importlib.import_module(BUILT_IN[name])
    known = ", ".join(sorted({*BUILT_IN, *_registered}))
    raise UserError(f"deliverables: no format called {name!r}; the formats are {known} (data/report.yaml)")


def source_of(name: str) -> Path | None:
    """The file of the module that implements format ``name``, found without importing it (a build's
    stamp starts from it: formats are imported by name, which no static import shows)."""
    if name in _registered:
        fmt = _registered[name]
        module = fmt if inspect.ismodule(fmt) else sys.modules.get(type(fmt).__module__)
        found = getattr(module, "__file__", None)
        return Path(found) if found else None
    if name in BUILT_IN:
        return module_path(BUILT_IN[name])
    return None


def module_path(dotted: str) -> Path:
    """The file of a module of this project by its dotted name, without importing it or its parents
    (``importlib.util.find_spec`` would import the parents, on the no-op rebuild's path)."""
    return paths.ROOT.joinpath(*dotted.split(".")).with_suffix(".py")


def chosen(names) -> list[Format]:
    """The formats of ``names``, in that order."""
    return [get(name) for name in names]


def files_of(names, kit) -> list[str]:
    """Every path the formats ``names`` write for ``kit``, each once, in order."""
    out: list[str] = []
    for fmt in chosen(names):
        out += [path for path in fmt.files(kit) if path not in out]
    return out
