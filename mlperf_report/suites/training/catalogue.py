"""The MLPerf Training benchmark catalogue (``data/benchmarks.yaml``): what a benchmark id means in a
round, in every report language.

An id can change meaning between rounds (``ssd`` is SSD until v1.1 and RetinaNet from v2.0), so every
lookup takes the round. The file is read once and cached; the functions return plain values. An id
the catalogue does not know for a round (a newer round than this file) is shown by its id, and
:func:`note` says so in the report's language; nothing here raises for an unknown id or round.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import yaml

from mlperf_report.core import paths
from mlperf_report.core.errors import InputError
from mlperf_report.core.languages import SOURCE
from mlperf_report.core.rounds import parse_round_id
from mlperf_report.core.yaml_files import safe_load

CATALOGUE = paths.DATA / "benchmarks.yaml"
#: Files this module reads at run time: a notebook or report that imports it is stale when they change.
DATA_INPUTS = (CATALOGUE,)

#: Fields every entry has; the texts among them are given per language.
TEXT_FIELDS = ("area", "model", "dataset", "quality_target", "description")
FIELDS = (*TEXT_FIELDS, "framework", "source")

_UNKNOWN_NOTE = {
    "en": "no catalogue entry for '{benchmark}' in {round}; shown by its id",
    "zh-Hant": "基準測試目錄中沒有 {round} 的「{benchmark}」條目，因此以其代號顯示",
}


def _version(text: Any, where: str) -> tuple[int, int]:
    try:
        major, minor = str(text).split(".")
        return int(major), int(minor)
    except ValueError:
        raise InputError(f"{where}: round {text!r} is not of the form major.minor (e.g. \"1.0\")") from None


def _checked_entry(benchmark: str, index: int, raw: Any, path: Path) -> dict:
    where = f"{path}: benchmarks.{benchmark}[{index}]"
    if not isinstance(raw, dict):
        raise InputError(f"{where}: expected a mapping of {', '.join(FIELDS)}")
    missing = [f for f in (*FIELDS, "from") if not raw.get(f)]
    if missing:
        raise InputError(f"{where}: missing {', '.join(missing)}")
    entry = {"benchmark": benchmark, **{f: raw[f] for f in FIELDS}}
    entry["from"] = _version(raw["from"], where)
    entry["to"] = _version(raw["to"], where) if raw.get("to") else None
    for field in TEXT_FIELDS:
        if not isinstance(raw[field], dict) or SOURCE not in raw[field]:
            raise InputError(f"{where}.{field}: expected texts per language, at least {SOURCE!r}")
    return entry


@functools.lru_cache(maxsize=None)
def load(path: Path = CATALOGUE) -> dict:
    """``{"aliases": {...}, "benchmarks": {id: [entry, ...]}}`` from the catalogue file, checked."""
    try:
        raw = safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as error:
        raise InputError(f"{path}: cannot read the benchmark catalogue ({error})") from None
    benchmarks = raw.get("benchmarks")
    if not isinstance(benchmarks, dict):
        raise InputError(f"{path}: expected a 'benchmarks' mapping of benchmark id to a list of entries")
    checked = {str(b): [_checked_entry(str(b), i, e, Path(path)) for i, e in enumerate(entries or [])]
               for b, entries in benchmarks.items()}
    return {"aliases": {str(k): str(v) for k, v in (raw.get("aliases") or {}).items()}, "benchmarks": checked}


def _round_version(round_id: Any) -> tuple[int, int] | None:
    try:
        parsed = parse_round_id(str(round_id))
    except ValueError:
        return None
    return (parsed.major, parsed.minor) if parsed.suite == "training" else None


def canonical(benchmark: str, path: Path = CATALOGUE) -> str:
    """The id a results folder name stands for (``mask`` is ``maskrcnn``)."""
    return load(path)["aliases"].get(str(benchmark), str(benchmark))


def _find(round_id: Any, benchmark: str, path: Path) -> dict | None:
    version = _round_version(round_id)
    if version is None:
        return None
    for entry in load(path)["benchmarks"].get(canonical(benchmark, path), ()):
        if entry["from"] <= version and (entry["to"] is None or version <= entry["to"]):
            return entry
    return None


def newest_round(benchmark: str, path: Path = CATALOGUE) -> str | None:
    """A round id in which the newest entry of ``benchmark`` applies (for callers that know no round)."""
    entries = load(path)["benchmarks"].get(canonical(benchmark, path))
    if not entries:
        return None
    last = max(entries, key=lambda e: e["from"])
    major, minor = last["to"] or last["from"]
    return f"training-v{major}.{minor}"


def entry(round_id: Any, benchmark: str, path: Path = CATALOGUE) -> dict | None:
    """The catalogue entry of ``benchmark`` in round ``round_id`` (a copy), or None."""
    found = _find(round_id, benchmark, path)
    return copy.deepcopy(found) if found else None


def known(round_id: Any, benchmark: str, path: Path = CATALOGUE) -> bool:
    return _find(round_id, benchmark, path) is not None


def _text(round_id: Any, benchmark: str, field: str, lang: str, path: Path) -> str | None:
    found = _find(round_id, benchmark, path)
    if not found:
        return None
    value = found[field]
    if isinstance(value, dict):
        return str(value.get(lang) or value[SOURCE])
    return str(value)


def area(round_id: Any, benchmark: str, lang: str = SOURCE, path: Path = CATALOGUE) -> str:
    """``Image Classification``; the id itself when the catalogue has no entry."""
    return _text(round_id, benchmark, "area", lang, path) or str(benchmark)


def model(round_id: Any, benchmark: str, lang: str = SOURCE, path: Path = CATALOGUE) -> str:
    """``ResNet-50 v1.5``; the id itself when the catalogue has no entry."""
    return _text(round_id, benchmark, "model", lang, path) or str(benchmark)


def title(round_id: Any, benchmark: str, lang: str = SOURCE, path: Path = CATALOGUE) -> str:
    """``Image Classification (ResNet-50 v1.5)`` / ``影像分類（ResNet-50 v1.5）``: task and model, the
    full name MLCommons' guidelines ask for; the id itself when the catalogue has no entry."""
    if not known(round_id, benchmark, path):
        return str(benchmark)
    task, name = area(round_id, benchmark, lang, path), model(round_id, benchmark, lang, path)
    if task == name:
        return name
    return f"{task}（{name}）" if lang.startswith("zh") else f"{task} ({name})"


def description(round_id: Any, benchmark: str, lang: str = SOURCE, path: Path = CATALOGUE) -> str | None:
    """Two sentences on what the benchmark trains and why it matters; None when unknown."""
    return _text(round_id, benchmark, "description", lang, path)


def fact(round_id: Any, benchmark: str, field: str, lang: str = SOURCE, path: Path = CATALOGUE) -> str | None:
    """One field (``dataset``, ``quality_target``, ``framework``, ``source``, ...) for ``lang``; None when unknown."""
    return _text(round_id, benchmark, field, lang, path)


def note(round_id: Any, benchmark: str, lang: str = SOURCE, path: Path = CATALOGUE) -> str | None:
    """The visible note for an id shown by its id (no entry for the round); None when the id is known."""
    if known(round_id, benchmark, path):
        return None
    return _UNKNOWN_NOTE.get(lang, _UNKNOWN_NOTE[SOURCE]).format(benchmark=benchmark, round=round_id)
