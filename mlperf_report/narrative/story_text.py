"""The story engine's claims as sentences, in every language, from the gettext catalogue.

``analysis.story`` finds and ranks the claims (summary.json's ``story``: raw numbers, result IDs);
this module only words them: each angle and kind has one catalogue message per language, numbers are
formatted here (minutes, values in their unit, ratios, gaps), never typed into a message. A suite
supplies how its benchmarks and scenarios are named.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mlperf_report.core.rounds import parse_round_id
from mlperf_report.i18n import formatting
from mlperf_report.i18n.labels import counted, label

#: A latency's table unit -> the unit after a number in a sentence.
_UNITS = {"Latency (ms)": "ms", "Latency (s)": "s", "Watts": "W", "millijoules": "mJ"}
#: At most this many names in a list; the rest are counted ("… and 4 more").
LIST_ITEMS = 6
_NOISE_TEXT = "2%"
_CATEGORIES = ("available", "preview", "research")


@dataclass(frozen=True)
class Names:
    """How a suite names things in sentences: ``benchmark(id, round_id, lang)``, ``scenario(name, lang)``."""

    benchmark: Callable[[str, str, str], str]
    scenario: Callable[[str, str], str]


def _joined(items: list[str], lang: str) -> str:
    if not items:
        return ""
    shown, more = items[:LIST_ITEMS], len(items) - LIST_ITEMS
    if lang.startswith("zh"):
        text = "、".join(shown)
    else:
        text = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + (" and " if more <= 0 else ", ") + shown[-1]
    return label("story.list_more", lang, items=text, more=more) if more > 0 else text


def value_text(row: dict, lang: str) -> str:
    """A result's primary value as a sentence writes it: ``20.8 minutes``, ``556,234 Samples/s``, ``0.212 ms``."""
    if row["unit"] == "minutes":
        return label("story.minutes", lang, value=formatting.minutes(row["value"]))
    places = formatting.places_for([row["value"]], 1 if row["higher_is_better"] else 3)
    return f"{formatting.fixed(row['value'], places, lang)} {_UNITS.get(row['unit'], row['unit'])}"


def energy_text(row: dict, lang: str) -> str:
    """An energy or power result: megajoules to train, watts, or millijoules per query."""
    if row["energy_unit"] == "J":
        return f"{formatting.fixed(row['energy'] / 1e6, formatting.places_for([row['energy'] / 1e6], 1), lang)} MJ"
    places = formatting.places_for([row["energy"]], 1)
    return f"{formatting.fixed(row['energy'], places, lang)} {_UNITS.get(row['energy_unit'], row['energy_unit'])}"


def ratio_text(value: float) -> str:
    """``1.55`` -> ``1.6×`` as the house writes ratios; under 1.1× two decimals (``1.08×``: one decimal
    would round a real 8 % gain to 1.1×); a whole multiple as ``6×``."""
    if abs(value - round(value)) < 1e-9 and value >= 2:
        return formatting.ratio(value, places=0)
    return formatting.ratio(value, places=2 if value < 1.1 else 1)


def gap_text(value: float) -> str:
    """A relative gap as a percentage: one decimal under 10 %."""
    return formatting.percent(abs(value), places=1 if abs(value) < 0.1 else 0)


#: From this gap on, a lead reads as a factor of the two results ("by a factor of 2.1"), not as a
#: percentage: "198,209 % ahead" is true and unreadable.
FACTOR_FROM = 1.0


def factor_text(gap: float) -> str:
    """A lead as the factor between the two results: 1.1 -> ``2.1``, 1982.09 -> ``1,983``."""
    value = 1 + abs(gap)
    return formatting.fixed(value, 1 if value < 10 else 0)


def lead(key: str, gap: float) -> tuple[str, dict]:
    """The message and its field for a lead of ``gap``: ``key`` with ``gap`` as a percentage, or, from
    :data:`FACTOR_FROM` on, ``key``'s ``_factor`` sentence with the factor."""
    if abs(gap) >= FACTOR_FROM:
        return f"{key}_factor", {"factor": factor_text(gap)}
    return key, {"gap": gap_text(gap)}


def accelerators_text(count: int | None, lang: str) -> str:
    """``1 accelerator``, ``3,072 accelerators`` (each language's plural form)."""
    return counted("story.with_accelerators", lang, int(count), n=formatting.count(count)) if count else ""


class _Writer:
    """Words for one story in one language."""

    def __init__(self, story: dict, lang: str, names: Names, round_id: str) -> None:
        self.lang, self.names, self.round_id = lang, names, round_id
        self.kind, self.name = story.get("focus_kind"), story.get("focus_name") or ""
        self.subject = label("story.systems_on", lang, name=self.name) if self.kind == "accelerator" else self.name

    def bench(self, row: dict) -> str:
        text = self.names.benchmark(row["benchmark"], row.get("round") or self.round_id, self.lang)
        if row.get("scenario"):
            text = label("story.benchmark_scenario", self.lang, benchmark=text,
                         scenario=self.names.scenario(row["scenario"], self.lang))
        return label("story.open_division", self.lang, benchmark=text) if row.get("division") == "open" else text

    def system(self, row: dict) -> str:
        """A system's name, with its availability when it is not available yet (MLCommons' category)."""
        availability = row.get("availability") or "available"
        if availability == "available":
            return row["system"]
        category = label(f"inference.availability.{availability}", self.lang) if availability in _CATEGORIES else availability
        return label("story.not_available", self.lang, system=row["system"], availability=category)

    def previous(self, row: dict) -> str:
        return parse_round_id(row["round"]).title if row.get("round") else ""

    def sentence(self, claim: dict) -> str:
        return getattr(self, f"_{claim['angle']}")(claim["kind"], claim["facts"])

    def _leadership(self, kind: str, f: dict) -> str:
        lang = self.lang
        if kind == "round_best":
            items = [label("story.leadership.round_item", lang, benchmark=self.bench(b), system=self.system(b),
                           submitter=b["submitter"], value=value_text(b, lang)) for b in f["bests"]]
            holder, count = f["holders"][0]
            return label("story.leadership.round_best", lang, items=_joined(items, lang),
                         holders=label("story.leadership.holders", lang, submitter=holder, count=count))
        items = [self._lead_item(kind, w) for w in f["leads"]]
        if kind == "first_at_count":  # "1 of the 1 benchmarks it entered" reads as a slip: say "the one"
            key = "story.leadership.at_count_only" if f["of"] == 1 else "story.leadership.at_count"
            return label(key, lang, accelerators=accelerators_text(f["accelerators"], lang),
                         subject=self.subject, count=len(f["leads"]), of=f["of"], items=_joined(items, lang))
        if len(f["leads"]) == 1:
            w = f["leads"][0]
            key, gap = lead("story.leadership.one", w["gap"])
            return label(key, lang, subject=self.subject, benchmark=self.bench(w["result"]),
                         system=self.system(w["result"]), value=value_text(w["result"], lang), **gap,
                         runner=self.system(w["runner"]), runner_submitter=w["runner"]["submitter"],
                         runner_value=value_text(w["runner"], lang))
        key = "story.leadership.many_open" if f.get("division") == "open" else "story.leadership.many"
        return label(key, lang, subject=self.subject, count=len(f["leads"]), of=f["of"], items=_joined(items, lang))

    def _lead_item(self, kind: str, w: dict) -> str:
        """One benchmark of a leadership list; with its lead when the lead is at one size."""
        key, gap = (lead("story.leadership.item", w["gap"]) if kind == "first_at_count"
                    else ("story.leadership.item_plain", {}))
        return label(key, self.lang, benchmark=self.bench(w["result"]), value=value_text(w["result"], self.lang), **gap)

    def _generation(self, kind: str, f: dict) -> str:
        best, lang = f["best"], self.lang
        newer = dict(best["result"], system=f["new"])  # the generation named, with its result's availability
        text = label(f"story.generation.{best['result']['measure']}", lang, new=self.system(newer), old=f["old"],
                     accelerators=accelerators_text(best["accelerators"], lang), benchmark=self.bench(best["result"]),
                     ratio=ratio_text(best["ratio"]), new_value=value_text(best["result"], lang),
                     old_value=value_text(best["predecessor"], lang))
        if f["others"]:
            text += counted("story.generation.others", lang, len(f["others"]), old=f["old"], n=len(f["others"]))
        return text

    def _competition(self, kind: str, f: dict) -> str:
        mine, rival = f["result"], f["rival"]
        gap = f["gap"] if f["gap"] >= 0 else 1 / (1 + f["gap"]) - 1  # "N % ahead" is always the leader's lead
        key, lead_field = lead(f"story.competition.{kind}", gap)  # on par: a gap under NOISE
        return label(key, self.lang, benchmark=self.bench(mine),
                     accelerators=accelerators_text(mine["accelerators"], self.lang), system=self.system(mine),
                     rival=self.system(rival), rival_submitter=rival["submitter"], **lead_field,
                     noise=_NOISE_TEXT, value=value_text(mine, self.lang), rival_value=value_text(rival, self.lang))

    def _ecosystem(self, kind: str, f: dict) -> str:
        lang = self.lang
        count = len(f["partners"])
        fields = {"partners": counted("story.count.partners", lang, count),
                  "submitters": counted("story.count.submitters", lang, count),
                  "results": counted("story.count.results", lang, f["results"]), "names": _joined(f["partners"], lang)}
        if self.kind == "accelerator":
            key = "story.ecosystem.on_accelerator" if f["own"] else "story.ecosystem.on_accelerator_alone"
            text = label(key, lang, own=f["own"] or "", name=self.name, **fields)
        else:
            text = label("story.ecosystem.partners", lang, vendor=f["own"] or self.subject, **fields)
        close = f.get("closest")
        if close:
            key = ("story.ecosystem.matched" if abs(1 - close["ratio"]) < 0.0005 else
                   "story.ecosystem.ahead" if close["ratio"] > 1 else "story.ecosystem.closest")
            text += label(key, lang, gap=gap_text(1 - close["ratio"]), own=f["own"], partner=close["partner"]["submitter"],
                          partner_system=self.system(close["partner"]), benchmark=self.bench(close["own"]),
                          accelerators=accelerators_text(close["own"]["accelerators"], lang),
                          partner_value=value_text(close["partner"], lang), own_value=value_text(close["own"], lang))
        return text

    def _scaling(self, kind: str, f: dict) -> str:
        small, large, lang = f["small"], f["large"], self.lang
        key = "story.scaling.time" if small["measure"] == "time" else "story.scaling.throughput"
        owner = small["submitter"] if self.kind != "submitter" else self.subject  # whose systems these are
        return label(key, lang, benchmark=self.bench(small), subject=owner,
                     accelerator=small["accelerator_model"], small=accelerators_text(small["accelerators"], lang),
                     large=accelerators_text(large["accelerators"], lang), small_value=value_text(small, lang),
                     large_value=value_text(large, lang), gain=ratio_text(f["gain"]), growth=ratio_text(f["growth"]),
                     efficiency=formatting.percent(f["efficiency"]))

    def _progress(self, kind: str, f: dict) -> str:
        lang = self.lang
        if kind in ("same_hardware", "best"):
            now, before = f["result"], f["before"]
            return label(f"story.progress.{kind}", lang, subject=self.subject or now["submitter"], benchmark=self.bench(now),
                         accelerators=formatting.count(now["accelerators"]) if now["accelerators"] else "",
                         accelerator=now["accelerator_model"], before_value=value_text(before, lang),
                         value=value_text(now, lang), previous=self.previous(before), ratio=ratio_text(f["ratio"]))
        previous = parse_round_id(f["previous"]).title
        if kind == "new_accelerators":
            return label("story.progress.new_accelerators", lang, previous=previous, items=_joined(f["accelerators"], lang))
        items = [self.names.benchmark(b, self.round_id, lang) for b in f["benchmarks"]]
        return label(f"story.progress.{kind}", lang, subject=self.subject, previous=previous, items=_joined(items, lang))

    def _price(self, kind: str, f: dict) -> str:
        mine, base, lang = f["system"], f["baseline"], self.lang
        return label(f"story.price.{kind}", lang, system=self.system(mine), baseline=self.system(base),
                     benchmark=self.bench(mine), ratio=ratio_text(f["ratio"]), value=value_text(mine, lang),
                     baseline_value=value_text(base, lang), price=money_text(f["price"], lang),
                     baseline_price=money_text(f["baseline_price"], lang))

    def _energy(self, kind: str, f: dict) -> str:
        items = [label("story.energy.item", self.lang, benchmark=self.bench(r), system=self.system(r),
                       value=energy_text(r, self.lang)) for r in f["results"]]
        return label("story.energy.measured", self.lang, count=len(items), items=_joined(items, self.lang))


def money_text(price: dict, lang: str) -> str:
    return formatting.money(price["amount"], price["currency"], lang)


def _source(price: dict, lang: str) -> str:
    return (price.get("source_by_lang") or {}).get(lang) or price.get("source") or ""


def note_text(claim: dict, lang: str, cited: Callable[[str], str]) -> str:
    """The footnote of a claim: the results it rests on, MLCommons' notice where it derives a figure,
    and every price with its source."""
    items = _joined([cited(c) for c in claim.get("cites", ())], lang)
    text = label("story.note" if claim.get("derived") else "story.note_plain", lang, items=items)
    if claim["angle"] == "price":
        f = claim["facts"]
        dated = lambda p: label("story.as_of", lang, date=formatting.date(p["date"], lang)) if p.get("date") else ""  # noqa: E731
        text += " " + label("story.note_price", lang, system=f["system"]["system"], baseline=f["baseline"]["system"],
                            price=money_text(f["price"], lang), source=_source(f["price"], lang), date=dated(f["price"]),
                            baseline_price=money_text(f["baseline_price"], lang),
                            baseline_source=_source(f["baseline_price"], lang), baseline_date=dated(f["baseline_price"]))
    return text


def render(story: dict | None, lang: str, names: Names, round_id: str) -> dict:
    """``{"headline": claim, "highlights": [claim], "body": [{"angle", "title", "claims"}]}`` with each
    claim's ``text`` added; empty when the figures hold no story."""
    if not story or not story.get("headline"):
        return {"headline": None, "highlights": [], "body": []}
    writer = _Writer(story, lang, names, round_id)
    worded = lambda c: {**c, "text": writer.sentence(c)}  # noqa: E731
    body: dict[str, list] = {}
    for claim in story.get("body", []):
        body.setdefault(claim["angle"], []).append(worded(claim))
    return {"headline": worded(story["headline"]), "highlights": [worded(c) for c in story.get("highlights", [])],
            "body": [{"angle": a, "title": label(f"story.angle.{a}", lang), "claims": cs} for a, cs in body.items()]}


def lead_claims(story: dict | None, lang: str, names: Names, round_id: str) -> list[dict]:
    """The story's headline and highlights worded for ``lang``, each with its footnote as
    ``note_text``, its chart (``analysis.claim_charts``, or None) and the chart's benchmark as the
    suite names it (``chart_title``): what the email, the slides, the brief and the cards lead with."""
    from mlperf_report.analysis import claim_charts
    from mlperf_report.core.config import Focus

    worded = render(story, lang, names, round_id)
    focus = Focus(kind=(story or {}).get("focus_kind") or "none", name=(story or {}).get("focus_name") or "")
    out = []
    for claim in ([worded["headline"]] if worded["headline"] else []) + worded["highlights"]:
        chart = claim_charts.claim_chart(claim, focus.matches)
        title = ""
        if chart is not None:
            parts = [names.benchmark(chart.benchmark, round_id, lang)] + ([names.scenario(chart.scenario, lang)]
                                                                           if chart.scenario else [])
            title = " · ".join(parts + [label(f"division.{chart.division}.title", lang)] if chart.division else parts)
        out.append({**claim, "note_text": note_text(claim, lang, str), "chart": chart, "chart_title": title})
    return out
