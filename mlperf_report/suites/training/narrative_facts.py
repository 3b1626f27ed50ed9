"""The claims a Training narrative makes of one benchmark, each only when its data is present: results
as plain, formatted values with their footnotes (result IDs, sources), the headline result, equal-scale
comparisons and their basis, round over round, and the table of results. The notes collect the
footnotes in the order claims are built; ``narrative`` renumbers them in reading order.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from mlperf_report.i18n import formatting
from mlperf_report.suites.training import rounds
from mlperf_report.narrative import citations
from mlperf_report.narrative.citations import official_id
from mlperf_report.narrative.rendering import MARK

DIVISIONS = ("closed", "open")


class Notes:
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
class Facts:
    """What every section needs besides its own figures: language, round, citation details."""

    lang: str
    round_id: str
    catalogue: Any
    notes: Notes
    url: str
    retrieved: str | None
    verified: bool | None
    result_ids: dict[str, str]


def marked(title: str) -> str:
    """``MLPerf Training v1.0`` → ``MLPerf® Training v1.0``: the mark on every use of the name."""
    return title.replace("MLPerf", MARK, 1) if "MLPerf" in title else f"{MARK} {title}"


def mark_text(text: str) -> str:
    """Free text from data files with the mark added where the name stands bare (``MLPerf`` → ``MLPerf®``)."""
    return re.sub(r"MLPerf(?![®™])", MARK, text)


def _finite(value: Any) -> float | None:
    """A JSON value as a finite number, or None (missing, text, NaN, a boolean)."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def minutes_of(result: Mapping | None) -> float | None:
    number = _finite((result or {}).get("minutes"))
    return number if number is not None and number > 0 else None


def as_int(value: Any) -> int | None:
    number = _finite(value)
    return int(number) if number is not None and number.is_integer() and number >= 0 else None


def as_text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def result_name(result: Mapping) -> str:
    return as_text(result.get("display_name")) or as_text(result.get("system_name")) or str(result.get("system_id", ""))


def _scored(results: Any) -> list[dict]:
    """Results with a usable time to train, fastest first."""
    return sorted((r for r in (results or []) if isinstance(r, Mapping) and minutes_of(r)), key=minutes_of)


def result_view(result: Mapping, fig: Mapping, facts: Facts, *, round_id: str | None = None) -> dict:
    """A cited result: formatted values plus the number of its footnote."""
    round_id = round_id or facts.round_id
    division = str(result.get("division") or "").lower()
    submitter = str(result.get("submitter", ""))
    system_id = str(result.get("system_id", ""))
    benchmark = str(fig["benchmark"])
    result_id = (official_id(result.get("mlcommons_id")) or official_id(result.get("result_id"))
                 or facts.result_ids.get(f"{submitter}/{system_id}".lower()) if round_id == facts.round_id else
                 official_id(result.get("mlcommons_id")))  # the configured map is the report's round's
    same_round = round_id == facts.round_id
    url = facts.url if same_round else citations.source_of({}, round_id)[0]  # an earlier round: its own repository
    note = facts.notes.cite(("result", round_id, benchmark, submitter, system_id, division), {
        "kind": "result", "suite": marked(rounds.parse_round(round_id).title),
        "division": division, "benchmark_title": benchmark_title_of(fig),
        "submitter": submitter, "system": result_name(result), "system_id": system_id,
        "result_id": result_id, "url": url, "link": url if url.startswith(("https://", "http://")) else "",
        "retrieved": facts.retrieved if same_round else None, "verified": facts.verified,
        "official_factor": _factor_text(result.get("official_factor"), facts.lang),
    })
    accelerators = as_int(result.get("accelerators"))
    host_processors = as_int(result.get("host_processors"))
    return {
        "system": result_name(result), "system_id": system_id, "submitter": submitter, "division": division,
        "minutes": formatting.minutes(minutes_of(result)),
        "minutes_table": formatting.minutes(minutes_of(result), places=formatting.TABLE_PLACES),
        "accelerators": formatting.count(accelerators) if accelerators else None,
        "accelerator_model": as_text(result.get("accelerator_model")),
        "host_processors": formatting.count(host_processors) if host_processors else None,
        "host_processor_model": as_text(result.get("host_processor_model")),
        "framework": as_text(result.get("framework")),
        "availability": as_text(result.get("availability")),
        "note": note, "scale": None,
    }


def power_claims(figs: list[dict], facts: Facts) -> list[dict]:
    """The focus's MLPerf Training Power results: energy to train (MJ) beside the time, each cited."""
    found = []
    for fig in figs:
        for division in DIVISIONS:
            for result in focus_results(fig, division):
                energy = _finite(result.get("energy_j"))
                if energy and energy > 0:
                    found.append({"model": benchmark_model_of(fig), "result": result_view(result, fig, facts),
                                  "energy": formatting.fixed(energy / 1e6, 2, facts.lang)})
    return found


def benchmark_title_of(fig: Mapping) -> str:
    return as_text(fig.get("benchmark_title")) or rounds.benchmark_title(str(fig["benchmark"]))


def benchmark_model_of(fig: Mapping) -> str:
    return as_text(fig.get("benchmark_model")) or rounds.benchmark_model(str(fig["benchmark"]))


def focus_results(fig: Mapping, division: str) -> list[dict]:
    return _scored((fig.get("focus") or {}).get(division))


def _headline_pick(fig: Mapping, neutral: bool) -> tuple[dict, int] | None:
    """The results a headline cites (per division) and their accelerator count: the focus's largest
    system's best closed and open times, or with no focus the round's fastest closed result."""
    if neutral:
        fastest = (fig.get("fastest") or {}).get("closed")
        return ({"closed": fastest, "open": None}, as_int(fastest.get("accelerators")) or 0) if minutes_of(fastest) else None
    candidates = focus_results(fig, "closed") + focus_results(fig, "open")
    if not candidates:
        return None
    largest = max(as_int(r.get("accelerators")) or 0 for r in candidates)
    return {d: next((r for r in focus_results(fig, d) if (as_int(r.get("accelerators")) or 0) == largest), None)
            for d in DIVISIONS}, largest


def headline(fig: Mapping, facts: Facts, focus=None) -> dict | None:
    """One benchmark's headline: the cited results, the lead (the faster division), and for a focus
    where its closed result stands among closed systems of its size, with its common-scale result."""
    neutral = focus is not None and focus.kind == "none"
    picked = _headline_pick(fig, neutral)
    if picked is None:
        return None
    best, largest = picked
    lead = "open" if best["open"] and (not best["closed"] or minutes_of(best["open"]) < minutes_of(best["closed"])) else "closed"
    views = {d: result_view(best[d], fig, facts) if best[d] else None for d in DIVISIONS}
    if views["closed"] is not None and not neutral:
        views["closed"] = {**views["closed"], "scale": _scale_of(fig, best["closed"])}
    return {
        "common": None if neutral or focus is None else _common_scale_result(fig, facts, best["closed"]),
        "benchmark": fig["benchmark"], "model": benchmark_model_of(fig), "title": benchmark_title_of(fig),
        "lead": lead, "result": views[lead], "closed": views["closed"], "open": views["open"],
        "other": views["closed" if lead == "open" else "open"],
        "accelerators_n": largest,
    }


def _scale_of(fig: Mapping, result: Mapping) -> dict | None:
    """Where a closed focus result stands among the closed systems with its accelerator count (from
    ``scales`` in figures.json): "the fastest of 12 closed systems with 8 accelerators"."""
    count = as_int(result.get("accelerators"))
    for scale in fig.get("scales") or []:
        best = scale.get("focus_best") or {}
        if as_int(scale.get("accelerators")) != count or not count:
            continue
        if (best.get("submitter"), best.get("system_id")) != (result.get("submitter"), result.get("system_id")):
            return None
        systems, position = as_int(scale.get("systems")), as_int(scale.get("focus_position"))
        if not (systems and position) or systems < 2:
            return None
        return {"count": formatting.count(count), "systems": formatting.count(systems),
                "position": formatting.count(position), "first": position == 1, "only": systems == 1}
    return None


def _common_scale_result(fig: Mapping, facts: Facts, headline: Mapping | None) -> dict | None:
    """The focus's best closed result at the accelerator count most closed results share, when the
    headline result is at another scale: the like-for-like figure beside the record."""
    common = next((s for s in fig.get("scales") or [] if isinstance(s, Mapping) and s.get("common")), None)
    best = (common or {}).get("focus_best")
    if not (best and minutes_of(best)):
        return None
    if headline and (best.get("submitter"), best.get("system_id")) == (headline.get("submitter"), headline.get("system_id")):
        return None
    scale = _scale_of(fig, best)
    return {**result_view(best, fig, facts), "scale": scale} if scale else None


def basis_of(fig: Mapping) -> dict | None:
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
    count, candidates = as_int(rule.get("accelerators")), as_int(rule.get("candidates"))
    return {"how": "rule", "count": formatting.count(count) if count else None,
            "candidates": formatting.count(candidates) if candidates else None,
            "competitor": competitor, "other_vendor": other, "vendors": vendors}


def equal_scale(figs: list[dict], facts: Facts, priced: set[str]) -> list[dict]:
    """Time to train of the focus and the baseline at the same accelerator count, for benchmarks with
    no performance-per-dollar claim (no sourced price for one of the two systems)."""
    claims = []
    for fig in figs:
        equal = fig.get("equal_scale")
        if fig["benchmark"] in priced or not isinstance(equal, Mapping):
            continue
        mine, base = equal.get("focus"), equal.get("baseline")
        if not (minutes_of(mine) and minutes_of(base)):
            continue
        ratio = minutes_of(base) / minutes_of(mine)
        mine_view, base_view = result_view(mine, fig, facts), result_view(base, fig, facts)
        basis = basis_of(fig)
        note = facts.notes.cite(("equal_scale", fig["benchmark"]), {
            "kind": "equal_scale", "model": benchmark_model_of(fig), "system": mine_view["system"],
            "baseline": base_view["system"], "basis": basis,
            "formula": {"baseline": base_view["minutes_table"], "system": mine_view["minutes_table"],
                        "ratio": formatting.fixed(ratio, 2)}})
        claims.append({"benchmark": fig["benchmark"], "model": benchmark_model_of(fig), "title": benchmark_title_of(fig),
                       "count": formatting.count(as_int(equal.get("accelerators")) or 0), "system": mine_view,
                       "baseline": base_view, "ratio": formatting.ratio(max(ratio, 1 / ratio)), "faster": ratio > 1,
                       "same": round(ratio, 2) == 1.0, "note": note, "basis": basis})
    return claims


def bases(perf: list[dict], equal: list[dict]) -> list[dict]:
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


def _factor_text(factor: Any, lang: str) -> str | None:
    """An RCP scaling factor as the notes print it (``1.0347``), or None."""
    if factor is None or isinstance(factor, bool):
        return None
    return formatting.fixed(float(factor), formatting.carried_places(float(factor)), lang)


def official_times(figs: list[dict], facts: Facts) -> list[dict]:
    """Every result of the report's benchmarks whose time to train is MLCommons' published one (its
    summary applies an RCP scaling factor the tree holds no scaling.json for): the notes say so."""
    out = []
    for fig in figs:
        for result in fig.get("official_times") or []:
            out.append({"benchmark_title": benchmark_title_of(fig), "submitter": str(result.get("submitter", "")),
                        "system": result_name(result), "division": str(result.get("division") or ""),
                        "minutes": formatting.minutes(minutes_of(result), places=formatting.TABLE_PLACES),
                        "factor": _factor_text(result.get("official_factor"), facts.lang)})
    return out


def previous_claim(fig: Mapping, facts: Facts) -> dict | None:
    """Round-over-round progress of the focus submitter's best result, when both rounds have one."""
    prev = fig.get("previous_round")
    if not isinstance(prev, Mapping):
        return None
    before, now, speedup = prev.get("focus_best"), prev.get("this_best"), prev.get("speedup")
    if not (before and now and minutes_of(before) and minutes_of(now) and isinstance(speedup, (int, float))
            and not isinstance(speedup, bool) and math.isfinite(speedup) and speedup > 0):
        return None
    try:
        prev_round = rounds.parse_round(str(prev.get("round"))).id
    except ValueError:
        return None
    before_view = result_view(before, fig, facts, round_id=prev_round)
    now_view = result_view(now, fig, facts)
    formula = {"before": before_view["minutes_table"], "now": now_view["minutes_table"], "speedup": formatting.fixed(speedup, 2)}
    note = facts.notes.cite(("speedup", fig["benchmark"], prev_round), {
        "kind": "speedup", "model": benchmark_model_of(fig), "formula": formula,
        "previous_suite": marked(rounds.parse_round(prev_round).title),
        "before_system": before_view["system"], "now_system": now_view["system"],
        "before_accelerators": before_view["accelerators"], "now_accelerators": now_view["accelerators"],
        "before_division": before_view["division"], "now_division": now_view["division"],
    })
    return {"model": benchmark_model_of(fig), "previous_suite": marked(rounds.parse_round(prev_round).title),
            "before": before_view, "now": now_view, "speedup": formatting.ratio(speedup), "faster": speedup > 1,
            "note": note}


def results_table(figs: list[dict], facts: Facts, focus=None) -> list[dict]:
    """Every focus result (for an accelerator, each submitter's fastest per benchmark and division)
    and the baseline it is compared with, minutes to two decimals."""
    rows = []
    for fig in figs:
        compared = bool(fig.get("perf_per_dollar") or fig.get("equal_scale"))
        for division in DIVISIONS:
            results = focus_results(fig, division)
            if focus is not None and focus.kind == "accelerator":
                results = list({str(r.get("submitter")): r for r in reversed(results)}.values())
                results = sorted(results, key=minutes_of)
            for result in results:
                rows.append({"model": benchmark_model_of(fig), "baseline": False, **result_view(result, fig, facts)})
        baseline = fig.get("baseline")
        if compared and baseline and minutes_of(baseline) and any(focus_results(fig, d) for d in DIVISIONS):
            rows.append({"model": benchmark_model_of(fig), "baseline": True, **result_view(baseline, fig, facts)})
    return rows
