"""Every file a report build writes, one format each behind one small interface, chosen by name: the
one place that knows the formats' names, files, labels and MIME types (mail, batch, configuration
and checks ask here).

A format (``Format``) is a module of this package, an installed package's entry point in the group
``mlperf_report.formats`` (``claims_txt = my_package.claims_format``, as suites are found under
``mlperf_report.suites``), or an object given to ``register`` at run time, with:

- ``name``: what ``deliverables:`` in ``data/report.yaml`` calls it;
- ``per_language``: one set of files per language (the deck), or one per report (the workbook, made
  with the first language);
- ``files(kit)``: the paths, relative to the report's folder, it writes for ``kit`` (``assemble.kit``:
  one language's claims and charts), known before anything is made: the build's stamp, the round-day
  index and the mail stage read them;
- ``companion(kit)``: how the report's contents list it beside the report, or None;
- ``make(report)``: those files' bytes, from the language's one document (``report_document.Report``:
  ``lang``, the round's facts, ``kit`` with the claims, their citations and charts drawn once a size,
  ``sections``, ``page`` (the page model; its ``html`` and ``printed`` made once for every format that
  shows them), ``tables`` (the results, read by the build), ``brand``, ``default_copy``); a format
  reads no file of the round;
- optional ``charts(kit)``: pairs (claim index, ``kit_charts.ChartSize``) of the claims' charts it
  shows: the document draws each once a size, the format takes it with ``kit_charts.drawing``;
- optional ``uses_tables``: True when it needs ``Report.tables`` (the build reads them only then);
- optional ``mime``: file suffix -> MIME type of what it writes (else Python's ``mimetypes``);
- optional ``label_key`` (a catalogue key) or ``describe(lang)``: the words the index page and the
  contents use for it (else its name);
- optional ``copies``: files it also writes for the first language under a language-free name
  (``report.pdf``), and ``file_name(lang)``: its own file in ``lang``.

The document calls them through the registry and never by name, as the shared stages call suites.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path
from typing import Protocol

from mlperf_report.core import paths
from mlperf_report.core.errors import UserError

#: The entry-point group installed packages register formats under.
ENTRY_POINT_GROUP = "mlperf_report.formats"

#: The formats of the project: name -> module; all of them are made when ``deliverables:`` is not given.
BUILT_IN = {name: f"mlperf_report.assemble.formats.{name}"
            for name in ("html", "pdf", "exhibits", "workbook", "slides", "brief", "cards")}

#: The format always made (the page every other file sits beside), the printed report a message
#: carries when its list names nothing, and what a report is made of when nobody says otherwise.
PAGE = "html"
PRINTED = "pdf"
REPORT_FORMATS = ("html", "pdf", "exhibits")

#: The templates the report's page is made from (``page.render_page``: the page and its CSS; the
#: notebooks' sections through nbconvert's): the formats that show or print the page declare them
#: (``DATA_INPUTS``), so an edit there rebuilds those formats and keeps the deck, cards and workbook.
PAGE_TEMPLATES = tuple(paths.TEMPLATES / name for name in ("report.html.j2", "report.css", "print.css", "nbconvert"))

#: Words a mail list may use for a format: "report" is the printed report.
ALIASES = {"report": PRINTED}

_registered: dict[str, object] = {}
_plugged: dict[str, object] = {}


class Format(Protocol):
    name: str
    per_language: bool

    def files(self, kit) -> tuple[str, ...]: ...

    def companion(self, kit) -> str | None: ...

    def make(self, report) -> dict[str, bytes]: ...


def register(fmt) -> None:
    """Make ``fmt`` (an object with the members above) available by its name."""
    _registered[fmt.name] = fmt


def unregister(name: str) -> None:
    _registered.pop(name, None)
    _plugged.pop(name, None)


def _plugins() -> dict:
    """Installed packages' formats, name -> entry point (read only when a name is neither built in nor
    registered), found as the suites' are."""
    from mlperf_report.suites import entry_points

    return {point.name: point for point in entry_points(ENTRY_POINT_GROUP)}


def names() -> list[str]:
    """Every format the tool can make: built in, installed as a plug-in, registered."""
    return list(dict.fromkeys([*BUILT_IN, *_plugins(), *_registered]))


def get(name: str) -> Format:
    """The format called ``name``; a name no format has is refused with the names that exist."""
    name = ALIASES.get(name, name)
    if name in _registered:
        return _registered[name]
    if name in BUILT_IN:
        return importlib.import_module(BUILT_IN[name])
    if name not in _plugged:
        point = _plugins().get(name)
        if point is None:
            raise UserError(f"deliverables: no format called {name!r}; the formats are {', '.join(sorted(names()))} "
                            "(data/report.yaml)")
        _plugged[name] = point.load()
    return _plugged[name]


def source_of(name: str) -> Path | None:
    """The file of the module that implements format ``name``, a built-in one found without importing
    it (a build's stamp starts from it: formats are imported by name, which no static import shows)."""
    if name in BUILT_IN and name not in _registered:
        return module_path(BUILT_IN[name])
    fmt = get(name)
    module = fmt if inspect.ismodule(fmt) else sys.modules.get(type(fmt).__module__)
    found = getattr(module, "__file__", None)
    return Path(found) if found else None


def module_path(dotted: str) -> Path:
    """The file of a module of this project by its dotted name, without importing it or its parents
    (``importlib.util.find_spec`` would import the parents, on the no-op rebuild's path)."""
    return paths.ROOT.joinpath(*dotted.split(".")).with_suffix(".py")


def resolve(names_given) -> tuple[str, ...]:
    """What a build makes for ``deliverables:`` (None: every built-in format): the names, the page
    first when they leave it out. Names are not checked here (:func:`chosen` refuses an unknown one)."""
    given = tuple(BUILT_IN) if names_given is None else tuple(ALIASES.get(n, n) for n in names_given)
    return given if PAGE in given else (PAGE, *given)


def chosen(names_given) -> list[Format]:
    """The formats of ``names_given``, in that order."""
    return [get(name) for name in names_given]


def files_of(names_given, kit) -> list[str]:
    """Every path the formats ``names_given`` write for ``kit``, each once, in order."""
    out: list[str] = []
    for fmt in chosen(names_given):
        out += [path for path in fmt.files(kit) if path not in out]
    return out


def mime_of(name: str, path) -> str:
    """The MIME type of ``path``, a file of format ``name``: the format's own word for its suffix,
    else Python's guess, else ``application/octet-stream``."""
    import mimetypes

    suffix = Path(path).suffix.lower()
    declared = getattr(get(name), "mime", {}).get(suffix)
    return declared or mimetypes.guess_type(Path(path).name)[0] or "application/octet-stream"


def label(name: str, lang: str) -> str:
    """What the contents, the index page and mail call format ``name`` in ``lang``."""
    fmt = get(name)
    if callable(getattr(fmt, "describe", None)):
        return fmt.describe(lang)
    key = getattr(fmt, "label_key", None)
    if key:
        from mlperf_report.i18n.labels import label as text

        return text(key, lang)
    return fmt.name


def is_copy(name: str, path) -> bool:
    """Whether ``path`` is the language-free copy format ``name`` writes for the first language."""
    return Path(path).name in getattr(get(name), "copies", ())


def own_name(name: str, path, lang: str) -> str:
    """The file name of ``path`` as ``lang``'s own (a copy such as ``report.pdf`` named ``report.<lang>.pdf``)."""
    return get(name).file_name(lang) if is_copy(name, path) else Path(path).name
