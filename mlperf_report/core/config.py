"""The report configuration (``data/report.yaml``), read once and validated, with build.py overrides.

Every problem names the file and the key, and says what would be accepted, so a typo in the YAML is a
one-line fix instead of a traceback from deep inside a notebook. Sections owned by other stages
(``mail``) are kept as plain dicts for them to validate.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlperf_report.core import accelerators, languages, paths
from mlperf_report.core.brand import brand_file
from mlperf_report.core.errors import InputError
from mlperf_report.core.yaml_files import read_yaml
from mlperf_report.core.rounds import parse_round_id

DIVISIONS = ("closed", "open")
LANGUAGES = languages.available()


#: A key of ``title:`` that is a language (``en``, ``zh-Hant``, or a language we lack such as ``fr``), not a suite.
_LANGUAGE_CODE = re.compile(r"^[a-z]{2}(?:[-_][A-Za-z]{2,4})?$")

#: ``--focus none``: a neutral round overview, no submitter or accelerator highlighted.
NO_FOCUS = "none"

#: The story engine's angles (``analysis.story``), the names ``story: {order, off}`` takes.
STORY_ANGLES = ("leadership", "generation", "competition", "ecosystem", "scaling", "progress", "price", "energy")


@dataclass(frozen=True)
class StorySettings:
    """``story:`` in report.yaml: ``order`` ranks the named angles first, in that order (the rest by
    strength after them); ``skip`` leaves angles out of the story (not ``off``: YAML reads that as false);
    ``scaling_efficiency``: a scaling claim leads (headline, highlights) only from this efficiency on
    (speed-up ÷ growth in accelerators; below it, it stays in the body)."""

    order: tuple[str, ...] = ()
    skip: tuple[str, ...] = ()
    scaling_efficiency: float = 0.70


@dataclass(frozen=True)
class WatchSettings:
    """``watch:`` in report.yaml, for ``build.py watch``: where new rounds appear (git URL templates with
    ``{suite}`` and ``{version}``, or folders where archives are dropped), which suites to look for,
    who hears of a failure, whether a new round's reports are mailed, which focuses get a report of
    their own (``report --focus-each``: submitters, accelerators or a list) and the state file."""

    sources: tuple[str, ...] = ("https://github.com/mlcommons/{suite}_results_v{version}",)
    suites: tuple[str, ...] = ("training",)
    operator: str = ""
    send: bool = False
    state: Path = paths.CACHE / "watch" / "state.json"
    focus_each: str = ""


@dataclass(frozen=True)
class Focus:
    """Whose story the report tells: a submitter, every system built on an accelerator, or nobody.

    ``kind`` is ``submitter`` (``name`` matched case-insensitively on the results' submitter),
    ``accelerator`` or ``none`` (a neutral round overview). An accelerator focus that names a chip or
    generation of ``data/accelerators.yaml`` (``B200``, ``NVIDIA B200``, ``MI355X``) selects the systems
    whose accelerator resolves to it, so ``B200`` is never a GB200 or a B300 spelled "Blackwell GPU
    (B300-...)"; any other name is found, case-insensitively, in the accelerator model name.
    """

    kind: str = "submitter"
    name: str = "Graphcore"

    def matches(self, submitter: object, accelerator_model: object) -> bool:
        """Whether a result of ``submitter`` on ``accelerator_model`` belongs to the focus."""
        if self.kind == "submitter":
            return str(submitter or "").strip().lower() == self.name.lower()
        if self.kind == "accelerator":
            chosen = accelerators.load().selects(self.name, accelerator_model)
            return self.name.lower() in str(accelerator_model or "").lower() if chosen is None else chosen
        return False

    @property
    def submitter(self) -> str | None:
        """The focus submitter (charts colour it), or None for an accelerator or no focus."""
        return self.name if self.kind == "submitter" else None

    @property
    def key(self) -> str:
        """One text naming the focus (figures.json, stamps): ``Graphcore``, ``accelerator:B200``, ``none``."""
        return self.name if self.kind == "submitter" else (f"accelerator:{self.name}" if self.kind == "accelerator" else NO_FOCUS)


def focus_of(submitter: str | None, accelerator: str | None = None) -> Focus:
    """The focus of ``--focus NAME`` / ``--focus none`` / ``--focus-accelerator PATTERN``
    (the accelerator wins when both are given)."""
    if accelerator and accelerator.strip():
        return Focus("accelerator", accelerator.strip())
    name = (submitter or "").strip()
    if not name or name.lower() == NO_FOCUS:
        return Focus("none", "")
    return Focus("submitter", name)


def focus_from_key(key: str) -> Focus:
    """The focus a ``Focus.key`` names (``Graphcore``, ``accelerator:B200``, ``none``): the inverse of
    ``key``, for figures files, stamps and lists of focuses written as text."""
    kind, _, name = key.strip().partition(":")
    return focus_of(None, name) if kind == "accelerator" and name.strip() else focus_of(key)


@dataclass(frozen=True)
class Baseline:
    """How the comparison system of each benchmark is chosen.

    By default: the fastest ``division`` (closed), available result of the round on a competitor's
    accelerator (``competitor``: a vendor name such as ``NVIDIA``, or a text found in the accelerator
    model name) with the same accelerator count as the focus system. When the competitor is the focus's
    own accelerator vendor (e.g. ``--focus NVIDIA``) or ``competitor`` is ``auto``, any other vendor's
    accelerator qualifies. ``pins`` (round → benchmark → ``[submitter/]system_id``) override the rule;
    ``systems`` pins for every round; ``accelerators`` fixes the count; ``submitter`` restricts the
    candidates to one submitter.
    """

    competitor: str = "NVIDIA"
    division: str = "closed"
    accelerators: int | None = None
    submitter: str | None = None
    systems: dict[str, str] = field(default_factory=dict)
    pins: dict[str, dict[str, str]] = field(default_factory=dict)

    def system_for(self, benchmark: str, round_id: str | None = None) -> str | None:
        """The pinned ``[submitter/]system_id`` of ``benchmark`` (in ``round_id``), or None to use the rule."""
        pinned = self.pins.get(round_id or "", {}).get(benchmark)
        return pinned or self.systems.get(benchmark)


@dataclass(frozen=True)
class ReportConfig:
    title: str = "MLPerf Training results"
    round: str = "training-v1.0"
    focus_submitter: str = "Graphcore"
    focus_accelerator: str = ""
    languages: tuple[str, ...] = LANGUAGES
    baseline: Baseline = field(default_factory=Baseline)
    source: dict[str, str] = field(default_factory=dict)
    mail: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None
    titles: dict[str, str] = field(default_factory=dict)  # per-language titles, when report.yaml gives them
    suite_titles: dict[str, dict[str, str]] = field(default_factory=dict)  # ``title: {<suite>: ...}``
    title_given: bool = False   # one title (text or per language) for every suite
    story: StorySettings = field(default_factory=StorySettings)
    watch: WatchSettings = field(default_factory=WatchSettings)
    #: ``deliverables:``, format names (None: every built-in format); the formats' registry
    #: (``assemble.formats.resolve`` / ``chosen``) resolves and checks them where the build uses them.
    deliverables: tuple[str, ...] | None = None
    brand: Path | None = None  # the brand file (core.brand): ``brand:``, else _brand.yml beside this file

    @property
    def focus(self) -> Focus:
        return focus_of(self.focus_submitter, self.focus_accelerator)

    def title_for(self, lang: str, suite: str | None = None, default=None) -> str:
        """The report title in ``lang`` for a round of ``suite`` (``title`` may be one text, one per
        language, or one of those per suite); ``default``: the suite's own title (or a function giving
        it, called only when needed), when report.yaml names none for it."""
        per_suite = self.suite_titles.get(suite or "")
        if per_suite:
            return per_suite.get(lang) or per_suite.get("*") or next(iter(per_suite.values()))
        if default and not self.title_given:
            return default() if callable(default) else default
        return self.titles.get(lang, self.title)

    def with_overrides(self, **overrides: Any) -> "ReportConfig":
        """A copy with build.py options applied; ``None`` means "not given on the command line"."""
        given = {key: value for key, value in overrides.items() if value is not None}
        unknown = sorted(set(given) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            raise TypeError(f"unknown configuration override(s): {', '.join(unknown)}")
        if "languages" in given:
            given["languages"] = _languages(given["languages"], "--languages")
        if "brand" in given:
            given["brand"] = Path(given["brand"])
        if "round" in given:  # a path such as ../../tmp/x must never become a folder name
            given["round"] = _round(given["round"], "--round")
        return dataclasses.replace(self, **given)


_KNOWN_KEYS = {"title", "round", "focus_submitter", "focus_accelerator", "languages", "baseline", "source", "mail",
               "story", "watch", "deliverables", "brand"}


def load_config(path: Path | str = paths.REPORT_CONFIG) -> ReportConfig:
    """Read and validate ``report.yaml``; missing keys take the defaults above."""
    path = Path(path)
    raw = read_yaml(path, what="report configuration", fix="copy data/report.yaml from the project")
    return parse_config(raw, where=str(path), path=path)


def parse_config(raw: Any, *, where: str = "report.yaml", path: Path | None = None) -> ReportConfig:
    """Validate an already-parsed configuration mapping (``where`` names it in errors)."""
    if not isinstance(raw, dict):
        raise InputError(f"{where}: expected a mapping of keys (title, round, ...), got {type(raw).__name__}")
    unknown = sorted(set(raw) - _KNOWN_KEYS)
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(unknown)}; known keys are {', '.join(sorted(_KNOWN_KEYS))}")
    defaults = ReportConfig()
    suite_titles = _suite_titles(raw.get("title"), where)
    titles = {} if suite_titles else _titles(raw.get("title"), where)
    plain = "title" in raw and not suite_titles
    if suite_titles:
        raw = {**raw, "title": next(iter(next(iter(suite_titles.values())).values()))}
    languages = _languages(raw.get("languages", list(defaults.languages)), f"{where}: languages")
    return ReportConfig(
        title=titles.get(languages[0], next(iter(titles.values()))) if titles else _string(raw, "title", defaults.title, where),
        titles=titles,
        suite_titles=suite_titles, title_given=plain,
        round=_round(raw.get("round", defaults.round), where),
        focus_submitter=_string(raw, "focus_submitter", defaults.focus_submitter, where),
        focus_accelerator=str(raw.get("focus_accelerator") or "").strip(),
        languages=languages,
        baseline=_baseline(raw.get("baseline", {}), where),
        source=_mapping(raw, "source", where),
        mail=_mapping(raw, "mail", where),
        path=path,
        story=_story(raw.get("story") or {}, where),
        watch=_watch(raw.get("watch") or {}, where, path),
        deliverables=_deliverables(raw.get("deliverables"), where),
        brand=brand_file(path, _string(raw, "brand", "", where) if "brand" in raw else None),
    )


def _deliverables(value: Any, where: str) -> tuple[str, ...] | None:
    """``deliverables: [html, pdf, ...]``: format names, each once (whether a format has the name is
    the formats' registry's to say, at build time: it lists the names that exist)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value) \
            or len(set(value)) != len(value):
        raise InputError(f"{where}: deliverables must be a list of format names (as "
                         f"docs/CONFIGURATION.md lists them), each once, got {value!r}")
    return tuple(v.strip() for v in value)


def _watch(value: Any, where: str, path: Path | None) -> WatchSettings:
    """``watch: {sources, suites, operator, send, state}``; a relative state path is the project's."""
    known = {f.name for f in dataclasses.fields(WatchSettings)}
    if not isinstance(value, dict) or set(value) - known:
        raise InputError(f"{where}: watch must be a mapping with {', '.join(sorted(known))}, got {value!r}")
    defaults = WatchSettings()
    sources = value.get("sources", list(defaults.sources))
    suites = value.get("suites", list(defaults.suites))
    if not isinstance(sources, list) or not all(isinstance(s, str) and s.strip() for s in sources):
        raise InputError(f"{where}: watch.sources must be a list of git URL templates or folders, got {sources!r}")
    if not isinstance(suites, list) or not all(isinstance(s, str) and s.isalpha() and s.islower() for s in suites):
        raise InputError(f"{where}: watch.suites must be a list of suite names (training, inference), got {suites!r}")
    state = Path(str(value.get("state") or defaults.state))
    return WatchSettings(tuple(s.strip() for s in sources), tuple(suites), str(value.get("operator") or "").strip(),
                         bool(value.get("send", False)), state if state.is_absolute() else paths.ROOT / state,
                         str(value.get("focus_each") or "").strip())


def _story(value: Any, where: str) -> StorySettings:
    """``story: {order: [angle, ...], skip: [angle, ...], scaling_efficiency: 0.70}``, every name one of
    STORY_ANGLES, the efficiency a number from 0 to 1."""
    if not isinstance(value, dict) or set(value) - {"order", "skip", "scaling_efficiency"}:
        raise InputError(f"{where}: story must be a mapping with 'order' and/or 'skip' (lists of angles) and "
                         f"'scaling_efficiency', got {value!r}")
    lists = {}
    for key in ("order", "skip"):
        names = value.get(key) or []
        if not isinstance(names, list) or any(n not in STORY_ANGLES for n in names):
            raise InputError(f"{where}: story.{key} must be a list of angles from {', '.join(STORY_ANGLES)}, got {names!r}")
        lists[key] = tuple(dict.fromkeys(names))
    efficiency = value.get("scaling_efficiency", StorySettings.scaling_efficiency)
    if isinstance(efficiency, bool) or not isinstance(efficiency, (int, float)) or not 0 <= efficiency <= 1:
        raise InputError(f"{where}: story.scaling_efficiency must be a number from 0 to 1 (0.70 = 70 %), got {efficiency!r}")
    return StorySettings(**lists, scaling_efficiency=float(efficiency))


def _string(raw: dict, key: str, default: str, where: str) -> str:
    value = raw.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{where}: {key} must be a non-empty text, got {value!r}")
    return value.strip()


def _suite_titles(value: Any, where: str) -> dict[str, dict[str, str]]:
    """``title: {training: ..., inference: ...}`` (each a text or one per language) → per suite; {} for one
    title or one per language (keys that are all language codes)."""
    if not isinstance(value, dict) or not value or any(_LANGUAGE_CODE.match(str(key)) for key in value):
        return {}
    return {suite: _titles(text, f"{where}: title.{suite}") or {"*": _string({"t": text}, "t", "", where)}
            for suite, text in value.items()}


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


_BASELINE_KEYS = ("accelerators", "competitor", "default", "division", "pins", "submitter", "systems")


def _baseline(raw: Any, where: str) -> Baseline:
    if not isinstance(raw, dict):
        raise InputError(f"{where}: baseline must be a mapping (competitor, pins, ...), got {raw!r}")
    unknown = sorted(set(raw) - set(_BASELINE_KEYS))
    if unknown:
        raise InputError(f"{where}: baseline: unknown key(s) {', '.join(unknown)}; known: {', '.join(_BASELINE_KEYS)}")
    default = raw.get("default") or {}
    if not isinstance(default, dict):
        raise InputError(f"{where}: baseline.default must be a mapping like {{accelerators: 8, division: closed}}")
    merged = {**default, **{k: raw[k] for k in ("accelerators", "division") if k in raw}}
    accelerators = merged.get("accelerators")
    if accelerators is not None and (not isinstance(accelerators, int) or isinstance(accelerators, bool) or accelerators < 1):
        raise InputError(f"{where}: baseline.default.accelerators must be a positive whole number, got {accelerators!r}")
    division = merged.get("division", "closed")
    if division not in DIVISIONS:
        raise InputError(f"{where}: baseline.default.division must be one of {list(DIVISIONS)}, got {division!r}")
    systems = raw.get("systems") or {}
    if not isinstance(systems, dict) or not all(isinstance(v, str) and v for v in systems.values()):
        raise InputError(f"{where}: baseline.systems must map benchmark to system id, e.g. resnet: dgxa100_ngc21.05_mxnet")
    submitter = raw.get("submitter")
    if submitter is not None and (not isinstance(submitter, str) or not submitter.strip()):
        raise InputError(f"{where}: baseline.submitter must be a non-empty text, got {submitter!r}")
    competitor = raw.get("competitor", "NVIDIA")
    if not isinstance(competitor, str) or not competitor.strip():
        raise InputError(f"{where}: baseline.competitor must be a vendor or accelerator model text (or auto), got {competitor!r}")
    return Baseline(competitor=competitor.strip(), division=division, accelerators=accelerators,
                    submitter=submitter.strip() if submitter else None,
                    systems={str(k): v for k, v in sorted(systems.items())}, pins=_pins(raw.get("pins") or {}, where))


def _pins(raw: Any, where: str) -> dict[str, dict[str, str]]:
    """``pins: {training-v1.0: {resnet: NVIDIA/dgxa100_ngc21.05_mxnet}}`` checked and keyed by round id."""
    error = (f"{where}: baseline.pins must map a round to benchmark: [submitter/]system_id, "
             "e.g. {training-v1.0: {resnet: NVIDIA/dgxa100_ngc21.05_mxnet}}")
    if not isinstance(raw, dict):
        raise InputError(error)
    pins = {}
    for round_text, by_benchmark in raw.items():
        if not isinstance(by_benchmark, dict) or not all(isinstance(v, str) and v.strip() for v in by_benchmark.values()):
            raise InputError(error)
        pins[_round(round_text, f"{where}: baseline.pins")] = {str(k): v.strip() for k, v in sorted(by_benchmark.items())}
    return pins
