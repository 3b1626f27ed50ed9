"""The press-release narrative: figures.json + price catalogue + report config → text per language.

Every claim is built here as plain, already-formatted values, and only when its data is present (no
perf/$ sentence without two priced results); the templates under ``templates/`` put words around them
and never type or format a number. Citations follow MLCommons' Results Messaging Guidelines: one
footnote per cited result, derived metrics (perf/$, speed-ups, server counts) labelled as not
verified by MLCommons with their basis, and the trademark legend. Footnote numbers follow first
mention, so the narrative and notes of the same inputs always agree.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from mlperf_report.i18n import catalogue, formatting
from mlperf_report.core import languages
from mlperf_report.suites.training import catalogue as benchmark_catalogue
from mlperf_report.core.config import focus_of
from mlperf_report.suites.training import rounds
from mlperf_report.narrative import story_text
from mlperf_report.narrative.rendering import (FORMATS, MARK, TRADEMARK_LEGEND, Rendered, check_choice,
                                               in_reading_order, lines, render_template)
from mlperf_report.core.errors import InputError, UserError

LANGUAGES = languages.available()
DIVISIONS = ("closed", "open")


#: CPUs in one host server, when the catalogue does not say otherwise. Basis: the host servers of the
#: systems this tool was first used on are dual-socket (IPU-POD16: one dual-CPU server; IPU-POD64:
#: servers of 2 × AMD EPYC each; DGX A100: 2 × AMD EPYC per node). The notes print this basis, and a
#: catalogue entry with ``cpus_per_server`` overrides it for its systems.
DEFAULT_CPUS_PER_SERVER = 2


# --------------------------------------------------------------------------------------------- API


def render(figures: Mapping[str, dict], summary: dict | None, config: Any, lang: str, fmt: str = "html",
           *, catalogue: Any = None) -> Rendered:
    """Narrative and notes of one language, as HTML fragments (``fmt="html"``) or plain text."""
    check_choice(fmt, FORMATS, "format")
    template = template_name(lang)
    context = in_reading_order(build_context(figures, summary, config, lang, catalogue=catalogue), "narrative", template)
    return Rendered(render_template(template, context, lang, fmt, "narrative"),
                    render_template(template, context, lang, fmt, "notes"))


def headline_summary(figures: Mapping[str, dict], config: Any, lang: str, *, catalogue: Any = None,
                     summary: dict | None = None) -> list[str]:
    """Short plain-text headline lines (for an email body), with ``[n]`` markers into ``headline_notes``:
    the story's headline and highlights when ``summary`` holds one, else the headline results."""
    return _headline_part(figures, summary, config, lang, catalogue, "headline")


def headline_notes(figures: Mapping[str, dict], config: Any, lang: str, *, catalogue: Any = None,
                   summary: dict | None = None) -> list[str]:
    """The footnotes of ``headline_summary`` and the trademark legend, one line each."""
    return _headline_part(figures, summary, config, lang, catalogue, "notes")


def _headline_part(figures, summary, config, lang: str, catalogue, part: str) -> list[str]:
    template = template_name(lang)
    context = in_reading_order(build_context(figures, summary, config, lang, catalogue=catalogue, scope="headline"),
                               "headline", template)
    return lines(render_template(template, context, lang, "text", part))


def template_name(lang: str) -> str:
    """``narrative.<lang>.html.j2``: one template per language holds the narrative, headline and notes."""
    return f"narrative.{lang}.html.j2"


# ------------------------------------------------------------------------------------------ context


def build_context(figures: Mapping[str, dict], summary: dict | None, config: Any, lang: str, *,
                  catalogue: Any = None, scope: str = "full") -> dict:
    """Every value the templates print, formatted for ``lang``; ``scope="headline"`` keeps the lead only.

    ``summary`` (summary.json) is accepted for the contract; every claim made today comes from the
    per-benchmark figures, so it is not read yet.
    """
    check_choice(lang, LANGUAGES, "language")
    check_choice(scope, ("full", "headline"), "scope")
    cfg = _config_dict(config)
    figs = _checked_figures(figures)
    round_id = _round_of(figs, cfg)
    figs = [_named(f, round_id, lang) for f in figs]
    focus = _focus_of(figs, cfg)
    source = cfg.get("source") or {}
    url, retrieved = _source_of_round(source, round_id)
    facts = _Facts(lang=lang, round_id=round_id, catalogue=catalogue, notes=_Notes(), url=url,
                   retrieved=formatting.date(retrieved, lang) if retrieved else None,
                   verified=source.get("verified"), result_ids=_result_ids(cfg))
    round_ = rounds.parse_round(round_id)
    headlines = [h for h in (_headline(f, facts, focus) for f in figs) if h]
    context = {
        "lang": lang, "mark": MARK, "submitter": _subject(focus, figs, lang), "focus": _focus_view(focus, figs),
        "suite": _marked(round_.title), "round_title": round_.title, "round_id": round_id,
        "unverified": facts.verified is False, "note_prefix": f"mlperf-{lang}-note-",
        "headlines": headlines, "flagship": _flagship(headlines),
    }
    if scope == "full":
        context["overview"] = _overview(figs, summary, facts, round_) if focus.kind == "none" else None
        context["benchmarks"] = _benchmarks(figs, round_, lang)
        context["systems"] = _systems(figs, facts) if focus.kind == "submitter" else []
        context["divisions"] = _divisions(figs, headlines)
        context["power"] = _power(figs, facts)
    perf = _perf_per_dollar(figs, facts)
    context["perf_per_dollar"] = perf
    context["price_comparisons"] = _price_comparisons(perf)
    context["equal_scale"] = _equal_scale(figs, facts, {c["benchmark"] for c in perf})
    context["bases"] = _bases(perf, context["equal_scale"])
    if scope == "full":
        context["previous"] = [p for p in (_previous(f, facts) for f in figs) if p]
        context["table"] = _overview_table(context["overview"]) if focus.kind == "none" else _table(figs, facts, focus)
    context["story"] = _story((summary or {}).get("story"), facts, lang, with_body=scope == "full")
    context["notes"] = facts.notes.items
    context["legend"] = TRADEMARK_LEGEND
    context["source_url"] = facts.url
    context["retrieved"] = facts.retrieved
    return context


def _story(story: dict | None, facts: "_Facts", lang: str, *, with_body: bool = True) -> dict:
    """summary.json's ranked claims (``analysis.story``) worded for ``lang``, each with its footnote
    (``with_body`` False: the headline and highlights only, as the email carries them)."""
    names = story_text.Names(lambda b, r, l: rounds.benchmark_model(b, r, l), lambda s, l: s)
    worded = story_text.render(story, lang, names, facts.round_id)
    if not with_body:
        worded["body"] = []
    claims = ([worded["headline"]] if worded["headline"] else []) + worded["highlights"] + [
        c for group in worded["body"] for c in group["claims"]]
    for claim in claims:  # a claim that cites no result (what was entered for the first time) has no note
        claim["note"] = facts.notes.cite(("story", claim["angle"], claim["kind"], tuple(claim["cites"])),
                                         {"kind": "story", "text": story_text.note_text(claim, lang, str)}
                                         ) if claim["cites"] else None
    return worded


class _Notes:
    """Footnotes in order of first mention; citing the same thing twice reuses its number."""

    def __init__(self) -> None:
        self.items: list[dict] = []
        self._numbers: dict[tuple, int] = {}

    def cite(self, key: tuple, note: dict) -> int:
        if key not in self._numbers:
            self._numbers[key] = len(self.items) + 1
            self.items.append({"number": self._numbers[key], **note})
        return self._numbers[key]


@dataclass
class _Facts:
    """What every section needs besides its own figures: language, round, citation details."""

    lang: str
    round_id: str
    catalogue: Any
    notes: _Notes
    url: str
    retrieved: str | None
    verified: bool | None
    result_ids: dict[str, str]


def _config_dict(config: Any) -> dict:
    if dataclasses.is_dataclass(config) and not isinstance(config, type):
        return dataclasses.asdict(config)
    if isinstance(config, Mapping):
        return dict(config)
    raise TypeError(f"config must be a mapping or a ReportConfig, got {type(config).__name__}")


def _checked_figures(figures: Mapping[str, dict]) -> list[dict]:
    """The figures dicts in benchmark order; a wrong shape is an error that says what to re-run."""
    if not isinstance(figures, Mapping) or not figures:
        raise InputError("no figures: run the notebooks (python build.py report) to write output/<round>/figures/")
    checked = []
    for name in sorted(figures):
        fig = figures[name]
        if not isinstance(fig, Mapping) or not isinstance(fig.get("focus"), Mapping):
            raise InputError(f"figures for {name!r} do not follow the figures.json contract (no 'focus'); "
                             "re-run the notebooks to rewrite them")
        checked.append({**fig, "benchmark": str(fig.get("benchmark") or name)})
    return checked


def _named(fig: dict, round_id: str, lang: str) -> dict:
    """The figures of a benchmark with its names in ``lang``, from the benchmark catalogue for the
    round (figures.json holds the English ones); an id the catalogue lacks keeps what figures.json says."""
    benchmark = fig["benchmark"]
    if not benchmark_catalogue.known(round_id, benchmark):
        return fig
    return {**fig, "benchmark_title": benchmark_catalogue.title(round_id, benchmark, lang),
            "benchmark_model": benchmark_catalogue.model(round_id, benchmark, lang)}


def _round_of(figs: list[dict], cfg: dict) -> str:
    found = sorted({str(f["round"]) for f in figs if f.get("round")})
    if len(found) > 1:
        raise InputError(f"figures of several rounds mixed together ({', '.join(found)}); pass one round's folder")
    return rounds.parse_round(found[0] if found else str(cfg.get("round", ""))).id


def _focus_of(figs: list[dict], cfg: dict):
    """The report's focus (``focus_submitter`` / ``focus_accelerator`` of the configuration), checked
    against the one the figures were made for (their ``focus_submitter`` holds ``Focus.key``)."""
    wanted = str(cfg.get("focus_submitter") or "").strip()
    accelerator = str(cfg.get("focus_accelerator") or "").strip()
    made_for = sorted({str(f["focus_submitter"]) for f in figs if f.get("focus_submitter")})
    if not (wanted or accelerator):
        if not made_for:
            raise InputError("no focus submitter: set focus_submitter in data/report.yaml")
        key = made_for[0]
        wanted, accelerator = (None, key.split(":", 1)[1]) if key.startswith("accelerator:") else (key, None)
    focus = focus_of(wanted, accelerator)
    if made_for and made_for != [focus.key]:
        option = {"submitter": f"--focus {focus.name}", "accelerator": f"--focus-accelerator {focus.name}",
                  "none": "--focus none"}[focus.kind]
        raise UserError(f"the figures were made for focus submitter {', '.join(made_for)} but the report is for "
                        f"{focus.key}; re-run the notebooks with {option}")
    return focus


def figures_focus(figures: Mapping[str, dict]) -> tuple[str, str]:
    """(focus_submitter, focus_accelerator) the figures were made for, as configuration values (the
    send stage mails the report that was built, whatever report.yaml says now); ("", "") if unknown."""
    made_for = sorted({str(f.get("focus_submitter")) for f in figures.values()
                       if isinstance(f, Mapping) and f.get("focus_submitter")})
    if len(made_for) != 1:
        return "", ""
    key = made_for[0]
    return ("none", key.split(":", 1)[1]) if key.startswith("accelerator:") else (key, "")


def _focus_submitters(figs: list[dict]) -> list[str]:
    """Submitters of the focus results, most results first (an accelerator's partners)."""
    counts: dict[str, int] = {}
    for fig in figs:
        for division in DIVISIONS:
            for result in _focus(fig, division):
                name = str(result.get("submitter", ""))
                counts[name] = counts.get(name, 0) + 1
    return sorted(counts, key=lambda n: (-counts[n], n.lower()))


def _focus_view(focus, figs: list[dict]) -> dict:
    submitters = _focus_submitters(figs) if focus.kind == "accelerator" else []
    return {"kind": focus.kind, "name": focus.name, "submitters": submitters,
            "submitter_count": formatting.count(len(submitters)), "one_submitter": len(submitters) == 1}


def _subject(focus, figs: list[dict], lang: str) -> str:
    """Who the sentences are about: the submitter, "B200 systems", or nothing for an overview."""
    if focus.kind == "accelerator":
        return catalogue.message("focus.accelerator", lang, name=focus.name)
    return focus.name


def _result_ids(cfg: dict) -> dict[str, str]:
    """Result IDs the configuration gives (``source.result_ids``: ``submitter/system_id`` → ID)."""
    ids = (cfg.get("source") or {}).get("result_ids") or {}
    return {str(k).lower(): str(v) for k, v in ids.items()} if isinstance(ids, Mapping) else {}


def _marked(title: str) -> str:
    """``MLPerf Training v1.0`` → ``MLPerf® Training v1.0``: the mark on every use of the name."""
    return title.replace("MLPerf", MARK, 1) if "MLPerf" in title else f"{MARK} {title}"


def _mark_text(text: str) -> str:
    """Free text from data files with the mark added where the name stands bare (``MLPerf`` → ``MLPerf®``)."""
    return re.sub(r"MLPerf(?![®™])", MARK, text)


# ------------------------------------------------------------------------------------------ results


def _finite(value: Any) -> float | None:
    """A JSON value as a finite number, or None (missing, text, NaN, a boolean)."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _minutes(result: Mapping | None) -> float | None:
    number = _finite((result or {}).get("minutes"))
    return number if number is not None and number > 0 else None


def _int(value: Any) -> int | None:
    number = _finite(value)
    return int(number) if number is not None and number.is_integer() and number >= 0 else None


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _name(result: Mapping) -> str:
    return _text(result.get("display_name")) or _text(result.get("system_name")) or str(result.get("system_id", ""))


def _scored(results: Any) -> list[dict]:
    """Results with a usable time to train, fastest first."""
    return sorted((r for r in (results or []) if isinstance(r, Mapping) and _minutes(r)), key=_minutes)


def _result(result: Mapping, fig: Mapping, facts: _Facts, *, round_id: str | None = None) -> dict:
    """A cited result: formatted values plus the number of its footnote."""
    round_id = round_id or facts.round_id
    division = str(result.get("division") or "").lower()
    submitter = str(result.get("submitter", ""))
    system_id = str(result.get("system_id", ""))
    benchmark = str(fig["benchmark"])
    result_id = _official_id(result.get("result_id")) or facts.result_ids.get(f"{submitter}/{system_id}".lower())
    same_round = round_id == facts.round_id
    url = facts.url if same_round else _url_of_round(facts.url, round_id)
    note = facts.notes.cite(("result", round_id, benchmark, submitter, system_id, division), {
        "kind": "result", "suite": _marked(rounds.parse_round(round_id).title),
        "division": division, "benchmark_title": _benchmark_title(fig),
        "submitter": submitter, "system": _name(result), "system_id": system_id,
        "result_id": result_id, "url": url, "link": url if url.startswith(("https://", "http://")) else "",
        "retrieved": facts.retrieved if same_round else None, "verified": facts.verified,
    })
    accelerators = _int(result.get("accelerators"))
    host_processors = _int(result.get("host_processors"))
    return {
        "system": _name(result), "system_id": system_id, "submitter": submitter, "division": division,
        "minutes": formatting.minutes(_minutes(result)),
        "minutes_table": formatting.minutes(_minutes(result), places=formatting.TABLE_PLACES),
        "accelerators": formatting.count(accelerators) if accelerators else None,
        "accelerator_model": _text(result.get("accelerator_model")),
        "host_processors": formatting.count(host_processors) if host_processors else None,
        "host_processor_model": _text(result.get("host_processor_model")),
        "framework": _text(result.get("framework")),
        "availability": _text(result.get("availability")),
        "note": note, "scale": None,
    }


def _power(figs: list[dict], facts: _Facts) -> list[dict]:
    """The focus's MLPerf Training Power results: energy to train (MJ) beside the time, each cited."""
    found = []
    for fig in figs:
        for division in DIVISIONS:
            for result in _focus(fig, division):
                energy = _finite(result.get("energy_j"))
                if energy and energy > 0:
                    found.append({"model": _benchmark_model(fig), "result": _result(result, fig, facts),
                                  "energy": formatting.fixed(energy / 1e6, 2, facts.lang)})
    return found


def _source_of_round(source: Mapping, round_id: str) -> tuple[str, str | None]:
    """The configured source URL and retrieval date, when they are this round's; a results-repository
    URL of another round (report.yaml names v1.0's) becomes this round's repository, with no date."""
    url = str(source.get("url") or "").strip()
    retrieved = source.get("retrieved")
    match = _TREE.search(url)
    if match and match.group(0) != f"training_results_v{rounds.parse_round(round_id).version}":
        return _url_of_round(url, round_id), None
    return url, str(retrieved) if retrieved else None


def _url_of_round(url: str, round_id: str) -> str:
    """The results repository of another round (``training_results_v1.0`` → ``_v0.7``), or nothing:
    a result is never cited with the source of a different round."""
    version = rounds.parse_round(round_id).version
    return re.sub(r"training_results_v\d+\.\d+", f"training_results_v{version}", url) if _TREE.search(url) else ""


_TREE = re.compile(r"training_results_v\d+\.\d+")

#: An MLPerf result ID as MLCommons publishes it (``1.0-1044``, optionally ``.benchmark``); other
#: identifiers a pipeline may carry (paths, keys) are not cited as result IDs.
_RESULT_ID = re.compile(r"^\d+\.\d+-\d+(\.[A-Za-z0-9_-]+)?$")


def _official_id(value: Any) -> str | None:
    text = _text(value)
    return text if text and _RESULT_ID.match(text) else None


def _benchmark_title(fig: Mapping) -> str:
    return _text(fig.get("benchmark_title")) or rounds.benchmark_title(str(fig["benchmark"]))


def _benchmark_model(fig: Mapping) -> str:
    return _text(fig.get("benchmark_model")) or rounds.benchmark_model(str(fig["benchmark"]))


def _focus(fig: Mapping, division: str) -> list[dict]:
    return _scored((fig.get("focus") or {}).get(division))


# ----------------------------------------------------------------------------------------- sections


def _headline_pick(fig: Mapping, neutral: bool) -> tuple[dict, int] | None:
    """The results a headline cites (per division) and their accelerator count: the focus's largest
    system's best closed and open times, or with no focus the round's fastest closed result."""
    if neutral:
        fastest = (fig.get("fastest") or {}).get("closed")
        return ({"closed": fastest, "open": None}, _int(fastest.get("accelerators")) or 0) if _minutes(fastest) else None
    candidates = _focus(fig, "closed") + _focus(fig, "open")
    if not candidates:
        return None
    largest = max(_int(r.get("accelerators")) or 0 for r in candidates)
    return {d: next((r for r in _focus(fig, d) if (_int(r.get("accelerators")) or 0) == largest), None)
            for d in DIVISIONS}, largest


def _headline(fig: Mapping, facts: _Facts, focus=None) -> dict | None:
    """One benchmark's headline: the cited results, the lead (the faster division), and for a focus
    where its closed result stands among closed systems of its size, with its common-scale result."""
    neutral = focus is not None and focus.kind == "none"
    picked = _headline_pick(fig, neutral)
    if picked is None:
        return None
    best, largest = picked
    lead = "open" if best["open"] and (not best["closed"] or _minutes(best["open"]) < _minutes(best["closed"])) else "closed"
    views = {d: _result(best[d], fig, facts) if best[d] else None for d in DIVISIONS}
    if views["closed"] is not None and not neutral:
        views["closed"] = {**views["closed"], "scale": _scale_of(fig, best["closed"])}
    return {
        "common": None if neutral or focus is None else _common_scale_result(fig, facts, best["closed"]),
        "benchmark": fig["benchmark"], "model": _benchmark_model(fig), "title": _benchmark_title(fig),
        "lead": lead, "result": views[lead], "closed": views["closed"], "open": views["open"],
        "other": views["closed" if lead == "open" else "open"],
        "accelerators_n": largest,
    }


def _scale_of(fig: Mapping, result: Mapping) -> dict | None:
    """Where a closed focus result stands among the closed systems with its accelerator count (from
    ``scales`` in figures.json): "the fastest of 12 closed systems with 8 accelerators"."""
    count = _int(result.get("accelerators"))
    for scale in fig.get("scales") or []:
        best = scale.get("focus_best") or {}
        if _int(scale.get("accelerators")) != count or not count:
            continue
        if (best.get("submitter"), best.get("system_id")) != (result.get("submitter"), result.get("system_id")):
            return None
        systems, position = _int(scale.get("systems")), _int(scale.get("focus_position"))
        if not (systems and position) or systems < 2:
            return None
        return {"count": formatting.count(count), "systems": formatting.count(systems),
                "position": formatting.count(position), "first": position == 1, "only": systems == 1}
    return None


def _common_scale_result(fig: Mapping, facts: _Facts, headline: Mapping | None) -> dict | None:
    """The focus's best closed result at the accelerator count most closed results share, when the
    headline result is at another scale: the like-for-like figure beside the record."""
    common = next((s for s in fig.get("scales") or [] if isinstance(s, Mapping) and s.get("common")), None)
    best = (common or {}).get("focus_best")
    if not (best and _minutes(best)):
        return None
    if headline and (best.get("submitter"), best.get("system_id")) == (headline.get("submitter"), headline.get("system_id")):
        return None
    scale = _scale_of(fig, best)
    return {**_result(best, fig, facts), "scale": scale} if scale else None


def _basis(fig: Mapping) -> dict | None:
    """How the baseline of a benchmark was chosen (``baseline_rule`` of figures.json), for the notes."""
    rule = fig.get("baseline_rule") if isinstance(fig.get("baseline_rule"), Mapping) else {}
    used = rule.get("used")
    if used in ("pinned", "named"):
        return {"how": "pinned"}
    if used not in ("rule", "default"):
        return None
    competitor = str(rule.get("competitor") or "")
    vendors = [str(v) for v in rule.get("vendors") or []]
    other = competitor.lower() == "auto" or competitor.lower() in [v.lower() for v in vendors]
    count, candidates = _int(rule.get("accelerators")), _int(rule.get("candidates"))
    return {"how": "rule", "count": formatting.count(count) if count else None,
            "candidates": formatting.count(candidates) if candidates else None,
            "competitor": competitor, "other_vendor": other, "vendors": vendors}


def _equal_scale(figs: list[dict], facts: _Facts, priced: set[str]) -> list[dict]:
    """Time to train of the focus and the baseline at the same accelerator count, for benchmarks with
    no performance-per-dollar claim (no sourced price for one of the two systems)."""
    claims = []
    for fig in figs:
        equal = fig.get("equal_scale")
        if fig["benchmark"] in priced or not isinstance(equal, Mapping):
            continue
        mine, base = equal.get("focus"), equal.get("baseline")
        if not (_minutes(mine) and _minutes(base)):
            continue
        ratio = _minutes(base) / _minutes(mine)
        mine_view, base_view = _result(mine, fig, facts), _result(base, fig, facts)
        basis = _basis(fig)
        note = facts.notes.cite(("equal_scale", fig["benchmark"]), {
            "kind": "equal_scale", "model": _benchmark_model(fig), "system": mine_view["system"],
            "baseline": base_view["system"], "basis": basis,
            "formula": {"baseline": base_view["minutes_table"], "system": mine_view["minutes_table"],
                        "ratio": formatting.fixed(ratio, 2)}})
        claims.append({"benchmark": fig["benchmark"], "model": _benchmark_model(fig), "title": _benchmark_title(fig),
                       "count": formatting.count(_int(equal.get("accelerators")) or 0), "system": mine_view,
                       "baseline": base_view, "ratio": formatting.ratio(max(ratio, 1 / ratio)), "faster": ratio > 1,
                       "same": round(ratio, 2) == 1.0, "note": note, "basis": basis})
    return claims


def _bases(perf: list[dict], equal: list[dict]) -> list[dict]:
    """One sentence per comparison system: which benchmarks it serves and how it was chosen."""
    out: dict[tuple, dict] = {}
    for claim in [*perf, *equal]:
        basis = claim.get("basis")
        if not basis:
            continue
        key = (claim["baseline"]["system"], basis["how"], basis.get("count"))
        entry = out.setdefault(key, {"system": claim["baseline"]["system"], "basis": basis, "models": []})
        if claim["model"] not in entry["models"]:
            entry["models"].append(claim["model"])
    return list(out.values())


def _overview(figs: list[dict], summary: dict | None, facts: _Facts, round_: rounds.Round) -> dict:
    """The neutral round overview (``--focus none``): submitters, what is new, the fastest result of
    each benchmark overall and at the scale most systems share."""
    submitters = []
    for entry in (summary or {}).get("submissions") or []:
        total = sum(int(n) for n in (entry.get("scored") or {}).values() if isinstance(n, int))
        if total:
            submitters.append((str(entry.get("submitter", "")), total))
    submitters.sort(key=lambda s: (-s[1], s[0].lower()))
    benchmarks = []
    for fig in figs:
        fastest = (fig.get("fastest") or {}).get("closed")
        if not _minutes(fastest):
            continue
        entry = {"benchmark": fig["benchmark"], "model": _benchmark_model(fig), "title": _benchmark_title(fig),
                 "fastest": _result(fastest, fig, facts),
                 "systems": None, "common": None}
        scales = [s for s in fig.get("scales") or [] if isinstance(s, Mapping)]
        entry["systems"] = formatting.count(sum(_int(s.get("systems")) or 0 for s in scales)) if scales else None
        common = next((s for s in scales if s.get("common") and _minutes(s.get("fastest"))), None)
        if common and (common["fastest"].get("system_id"), common["fastest"].get("submitter")) != (
                fastest.get("system_id"), fastest.get("submitter")) and (_int(common.get("systems")) or 0) > 1:
            entry["common"] = {"count": formatting.count(_int(common.get("accelerators")) or 0),
                               "systems": formatting.count(_int(common.get("systems")) or 0),
                               "result": _result(common["fastest"], fig, facts)}
        benchmarks.append(entry)
    previous = rounds.previous_round_id(round_.id)
    before = rounds.parse_round(previous).benchmarks if previous else ()
    return {
        "submitters": [{"name": n, "results": formatting.count(c)} for n, c in submitters],
        "submitter_count": formatting.count(len(submitters)),
        "result_count": formatting.count(sum(c for _, c in submitters)),
        "benchmarks": benchmarks,
        "previous_suite": _marked(rounds.parse_round(previous).title) if previous else None,
        "new": [_catalogue_names(b, round_.id, facts.lang) for b in round_.benchmarks if before and b not in before],
        "retired": [_catalogue_names(b, previous, facts.lang) for b in before if b not in round_.benchmarks],
    }


def _catalogue_names(benchmark: str, round_id: str, lang: str) -> dict:
    """A benchmark's names in ``lang`` for a round (new or retired ones have no figures)."""
    return {"benchmark": benchmark, "model": rounds.benchmark_model(benchmark, round_id, lang),
            "title": rounds.benchmark_title(benchmark, round_id, lang)}


def _overview_table(overview: dict | None) -> list[dict]:
    """The results the overview cites: fastest closed result per benchmark, and at the common scale."""
    rows = []
    for entry in (overview or {}).get("benchmarks") or []:
        rows.append({"model": entry["model"], "baseline": False, **entry["fastest"]})
        if entry["common"]:
            rows.append({"model": entry["model"], "baseline": False, **entry["common"]["result"]})
    return rows


def _flagship(headlines: list[dict]) -> str | None:
    """The name of the largest system in the headlines (the one a press release leads with)."""
    if not headlines:
        return None
    top = max(headlines, key=lambda h: h["accelerators_n"])
    return top["result"]["system"]


def _benchmarks(figs: list[dict], round_: rounds.Round, lang: str = "en") -> dict:
    submitted, others = [], []
    for fig in figs:
        divisions = [d for d in DIVISIONS if _focus(fig, d)]
        entry = {"benchmark": fig["benchmark"], "model": _benchmark_model(fig), "title": _benchmark_title(fig),
                 "divisions": divisions, "about": benchmark_catalogue.description(round_.id, fig["benchmark"], lang),
                 "note": benchmark_catalogue.note(round_.id, fig["benchmark"], lang)}
        (submitted if divisions else others).append(entry)
    known = {f["benchmark"] for f in figs}
    others += [{"benchmark": b, "model": rounds.benchmark_model(b, round_, lang),
                "title": rounds.benchmark_title(b, round_, lang), "divisions": [],
                "about": benchmark_catalogue.description(round_.id, b, lang),
                "note": benchmark_catalogue.note(round_.id, b, lang)}
               for b in round_.benchmarks if b not in known]
    return {"submitted": submitted, "others": sorted(others, key=lambda e: e["benchmark"]),
            "count": formatting.count(len(submitted)),
            "round_count": formatting.count(len(round_.benchmarks)) if round_.benchmarks else None}


def _cpus_per_server(result: Mapping, facts: _Facts) -> tuple[int, str | None]:
    """CPUs per host server of a system: the catalogue's ``cpus_per_server``, else the default."""
    if facts.catalogue is not None and hasattr(facts.catalogue, "lookup"):
        entry = facts.catalogue.lookup(result.get("submitter", ""), result.get("system_id", ""), facts.round_id)
        value = _int(getattr(entry, "cpus_per_server", None)) if entry is not None else None
        if value:
            return value, "catalogue"
    return DEFAULT_CPUS_PER_SERVER, None


def _systems(figs: list[dict], facts: _Facts) -> list[dict]:
    """What each focus system is made of, and how many host servers it used per benchmark."""
    systems: dict[str, dict] = {}
    for fig in figs:
        for result in _focus(fig, "closed") + _focus(fig, "open"):
            name = _name(result)
            system = systems.setdefault(name, {
                "name": name, "accelerators_n": _int(result.get("accelerators")) or 0,
                "accelerators": None, "accelerator_model": _text(result.get("accelerator_model")),
                "configs": {}})
            if system["accelerators_n"] and not system["accelerators"]:
                system["accelerators"] = formatting.count(system["accelerators_n"])
            host_processors = _int(result.get("host_processors"))
            if not host_processors:
                continue
            per_server, basis = _cpus_per_server(result, facts)
            servers = host_processors // per_server if host_processors % per_server == 0 else None
            note = facts.notes.cite(("servers", per_server, basis), {
                "kind": "servers", "cpus_per_server": formatting.count(per_server), "basis": basis}) if servers else None
            key = (host_processors, servers, _text(result.get("host_processor_model")))
            config = system["configs"].setdefault(key, {
                "host_processors": formatting.count(host_processors), "host_processor_model": key[2],
                "servers": formatting.count(servers) if servers else None, "one_server": servers == 1,
                "note": note, "models": []})
            if _benchmark_model(fig) not in config["models"]:
                config["models"].append(_benchmark_model(fig))
    ordered = sorted(systems.values(), key=lambda s: (-s["accelerators_n"], s["name"]))
    return [{**s, "configs": list(s["configs"].values()), "varies": len(s["configs"]) > 1} for s in ordered]


def _divisions(figs: list[dict], headlines: list[dict]) -> dict:
    """Which divisions the focus submitter entered, and the closed/open pairs worth explaining."""
    entered = [d for d in DIVISIONS if any(_focus(f, d) for f in figs)]
    pairs = [h for h in headlines if h["closed"] and h["open"]]
    return {"entered": entered, "both": len(entered) == 2, "pairs": pairs,
            "open_faster": [h for h in pairs if h["lead"] == "open"]}


def _price(price: Any) -> dict | None:
    """A usable PRICE (amount, currency, source), else None: a claim is never made on half a price."""
    if not isinstance(price, Mapping):
        return None
    amount, currency, source = price.get("amount"), _text(price.get("currency")), _text(price.get("source"))
    try:
        number = float(amount)
    except (TypeError, ValueError):
        return None
    if isinstance(amount, bool) or not math.isfinite(number) or number <= 0 or not currency or not source:
        return None
    by_lang = price.get("source_by_lang") if isinstance(price.get("source_by_lang"), Mapping) else {}
    return {"amount": number, "currency": currency.upper(), "source": source, "date": _text(str(price.get("date") or "")),
            "source_by_lang": {str(k): t for k, v in by_lang.items() if (t := _text(v))}}


def _perf_per_dollar(figs: list[dict], facts: _Facts) -> list[dict]:
    """Perf/$ claims against the baseline: only with both results timed and both prices sourced."""
    claims = []
    for fig in figs:
        baseline = fig.get("baseline")
        for entry in fig.get("perf_per_dollar") or []:
            system = (entry or {}).get("system")
            price, base_price = _price((entry or {}).get("price")), _price((entry or {}).get("baseline_price"))
            if not (system and baseline and price and base_price and _minutes(system) and _minutes(baseline)):
                continue
            if price["currency"] != base_price["currency"]:
                continue
            if (system.get("submitter"), system.get("system_id")) == (baseline.get("submitter"), baseline.get("system_id")):
                continue
            if str(system.get("division") or "").lower() != str(baseline.get("division") or "").lower():
                continue   # closed against open is not like for like: no perf/$ claim across divisions
            computed = (_minutes(baseline) * base_price["amount"]) / (_minutes(system) * price["amount"])
            ratio = entry.get("ratio")
            ratio = float(ratio) if isinstance(ratio, (int, float)) and not isinstance(ratio, bool) and math.isfinite(ratio) else computed
            sys_view, base_view = _result(system, fig, facts), _result(baseline, fig, facts)
            division = sys_view["division"]
            formula = {
                "baseline_minutes": base_view["minutes_table"], "baseline_amount": formatting.count(round(base_price["amount"])),
                "system_minutes": sys_view["minutes_table"], "system_amount": formatting.count(round(price["amount"])),
                "ratio": formatting.fixed(ratio, 2),
            }
            claim = {
                "benchmark": fig["benchmark"], "model": _benchmark_model(fig), "title": _benchmark_title(fig),
                "division": division, "system": sys_view, "baseline": base_view, "basis": _basis(fig),
                "chips_differ": sys_view["accelerators"] != base_view["accelerators"],
                "categories_differ": bool(sys_view["availability"] and base_view["availability"]
                                          and sys_view["availability"] != base_view["availability"]),
                "price": _price_view(price, facts.lang), "baseline_price": _price_view(base_price, facts.lang),
                "share": price["amount"] / base_price["amount"],
                "ratio": formatting.ratio(ratio), "better": ratio > 1, "formula": formula,
            }
            claim["note"] = facts.notes.cite(("perf_per_dollar", fig["benchmark"], sys_view["system_id"], base_view["system_id"]), {
                "kind": "perf_per_dollar", "model": claim["model"], "title": claim["title"], "division": division,
                "system": sys_view["system"], "baseline": base_view["system"],
                "system_accelerators": sys_view["accelerators"], "baseline_accelerators": base_view["accelerators"],
                "system_accelerator_model": sys_view["accelerator_model"],
                "baseline_accelerator_model": base_view["accelerator_model"],
                "price": claim["price"], "baseline_price": claim["baseline_price"], "formula": formula,
                "basis": claim["basis"],
            })
            claims.append(claim)
    return claims


def _price_view(price: dict, lang: str) -> dict:
    source = price.get("source_by_lang", {}).get(lang, price["source"])
    return {"text": formatting.money(price["amount"], price["currency"], lang), "source": _mark_text(source),
            "date": formatting.date(price["date"], lang) if price["date"] else None}


def _price_comparisons(claims: list[dict]) -> list[dict]:
    """One "costs half as much" statement per priced pair of systems, however many benchmarks share it."""
    seen, comparisons = set(), []
    for claim in claims:
        key = (claim["system"]["system"], claim["baseline"]["system"], claim["price"]["text"], claim["baseline_price"]["text"])
        if key in seen:
            continue
        seen.add(key)
        lang_words = {lang: formatting.fraction_words(claim["share"], lang) for lang in LANGUAGES}
        comparisons.append({
            "system": claim["system"]["system"], "baseline": claim["baseline"]["system"],
            "price": claim["price"], "baseline_price": claim["baseline_price"],
            "share_words": lang_words, "share_percent": formatting.percent(claim["share"]),
            "cheaper": claim["share"] < 1,
        })
    return comparisons


def _previous(fig: Mapping, facts: _Facts) -> dict | None:
    """Round-over-round progress of the focus submitter's best result, when both rounds have one."""
    prev = fig.get("previous_round")
    if not isinstance(prev, Mapping):
        return None
    before, now, speedup = prev.get("focus_best"), prev.get("this_best"), prev.get("speedup")
    if not (before and now and _minutes(before) and _minutes(now) and isinstance(speedup, (int, float))
            and not isinstance(speedup, bool) and math.isfinite(speedup) and speedup > 0):
        return None
    try:
        prev_round = rounds.parse_round(str(prev.get("round"))).id
    except ValueError:
        return None
    before_view = _result(before, fig, facts, round_id=prev_round)
    now_view = _result(now, fig, facts)
    formula = {"before": before_view["minutes_table"], "now": now_view["minutes_table"], "speedup": formatting.fixed(speedup, 2)}
    note = facts.notes.cite(("speedup", fig["benchmark"], prev_round), {
        "kind": "speedup", "model": _benchmark_model(fig), "formula": formula,
        "previous_suite": _marked(rounds.parse_round(prev_round).title),
        "before_system": before_view["system"], "now_system": now_view["system"],
        "before_accelerators": before_view["accelerators"], "now_accelerators": now_view["accelerators"],
        "before_division": before_view["division"], "now_division": now_view["division"],
    })
    return {"model": _benchmark_model(fig), "previous_suite": _marked(rounds.parse_round(prev_round).title),
            "before": before_view, "now": now_view, "speedup": formatting.ratio(speedup), "faster": speedup > 1,
            "note": note}


def _table(figs: list[dict], facts: _Facts, focus=None) -> list[dict]:
    """Every focus result (for an accelerator, each submitter's fastest per benchmark and division)
    and the baseline it is compared with, minutes to two decimals."""
    rows = []
    for fig in figs:
        compared = bool(fig.get("perf_per_dollar") or fig.get("equal_scale"))
        for division in DIVISIONS:
            results = _focus(fig, division)
            if focus is not None and focus.kind == "accelerator":
                results = list({str(r.get("submitter")): r for r in reversed(results)}.values())
                results = sorted(results, key=_minutes)
            for result in results:
                rows.append({"model": _benchmark_model(fig), "baseline": False, **_result(result, fig, facts)})
        baseline = fig.get("baseline")
        if compared and baseline and _minutes(baseline) and any(_focus(fig, d) for d in DIVISIONS):
            rows.append({"model": _benchmark_model(fig), "baseline": True, **_result(baseline, fig, facts)})
    return rows


# ---------------------------------------------------------------------------------------- rendering


