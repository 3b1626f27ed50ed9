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
from typing import Protocol

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


def chosen(names) -> list[Format]:
    """The formats of ``names``, in that order."""
    return [get(name) for name in names]


def files_of(names, kit) -> list[str]:
    """Every path the formats ``names`` write for ``kit``, each once, in order."""
    out: list[str] = []
    for fmt in chosen(names):
        out += [path for path in fmt.files(kit) if path not in out]
    return out
