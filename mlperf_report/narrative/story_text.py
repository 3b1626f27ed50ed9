"""The story engine's claims as sentences, in every language, from the gettext catalogue.

``analysis.story`` finds and ranks the claims (summary.json's ``story``: raw numbers, result IDs);
this module only words them: each angle and kind has one catalogue message per language, numbers and
names come from ``story_words``, never typed into a message. A compared system is named by its maker
and chips, the focus's by its printed name; the results' folder names are in the footnotes. A suite
supplies how its benchmarks and scenarios are named.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mlperf_report.analysis import names
from mlperf_report.core.rounds import parse_round_id
from mlperf_report.i18n import formatting
from mlperf_report.i18n.labels import counted, label
from mlperf_report.narrative import chart_words, citations
from mlperf_report.narrative.story_words import (FACTOR_FROM, LIST_ITEMS, accelerators_text, after_owner,  # noqa: F401
                                                 chip_text, chips_of, energy_text, entered_text, factor_text, gap_text, joined, lead,
                                                 money_text, named_of_text, own_system_text, plain_ratio, ratio_text,
                                                 rival_text, value_text)

_joined = joined  # the name tests and older callers use
_NOISE_TEXT = "2%"
_CATEGORIES = ("available", "preview", "research")


@dataclass(frozen=True)
class Names:
    """How a suite names things in sentences: ``benchmark(id, round_id, lang)``, ``scenario(name, lang)``."""

    benchmark: Callable[[str, str, str], str]
    scenario: Callable[[str, str], str]


class _Writer:
    """Words for one story in one language."""

    def __init__(self, story: dict, lang: str, names_: Names, round_id: str) -> None:
        self.lang, self.names, self.round_id = lang, names_, round_id
        self.kind, self.name = story.get("focus_kind"), names.maker(story.get("focus_name") or "")
        self.subject = label("story.systems_on", lang, name=self.name) if self.kind == "accelerator" else self.name

    def bench(self, row: dict) -> str:
        text = self.names.benchmark(row["benchmark"], row.get("round") or self.round_id, self.lang)
        if row.get("scenario"):
            text = label("story.benchmark_scenario", self.lang, benchmark=text,
                         scenario=self.names.scenario(row["scenario"], self.lang))
        return label("story.open_division", self.lang, benchmark=text) if row.get("division") == "open" else text

    def availability(self, row: dict) -> str:
        """MLCommons' category of a result that is not available yet ("preview"), else nothing."""
        availability = row.get("availability") or "available"
        if availability == "available":
            return ""
        return label(f"inference.availability.{availability}", self.lang) if availability in _CATEGORIES else availability

    def system(self, row: dict) -> str:
        """The focus's own system, with its availability when it is not available yet."""
        return own_system_text(row, self.lang, self.availability(row))

    def rival(self, row: dict) -> str:
        return rival_text(row, self.lang)

    def chip(self, row: dict, *, availability: bool = True, owner: str = "") -> str:
        """A result's chip by name (its host processor for a CPU-only result), after ``owner``'s name
        without its vendor said twice, with its availability when it is not available yet."""
        chip = after_owner(chips_of(row)[0], owner)
        category = self.availability(row) if availability else ""
        return label("story.not_available", self.lang, system=chip, availability=category) if category else chip

    def in_round(self, row: dict) -> str:
        """A result's value, with its round when it is not this round's."""
        value = value_text(row, self.lang)
        if row.get("round") and row["round"] != self.round_id:
            return label("story.in_round", self.lang, value=value, round=parse_round_id(row["round"]).title)
        return value

    def previous(self, row: dict) -> str:
        return parse_round_id(row["round"]).title if row.get("round") else ""

    def sentence(self, claim: dict) -> str:
        return getattr(self, f"_{claim['angle']}")(claim["kind"], claim["facts"])

    def _leadership(self, kind: str, f: dict) -> str:
        lang = self.lang
        if kind == "round_best":
            items = [label("story.leadership.round_item", lang, benchmark=self.bench(b),
                           system=named_of_text(b, lang, self.availability(b)), value=value_text(b, lang))
                     for b in f["bests"]]
            holder, count = f["holders"][0]
            return label("story.leadership.round_best", lang, items=joined(items, lang),
                         holders=label("story.leadership.holders", lang, submitter=names.maker(holder), count=count))
        items = [self._lead_item(kind, w) for w in f["leads"]]
        pairs = bool(f["leads"][0]["result"].get("scenario"))
        entered = entered_text(f["of"], pairs, lang)
        if kind == "first_at_count":  # "1 of the 1 benchmarks it entered" reads as a slip: say "the one"
            key = ("story.leadership.at_count_only" if f["of"] == 1 else
                   "story.leadership.at_count_all" if len(f["leads"]) == f["of"] else "story.leadership.at_count")
            return label(key, lang, accelerators=accelerators_text(f["accelerators"], lang), subject=self.subject,
                         count=len(f["leads"]), entered=entered, items=joined(items, lang),
                         test=label("story.test.pair" if pairs else "story.test.benchmark", lang))
        if len(f["leads"]) == 1:
            w = f["leads"][0]
            key, gap = lead("story.leadership.one", w["gap"])
            return label(key, lang, subject=self.subject, benchmark=self.bench(w["result"]),
                         system=self.system(w["result"]), value=value_text(w["result"], lang), **gap,
                         runner=self.rival(w["runner"]), runner_value=value_text(w["runner"], lang))
        key = "story.leadership.many_open" if f.get("division") == "open" else "story.leadership.many"
        key += "_all" if len(f["leads"]) == f["of"] else ""
        return label(key, lang, subject=self.subject, count=len(f["leads"]), entered=entered, items=joined(items, lang))

    def _lead_item(self, kind: str, w: dict) -> str:
        """One benchmark of a leadership list: with its lead when the lead is at one size, else with
        the size of the leading system ("Llama 3.1 405B (10.0 minutes on 5,120 accelerators)")."""
        row = w["result"]
        if kind == "first_at_count":
            key, gap = lead("story.leadership.item", w["gap"])
            return label(key, self.lang, benchmark=self.bench(row), value=value_text(row, self.lang), **gap)
        chip, count, unit = chips_of(row)
        key = "story.leadership.item_sized" if count else "story.leadership.item_plain"
        return label(key, self.lang, benchmark=self.bench(row), value=value_text(row, self.lang),
                     accelerators=accelerators_text(count, self.lang, unit))

    def _generation(self, kind: str, f: dict) -> str:
        if kind == "debut":
            return self._debut(f)
        best, lang = f["best"], self.lang
        mine, old = best["result"], best["predecessor"]
        by = best.get("by") or "own"
        key = f"story.generation.{mine['measure']}" + ("_partner" if by == "partner" else "")
        owner = names.maker(mine["submitter"])
        text = label(key, lang, owner=owner, new=self.chip(mine, owner=owner),
                     old=self.chip(old, availability=False, owner=owner), partner=names.maker(old["submitter"]),
                     accelerators=accelerators_text(best["accelerators"], lang, best.get("unit") or "accelerator"),
                     benchmark=self.bench(mine), ratio=ratio_text(best["ratio"]), new_value=value_text(mine, lang),
                     old_value=self.in_round(old))
        if f["others"]:
            key = "story.count.more_pairs" if mine.get("scenario") else "story.count.more_benchmarks"
            text += label("story.generation.others", lang, old=self.chip(old, availability=False, owner=owner),
                          more=counted(key, lang, len(f["others"])))
        return text

    def _debut(self, f: dict) -> str:
        lang, largest = self.lang, f["largest"]
        chips = joined(sorted({chip_text(m) for m in f["chips"]}), lang)
        category = self.availability({"availability": f.get("availability") or "available"})
        chips = label("story.not_available", lang, system=chips, availability=category) if category else chips
        items = [self.names.benchmark(b, f["round"], lang) for b in f["benchmarks"]]
        where = label("story.in_open_division", lang) if f["divisions"] == ["open"] else ""
        subject = self.subject if self.kind == "submitter" else joined([names.maker(s) for s in f["submitters"]], lang)
        return counted("story.generation.debut", lang, len({chip_text(m) for m in f["chips"]}), chips=chips,
                       suite=parse_round_id(f["round"]).suite.capitalize(), subject=subject,
                       results=counted("story.count.results", lang, f["results"]), benchmarks=joined(items, lang),
                       division=where, largest_benchmark=self.bench(largest), value=value_text(largest, lang),
                       scale=label("story.scale.only" if f.get("one_size") else "story.scale.up_to", lang,
                                   largest=accelerators_text(f["largest_chips"], lang, f.get("unit") or "accelerator")))

    def _competition(self, kind: str, f: dict) -> str:
        mine, rival = f["result"], f["rival"]
        gap = f["gap"] if f["gap"] >= 0 else 1 / (1 + f["gap"]) - 1  # "N % ahead" is always the leader's lead
        key, lead_field = lead(f"story.competition.{kind}", gap)  # on par: a gap under NOISE
        return label(key, self.lang, benchmark=self.bench(mine),
                     accelerators=accelerators_text(mine["accelerators"], self.lang), system=self.system(mine),
                     rival=self.rival(rival), **lead_field, noise=_NOISE_TEXT, value=value_text(mine, self.lang),
                     rival_value=value_text(rival, self.lang))

    def _ecosystem(self, kind: str, f: dict) -> str:
        lang = self.lang
        if kind == "host_share":
            key = "story.ecosystem.host_share_most" if f["most"] else "story.ecosystem.host_share"
            return label(key, lang, vendor=" ".join(filter(None, (names.maker(f["vendor"]), f.get("brand")))), systems=formatting.count(f["systems"]),
                         of=formatting.count(f["of"]), share=formatting.percent(f["share"]),
                         submitters=counted("story.count.submitters", lang, f["submitters"]))
        count = len(f["partners"])
        fields = {"partners": counted("story.count.partners", lang, count),
                  "submitters": counted("story.count.submitters", lang, count),
                  "results": counted("story.count.results", lang, f["results"]),
                  "names": joined([names.maker(p) for p in f["partners"]], lang)}
        own = names.maker(f["own"] or "")
        if self.kind == "accelerator":
            key = "story.ecosystem.on_accelerator" if f["own"] else "story.ecosystem.on_accelerator_alone"
            text = label(key, lang, own=own, name=self.name, **fields)
        else:
            text = label("story.ecosystem.partners", lang, vendor=own or self.subject,
                         kind=label(f"story.kind.{f.get('kind') or 'accelerator'}", lang), **fields)
        close = f.get("closest")
        if close:
            key = ("story.ecosystem.matched" if abs(1 - close["ratio"]) < 0.0005 else
                   "story.ecosystem.ahead" if close["ratio"] > 1 else "story.ecosystem.closest")
            text += label(key, lang, gap=gap_text(1 - close["ratio"]), own=own, partner_system=self.rival(close["partner"]),
                          benchmark=self.bench(close["own"]),
                          accelerators=accelerators_text(chips_of(close["own"])[1], lang, chips_of(close["own"])[2]),
                          partner_value=value_text(close["partner"], lang), own_value=value_text(close["own"], lang))
        return text

    def _scaling(self, kind: str, f: dict) -> str:
        small, large, lang = f["small"], f["large"], self.lang
        key = "story.scaling.time" if small["measure"] == "time" else "story.scaling.throughput"
        owner = names.maker(small["submitter"]) if self.kind != "submitter" else self.subject  # whose systems these are
        return label(key, lang, benchmark=self.bench(small), subject=owner,
                     accelerator=after_owner(chip_text(small["accelerator_model"]), owner),
                     small=accelerators_text(small["accelerators"], lang),
                     large=accelerators_text(large["accelerators"], lang), small_value=value_text(small, lang),
                     large_value=value_text(large, lang), gain=ratio_text(f["gain"]), growth=ratio_text(f["growth"]),
                     efficiency=formatting.percent(f["efficiency"]), gain_number=plain_ratio(f["gain"]),
                     growth_number=plain_ratio(f["growth"]))

    def _progress(self, kind: str, f: dict) -> str:
        lang = self.lang
        if kind in ("same_hardware", "best"):
            now, before = f["result"], f["before"]
            return label(f"story.progress.{kind}", lang, subject=self.subject or names.maker(now["submitter"]),
                         benchmark=self.bench(now), accelerators=formatting.count(now["accelerators"]) if now["accelerators"] else "",
                         accelerator=chip_text(now["accelerator_model"]), before_value=value_text(before, lang),
                         value=value_text(now, lang), previous=self.previous(before), ratio=ratio_text(f["ratio"]))
        previous = parse_round_id(f["previous"]).title
        if kind == "new_accelerators":
            return label("story.progress.new_accelerators", lang, previous=previous,
                         items=joined(sorted({chip_text(m) for m in f["accelerators"]}), lang))
        items = [self.names.benchmark(b, self.round_id, lang) for b in f["benchmarks"]]
        return label(f"story.progress.{kind}", lang, subject=self.subject, previous=previous, items=joined(items, lang))

    def _price(self, kind: str, f: dict) -> str:
        mine, base, lang = f["system"], f["baseline"], self.lang
        return label(f"story.price.{kind}", lang, system=self.system(mine),
                     baseline=label("story.the_system", lang, name=base["system"]),
                     benchmark=self.bench(mine), ratio=ratio_text(f["ratio"]), value=value_text(mine, lang),
                     baseline_value=value_text(base, lang), price=money_text(f["price"], lang),
                     baseline_price=money_text(f["baseline_price"], lang))

    def _energy(self, kind: str, f: dict) -> str:
        items = [label("story.energy.item", self.lang, benchmark=self.bench(r), system=self.system(r),
                       value=energy_text(r, self.lang)) for r in f["results"]]
        return label("story.energy.measured", self.lang, count=len(items), items=joined(items, self.lang))


def _source(price: dict, lang: str) -> str:
    return (price.get("source_by_lang") or {}).get(lang) or price.get("source") or ""


def _extra_note(claim: dict, lang: str, efficiency: float | None) -> str:
    """What a claim's footnote adds to its citations: each price with its source, a debut's source,
    how a scaling efficiency is computed and from which efficiency one may lead."""
    f = claim["facts"]
    if claim["angle"] == "price":
        dated = lambda p: label("story.as_of", lang, date=formatting.date(p["date"], lang)) if p.get("date") else ""  # noqa: E731
        return " " + label("story.note_price", lang, system=f["system"]["system"], baseline=f["baseline"]["system"],
                           price=money_text(f["price"], lang), source=_source(f["price"], lang), date=dated(f["price"]),
                           baseline_price=money_text(f["baseline_price"], lang),
                           baseline_source=_source(f["baseline_price"], lang), baseline_date=dated(f["baseline_price"]))
    if claim["kind"] == "debut":
        return " " + label("story.note_debut", lang, source=f["source"])
    if claim["angle"] == "scaling":
        threshold = formatting.percent(efficiency if efficiency is not None else 0.7)
        return " " + label("story.note_scaling", lang, threshold=threshold)
    return ""


def cited_items(claim: dict, lang: str, cited: Callable[[str], str] = str, names: Names | None = None) -> list[str]:
    """The results a claim rests on as its footnote lists them: by MLCommons result ID where
    ``cite_ids`` has one (``citations.items``), else as ``cited`` names the result (its path)."""
    return citations.items(claim.get("cites", ()), claim.get("cite_ids"), lang, path=cited,
                           bench=names.benchmark if names else None, scenario=names.scenario if names else None)


def note_text(claim: dict, lang: str, cited: Callable[[str], str], *, scaling_efficiency: float | None = None,
              names: Names | None = None, retrieval: tuple[str, str | None] | None = None) -> str:
    """The footnote of a claim: the results it rests on (by MLCommons result ID where known, then
    where and when they were retrieved: ``retrieval`` is (source, date)), MLCommons' notice where it
    derives a figure, and what it needs besides (each price's source, a debut's source, how
    efficiency is computed)."""
    with_ids = citations.has_ids(claim.get("cites", ()), claim.get("cite_ids"))
    found = cited_items(claim, lang, cited, names)
    items = citations.listed(found, lang) if with_ids else joined(found, lang)
    text = label("story.note" if claim.get("derived") else "story.note_plain", lang, items=items)
    if retrieval and with_ids:
        text += ("" if lang.startswith("zh") else " ") + citations.retrieved_sentence(retrieval[0], retrieval[1], lang)
    return text + _extra_note(claim, lang, scaling_efficiency if scaling_efficiency is not None
                              else claim.get("scaling_efficiency"))


def render(story: dict | None, lang: str, names_: Names, round_id: str) -> dict:
    """``{"headline": claim, "highlights": [claim], "body": [{"angle", "title", "claims"}]}`` with each
    claim's ``text`` added; empty when the figures hold no story."""
    if not story or not story.get("headline"):
        return {"headline": None, "highlights": [], "body": []}
    writer = _Writer(story, lang, names_, round_id)
    efficiency = story.get("scaling_efficiency")
    worded = lambda c: {**c, "text": writer.sentence(c), "scaling_efficiency": efficiency}  # noqa: E731
    body: dict[str, list] = {}
    for claim in story.get("body", []):
        body.setdefault(claim["angle"], []).append(worded(claim))
    return {"headline": worded(story["headline"]), "highlights": [worded(c) for c in story.get("highlights", [])],
            "body": [{"angle": a, "title": label(f"story.angle.{a}", lang), "claims": cs} for a, cs in body.items()]}


def lead_claims(story: dict | None, lang: str, names: Names, round_id: str, *,
                retrieval: tuple[str, str | None] | None = None) -> list[dict]:
    """The story's headline and highlights worded for ``lang``, each with its footnote as
    ``note_text``, its cited results as a footer lists them (``citations``: by MLCommons result ID
    where known), its chart (``analysis.claim_charts``, or None) and the chart's benchmark as the
    suite names it (``chart_title``): what the email, the slides, the brief and the cards lead with."""
    from mlperf_report.analysis import bar_labels, claim_charts
    from mlperf_report.core.config import Focus

    worded = render(story, lang, names, round_id)
    focus = Focus(kind=(story or {}).get("focus_kind") or "none", name=(story or {}).get("focus_name") or "")
    bench, scenario = _Writer(story or {}, lang, names, round_id).bench, lambda s: names.scenario(s, lang)
    out = []
    for claim in ([worded["headline"]] if worded["headline"] else []) + worded["highlights"]:
        chart = chart_words.worded(bar_labels.labelled(claim_charts.claim_chart(claim, focus.matches), lang,
                                                       own_unnamed=focus.kind == "submitter"), claim, bench, scenario, lang)
        noted = note_text(claim, lang, str, names=names, retrieval=retrieval) if claim.get("cites") else ""
        out.append({**claim, "note_text": noted, "citations": cited_items(claim, lang, str, names), "chart": chart,
                    "chart_title": _chart_title(chart, names, round_id, lang)})
    return out


def _chart_title(chart, names: Names, round_id: str, lang: str) -> str:
    """What a claim chart shows: its benchmark as the suite names it, scenario and division; a host
    share: the round's systems by host processor; a partners count: results by partner; a debut:
    its best result on each benchmark."""
    if chart is None:
        return ""
    if chart.measure == "systems":
        return label("kit.share_title", lang)
    if chart.measure == "results":
        return label("kit.partners_title", lang)
    if chart.measure == "debut":
        return chart_words.debut_title(chart, lang)
    parts = [names.benchmark(chart.benchmark, round_id, lang)] + ([names.scenario(chart.scenario, lang)]
                                                                   if chart.scenario else [])
    return " · ".join(parts + [label(f"division.{chart.division}.title", lang)] if chart.division else parts)
