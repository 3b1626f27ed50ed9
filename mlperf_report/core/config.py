"""The report configuration (``data/report.yaml``), read once and validated, with build.py overrides.

Every problem names the file and the key, and says what would be accepted, so a typo in the YAML is a
one-line fix instead of a traceback from deep inside a notebook. Sections owned by other stages
(``mail``) are kept as plain dicts for them to validate.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlperf_report.core import languages, paths
from mlperf_report.core.errors import InputError
from mlperf_report.core.rounds import parse_round_id

DIVISIONS = ("closed", "open")
LANGUAGES = languages.available()


@dataclass(frozen=True)
class Baseline:
    """The comparison system: a named system per benchmark, else the submitter's N-accelerator one."""

    submitter: str = "NVIDIA"
    accelerators: int = 8
    division: str = "closed"
    systems: dict[str, str] = field(default_factory=dict)

    def system_for(self, benchmark: str) -> str | None:
        """System id named for ``benchmark``, or None to pick by ``accelerators`` and ``division``."""
        return self.systems.get(benchmark)


@dataclass(frozen=True)
class ReportConfig:
    title: str = "MLPerf Training results"
    round: str = "training-v1.0"
    focus_submitter: str = "Graphcore"
    languages: tuple[str, ...] = LANGUAGES
    baseline: Baseline = field(default_factory=Baseline)
    source: dict[str, str] = field(default_factory=dict)
    mail: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None
    titles: dict[str, str] = field(default_factory=dict)  # per-language titles, when report.yaml gives them

    def title_for(self, lang: str) -> str:
        """The report title in ``lang`` (``title`` may be one text or one per language)."""
        return self.titles.get(lang, self.title)

    def with_overrides(self, **overrides: Any) -> "ReportConfig":
        """A copy with build.py options applied; ``None`` means "not given on the command line"."""
        given = {key: value for key, value in overrides.items() if value is not None}
        unknown = sorted(set(given) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            raise TypeError(f"unknown configuration override(s): {', '.join(unknown)}")
        if "languages" in given:
            given["languages"] = _languages(given["languages"], "--languages")
        return dataclasses.replace(self, **given)


_KNOWN_KEYS = {"title", "round", "focus_submitter", "languages", "baseline", "source", "mail"}


def load_config(path: Path | str = paths.REPORT_CONFIG) -> ReportConfig:
    """Read and validate ``report.yaml``; missing keys take the defaults above."""
    import yaml

    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise InputError(f"{path}: report configuration not found (copy data/report.yaml from the project)") from None
    except yaml.YAMLError as error:
        raise InputError(f"{path}: not valid YAML: {error}") from None
    return parse_config(raw, where=str(path), path=path)


def parse_config(raw: Any, *, where: str = "report.yaml", path: Path | None = None) -> ReportConfig:
    """Validate an already-parsed configuration mapping (``where`` names it in errors)."""
    if not isinstance(raw, dict):
        raise InputError(f"{where}: expected a mapping of keys (title, round, ...), got {type(raw).__name__}")
    unknown = sorted(set(raw) - _KNOWN_KEYS)
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(unknown)}; known keys are {', '.join(sorted(_KNOWN_KEYS))}")
    defaults = ReportConfig()
    titles = _titles(raw.get("title"), where)
    languages = _languages(raw.get("languages", list(defaults.languages)), f"{where}: languages")
    return ReportConfig(
        title=titles.get(languages[0], next(iter(titles.values()))) if titles else _string(raw, "title", defaults.title, where),
        titles=titles,
        round=_round(raw.get("round", defaults.round), where),
        focus_submitter=_string(raw, "focus_submitter", defaults.focus_submitter, where),
        languages=languages,
        baseline=_baseline(raw.get("baseline", {}), where),
        source=_mapping(raw, "source", where),
        mail=_mapping(raw, "mail", where),
        path=path,
    )


def _string(raw: dict, key: str, default: str, where: str) -> str:
    value = raw.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{where}: {key} must be a non-empty text, got {value!r}")
    return value.strip()


def _titles(value: Any, where: str) -> dict[str, str]:
    """``title: {en: ..., zh-Hant: ...}`` → that mapping; a single text (or nothing) → {}."""
    if not isinstance(value, dict):
        return {}
    bad = {k: v for k, v in value.items() if not isinstance(v, str) or not v.strip()}
    if bad or not value:
        raise InputError(f"{where}: title must be a non-empty text or one per language "
                         f"(e.g. {{en: ..., zh-Hant: ...}}), got {value!r}")
    unknown = sorted(set(value) - set(LANGUAGES))
    if unknown:
        raise InputError(f"{where}: title has unknown language(s) {', '.join(unknown)}; use {', '.join(LANGUAGES)}")
    return {k: v.strip() for k, v in value.items()}


def _mapping(raw: dict, key: str, where: str) -> dict:
    value = raw.get(key) or {}
    if not isinstance(value, dict):
        raise InputError(f"{where}: {key} must be a mapping, got {value!r}")
    return value


def _round(value: Any, where: str) -> str:
    try:
        return parse_round_id(str(value)).id
    except ValueError as error:
        raise InputError(f"{where}: round: {error}") from None


def _languages(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, (list, tuple)) or not value:
        raise InputError(f"{where} must be a non-empty list such as [en, zh-Hant], got {value!r}")
    bad = [lang for lang in value if lang not in LANGUAGES]
    if bad:
        raise InputError(f"{where}: language(s) {', '.join(map(repr, bad))} not supported; must be one of {list(LANGUAGES)}")
    return tuple(dict.fromkeys(value))


def _baseline(raw: Any, where: str) -> Baseline:
    if not isinstance(raw, dict):
        raise InputError(f"{where}: baseline must be a mapping (submitter, default, systems), got {raw!r}")
    unknown = sorted(set(raw) - {"submitter", "default", "systems"})
    if unknown:
        raise InputError(f"{where}: baseline: unknown key(s) {', '.join(unknown)}; known: default, submitter, systems")
    defaults = Baseline()
    default = raw.get("default") or {}
    if not isinstance(default, dict):
        raise InputError(f"{where}: baseline.default must be a mapping like {{accelerators: 8, division: closed}}")
    accelerators = default.get("accelerators", defaults.accelerators)
    if not isinstance(accelerators, int) or isinstance(accelerators, bool) or accelerators < 1:
        raise InputError(f"{where}: baseline.default.accelerators must be a positive whole number, got {accelerators!r}")
    division = default.get("division", defaults.division)
    if division not in DIVISIONS:
        raise InputError(f"{where}: baseline.default.division must be one of {list(DIVISIONS)}, got {division!r}")
    systems = raw.get("systems") or {}
    if not isinstance(systems, dict) or not all(isinstance(v, str) and v for v in systems.values()):
        raise InputError(f"{where}: baseline.systems must map benchmark to system id, e.g. resnet: dgxa100_ngc21.05_mxnet")
    return Baseline(
        submitter=_string(raw, "submitter", defaults.submitter, f"{where}: baseline"),
        accelerators=accelerators,
        division=division,
        systems={str(k): v for k, v in sorted(systems.items())},
    )
