"""The claims a Training narrative makes of the round as a whole: the overview and its table, the
flagship benchmark, the benchmarks and systems named, the divisions, and performance per dollar against
the baseline (each price with its source; derived figures marked as not verified by MLCommons).
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from mlperf_report.i18n import formatting
from mlperf_report.core import languages
from mlperf_report.suites.training import catalogue as benchmark_catalogue
from mlperf_report.suites.training import rounds
from mlperf_report.suites.training.narrative_facts import (DIVISIONS, Facts, as_int, as_text, basis_of,
                                                          benchmark_model_of, benchmark_title_of, focus_results,
                                                          mark_text, marked, minutes_of, result_name, result_view)

LANGUAGES = languages.available()


#: CPUs in one host server, when the catalogue does not say otherwise. Basis: the host servers of the
#: systems this tool was first used on are dual-socket (IPU-POD16: one dual-CPU server; IPU-POD64:
#: servers of 2 × AMD EPYC each; DGX A100: 2 × AMD EPYC per node). The notes print this basis, and a
#: catalogue entry with ``cpus_per_server`` overrides it for its systems.
DEFAULT_CPUS_PER_SERVER = 2


def overview(figs: list[dict], summary: dict | None, facts: Facts, round_: rounds.Round) -> dict:
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
        if not minutes_of(fastest):
            continue
        entry = {"benchmark": fig["benchmark"], "model": benchmark_model_of(fig), "title": benchmark_title_of(fig),
                 "fastest": result_view(fastest, fig, facts),
                 "systems": None, "common": None}
        scales = [s for s in fig.get("scales") or [] if isinstance(s, Mapping)]
        entry["systems"] = formatting.count(sum(as_int(s.get("systems")) or 0 for s in scales)) if scales else None
        common = next((s for s in scales if s.get("common") and minutes_of(s.get("fastest"))), None)
        if common and (common["fastest"].get("system_id"), common["fastest"].get("submitter")) != (
                fastest.get("system_id"), fastest.get("submitter")) and (as_int(common.get("systems")) or 0) > 1:
            entry["common"] = {"count": formatting.count(as_int(common.get("accelerators")) or 0),
                               "systems": formatting.count(as_int(common.get("systems")) or 0),
                               "result": result_view(common["fastest"], fig, facts)}
        benchmarks.append(entry)
    previous = rounds.previous_round_id(round_.id)
    before = rounds.parse_round(previous).benchmarks if previous else ()
    return {
        "submitters": [{"name": n, "results": formatting.count(c)} for n, c in submitters],
        "submitter_count": formatting.count(len(submitters)),
        "result_count": formatting.count(sum(c for _, c in submitters)),
        "benchmarks": benchmarks,
        "previous_suite": marked(rounds.parse_round(previous).title) if previous else None,
        "new": [_catalogue_names(b, round_.id, facts.lang) for b in round_.benchmarks if before and b not in before],
        "retired": [_catalogue_names(b, previous, facts.lang) for b in before if b not in round_.benchmarks],
    }


def _catalogue_names(benchmark: str, round_id: str, lang: str) -> dict:
    """A benchmark's names in ``lang`` for a round (new or retired ones have no figures)."""
    return {"benchmark": benchmark, "model": rounds.benchmark_model(benchmark, round_id, lang),
            "title": rounds.benchmark_title(benchmark, round_id, lang)}


def overview_table(overview: dict | None) -> list[dict]:
    """The results the overview cites: fastest closed result per benchmark, and at the common scale."""
    rows = []
    for entry in (overview or {}).get("benchmarks") or []:
        rows.append({"model": entry["model"], "baseline": False, **entry["fastest"]})
        if entry["common"]:
            rows.append({"model": entry["model"], "baseline": False, **entry["common"]["result"]})
    return rows


def flagship(headlines: list[dict]) -> str | None:
    """The name of the largest system in the headlines (the one a press release leads with)."""
    if not headlines:
        return None
    top = max(headlines, key=lambda h: h["accelerators_n"])
    return top["result"]["system"]


def benchmarks_view(figs: list[dict], round_: rounds.Round, lang: str = "en") -> dict:
    submitted, others = [], []
    for fig in figs:
        divisions = [d for d in DIVISIONS if focus_results(fig, d)]
        entry = {"benchmark": fig["benchmark"], "model": benchmark_model_of(fig), "title": benchmark_title_of(fig),
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


def _cpus_per_server(result: Mapping, facts: Facts) -> tuple[int, str | None]:
    """CPUs per host server of a system: the catalogue's ``cpus_per_server``, else the default."""
    if facts.catalogue is not None and hasattr(facts.catalogue, "lookup"):
        entry = facts.catalogue.lookup(result.get("submitter", ""), result.get("system_id", ""), facts.round_id)
        value = as_int(getattr(entry, "cpus_per_server", None)) if entry is not None else None
        if value:
            return value, "catalogue"
    return DEFAULT_CPUS_PER_SERVER, None


def systems_view(figs: list[dict], facts: Facts) -> list[dict]:
    """What each focus system is made of, and how many host servers it used per benchmark."""
    systems: dict[str, dict] = {}
    for fig in figs:
        for result in focus_results(fig, "closed") + focus_results(fig, "open"):
            name = result_name(result)
            system = systems.setdefault(name, {
                "name": name, "accelerators_n": as_int(result.get("accelerators")) or 0,
                "accelerators": None, "accelerator_model": as_text(result.get("accelerator_model")),
                "configs": {}})
            if system["accelerators_n"] and not system["accelerators"]:
                system["accelerators"] = formatting.count(system["accelerators_n"])
            host_processors = as_int(result.get("host_processors"))
            if not host_processors:
                continue
            per_server, basis = _cpus_per_server(result, facts)
            servers = host_processors // per_server if host_processors % per_server == 0 else None
            note = facts.notes.cite(("servers", per_server, basis), {
                "kind": "servers", "cpus_per_server": formatting.count(per_server), "basis": basis}) if servers else None
            key = (host_processors, servers, as_text(result.get("host_processor_model")))
            config = system["configs"].setdefault(key, {
                "host_processors": formatting.count(host_processors), "host_processor_model": key[2],
                "servers": formatting.count(servers) if servers else None, "one_server": servers == 1,
                "note": note, "models": []})
            if benchmark_model_of(fig) not in config["models"]:
                config["models"].append(benchmark_model_of(fig))
    ordered = sorted(systems.values(), key=lambda s: (-s["accelerators_n"], s["name"]))
    return [{**s, "configs": list(s["configs"].values()), "varies": len(s["configs"]) > 1} for s in ordered]


def divisions_view(figs: list[dict], headlines: list[dict]) -> dict:
    """Which divisions the focus submitter entered, and the closed/open pairs worth explaining."""
    entered = [d for d in DIVISIONS if any(focus_results(f, d) for f in figs)]
    pairs = [h for h in headlines if h["closed"] and h["open"]]
    return {"entered": entered, "both": len(entered) == 2, "pairs": pairs,
            "open_faster": [h for h in pairs if h["lead"] == "open"]}


def _price(price: Any) -> dict | None:
    """A usable PRICE (amount, currency, source), else None: a claim is never made on half a price."""
    if not isinstance(price, Mapping):
        return None
    amount, currency, source = price.get("amount"), as_text(price.get("currency")), as_text(price.get("source"))
    try:
        number = float(amount)
    except (TypeError, ValueError):
        return None
    if isinstance(amount, bool) or not math.isfinite(number) or number <= 0 or not currency or not source:
        return None
    by_lang = price.get("source_by_lang") if isinstance(price.get("source_by_lang"), Mapping) else {}
    return {"amount": number, "currency": currency.upper(), "source": source, "date": as_text(str(price.get("date") or "")),
            "source_by_lang": {str(k): t for k, v in by_lang.items() if (t := as_text(v))}}


def perf_per_dollar(figs: list[dict], facts: Facts) -> list[dict]:
    """Perf/$ claims against the baseline: only with both results timed and both prices sourced."""
    claims = []
    for fig in figs:
        baseline = fig.get("baseline")
        for entry in fig.get("perf_per_dollar") or []:
            system = (entry or {}).get("system")
            price, base_price = _price((entry or {}).get("price")), _price((entry or {}).get("baseline_price"))
            if not (system and baseline and price and base_price and minutes_of(system) and minutes_of(baseline)):
                continue
            if price["currency"] != base_price["currency"]:
                continue
            if (system.get("submitter"), system.get("system_id")) == (baseline.get("submitter"), baseline.get("system_id")):
                continue
            if str(system.get("division") or "").lower() != str(baseline.get("division") or "").lower():
                continue   # closed against open is not like for like: no perf/$ claim across divisions
            computed = (minutes_of(baseline) * base_price["amount"]) / (minutes_of(system) * price["amount"])
            ratio = entry.get("ratio")
            ratio = float(ratio) if isinstance(ratio, (int, float)) and not isinstance(ratio, bool) and math.isfinite(ratio) else computed
            sys_view, base_view = result_view(system, fig, facts), result_view(baseline, fig, facts)
            division = sys_view["division"]
            formula = {
                "baseline_minutes": base_view["minutes_table"], "baseline_amount": formatting.count(round(base_price["amount"])),
                "system_minutes": sys_view["minutes_table"], "system_amount": formatting.count(round(price["amount"])),
                "ratio": formatting.fixed(ratio, 2),
            }
            claim = {
                "benchmark": fig["benchmark"], "model": benchmark_model_of(fig), "title": benchmark_title_of(fig),
                "division": division, "system": sys_view, "baseline": base_view, "basis": basis_of(fig),
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
    return {"text": formatting.money(price["amount"], price["currency"], lang), "source": mark_text(source),
            "date": formatting.date(price["date"], lang) if price["date"] else None}


def price_comparisons(claims: list[dict]) -> list[dict]:
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
