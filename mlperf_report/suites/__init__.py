"""suites: one folder per MLPerf benchmark suite, and the registry, the one place that names them.

Concern: everything that differs between suites (MLPerf Training, Inference, and whatever plugs in):
round facts, results-tree layout and log format, official scoring, ingest into tidy tables, the report
plan (which notebooks run with which parameters), the analysis, charts and tables only it needs, its
section titles, its narrative and its mail headlines. The shared stages (runner, narrative rendering,
assemble, mail, cli) receive a :class:`Suite` from :func:`suite_for` and never import a suite by name
nor compare suite names.

A suite is registered by the built-in table below, by an entry point in the group
``mlperf_report.suites`` (a package installed on its own: ``toy = my_package.suite:SUITE``, as papermill
finds its engines), or at run time with :func:`register` (tests do).
May import: core, i18n, ingest, analysis, narrative.
Public: ``Suite``, ``suite_for``, ``get``, ``names``, ``register``, ``unregister``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Mapping, Protocol, runtime_checkable

from mlperf_report.core.errors import UserError
from mlperf_report.core.rounds import RoundId, parse_round_id

#: The entry-point group third-party suites register under.
ENTRY_POINT_GROUP = "mlperf_report.suites"

#: The suites this package ships: name -> "module:attribute" of the object implementing ``Suite``.
_BUILT_IN = {
    "training": "mlperf_report.suites.training.suite:SUITE",
    "inference": "mlperf_report.suites.inference.suite:SUITE",
}
_registered: dict[str, Any] = {}
_loaded: dict[str, Any] = {}


@runtime_checkable
class Suite(Protocol):
    """What a suite provides to the shared stages. Heavy imports happen inside the methods, so
    ``suite_for`` stays cheap on the planning path (``--help``, a no-op rebuild)."""

    name: str

    def default_title(self, lang: str) -> str:
        """The report title when report.yaml names none for this suite."""

    def parse_round(self, round_id: str | RoundId) -> Any:
        """The suite's round object (``.id``, ``.title`` and its facts); ValueError when unknown."""

    def ingest(self, source, source_facts, round_, *, jobs, progress, absent, compliance) -> Any:
        """A results tree to tables (``.manifest``, ``.problems``)."""

    def write_tables(self, result, out_dir: Path) -> list[Path]:
        """The ingest result as ``data/<round>/`` tables, each written atomically."""

    def entrants(self, data_dir: Path, round_id: str) -> list[dict]:
        """``submitter``, ``accelerator_model`` and (optionally) ``benchmark`` of each result the round's
        report counts (Training: scored; Inference: valid), from ``data/<round>/``: the focuses
        ``report --focus-each`` builds (with ``--benchmarks``, of the rows naming one of them)."""

    def plan(self, config, request) -> Any:
        """The report's notebooks (``analysis.jobs.Plan``) for ``config`` (focus, round, languages)
        and ``request`` (``analysis.planning.PlanRequest``); a UserError naming the fix before any kernel."""

    def render(self, figures: Mapping[str, dict], summary: dict | None, config, lang: str, *, catalogue=None):
        """The narrative and notes of one language (``narrative.rendering.Rendered``)."""

    def headlines(self, figures: Mapping[str, dict], summary: dict | None, config, lang: str, *,
                  catalogue=None) -> tuple[list[str], list[str]]:
        """Plain-text headline lines for an email and their numbered notes."""

    def config_of_report(self, config, figures: Mapping[str, dict], round_id: str):
        """The configuration a built report was made with (its focus as its figures record it)."""

    def section_title(self, parameters: Mapping[str, Any], stem: str, lang: str) -> str | None:
        """The contents entry of an executed notebook, or None to use the notebook's own title."""

    def section_note(self, parameters: Mapping[str, Any], lang: str) -> str:
        """A visible note (HTML) to put above a section, or ""."""


def register(suite: Any) -> None:
    """Make ``suite`` (an object implementing :class:`Suite`) known under ``suite.name``."""
    missing = [m for m in ("name", "default_title", "parse_round", "ingest", "write_tables", "entrants", "plan", "render",
                           "headlines", "config_of_report", "section_title", "section_note") if not hasattr(suite, m)]
    if missing:
        raise TypeError(f"{suite!r} is not a suite: it lacks {', '.join(missing)}")
    _registered[suite.name] = suite


def unregister(name: str) -> None:
    _registered.pop(name, None)
    _loaded.pop(name, None)


def entry_points(group: str):
    """Installed packages' entry points of ``group`` (imported only when a suite is not built in:
    ``importlib.metadata`` costs a no-op rebuild ~25 ms)."""
    from importlib.metadata import entry_points as installed

    return installed(group=group)


def _plugins() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def names() -> list[str]:
    """Every suite the tool can report: built in, installed as a plug-in, registered."""
    return list(dict.fromkeys([*_BUILT_IN, *_plugins(), *_registered]))


def get(name: str) -> Suite:
    """The suite called ``name``, imported on first use."""
    if name in _registered:
        return _registered[name]
    if name not in _loaded:
        target = _BUILT_IN.get(name) or _plugins().get(name)
        if target is None:
            raise KeyError(name)
        module, _, attribute = target.partition(":")
        _loaded[name] = getattr(importlib.import_module(module), attribute or "SUITE")
    return _loaded[name]


def suite_for(round_id: str | RoundId) -> Suite:
    """The suite of a round id (``training-v1.0``); a one-line error naming the suites the tool knows."""
    try:
        parsed = round_id if isinstance(round_id, RoundId) else parse_round_id(str(round_id))
    except ValueError as error:
        raise UserError(str(error)) from None
    try:
        return get(parsed.suite)
    except KeyError:
        raise UserError(f"{parsed.id}: MLPerf {parsed.suite.capitalize()} is not supported; this tool reports "
                        f"{', '.join(f'MLPerf {s.capitalize()}' for s in names())} rounds") from None
