"""The narrative of an Inference round, en and zh-Hant, from the benchmark notebooks' figures.

Claims follow MLCommons' messaging rules for Inference: each names the round, division and category
and the benchmark (as MLCommons' table files it, whatever the folder spelling) and scenario;
comparisons are like for like (same benchmark, scenario, division and accelerator count); derived
per-accelerator figures are marked as not verified by MLCommons Association; each claim's note cites
its results by MLCommons result ID where the tables carry one (``summary_results.json``), else by path.
"""

from __future__ import annotations

import html
from typing import Any, Mapping

from mlperf_report.core.rounds import parse_round_id
from mlperf_report.i18n import formatting
from mlperf_report.i18n.labels import counted, label
from mlperf_report.narrative import citations, story_text
from mlperf_report.narrative.rendering import Rendered
from mlperf_report.suites.inference import models


#: A latency's table unit -> the unit after a number in a sentence ("20.603 s", not "20.603 Latency (s)").
_LATENCY_UNITS = {"Latency (ms)": "ms", "Latency (s)": "s"}


def _value(value: float, higher_is_better: bool, lang: str) -> str:
    return formatting.measured(value, 1 if higher_is_better else 3, lang)


def _scenario_line(fig: dict, s: dict, lang: str) -> str:
    model = fig["title"].get(lang) or fig.get("benchmark") or fig["model"]
    common = {"model": model, "scenario": label(f"inference.scenario.{s['scenario']}", lang),
              "division": label(f"division.{fig['division']}.in_text", lang),
              "unit": _LATENCY_UNITS.get(s["unit"], s["unit"])}
    mine = s.get("focus")
    if mine:
        system = mine["system_name"] or mine["system_id"]
        standing = {**common, "system": system, "value": _value(mine["result"], s["higher_is_better"], lang),
                    "rank": mine["rank"], "results": counted("inference.count.results", lang, s["results"])}
        if "like_rank" not in mine:
            return label("inference.narr.scenario_unsized", lang, **standing)
        return label("inference.narr.scenario", lang, **standing, like_rank=mine["like_rank"],
                     peers=counted("inference.count.systems", lang, mine["like_count"]),
                     accelerators=counted("inference.count.accelerators", lang, mine["accelerators"]))
    best = s["best"]
    return label("inference.narr.best", lang, **common, value=_value(best["result"], s["higher_is_better"], lang),
                 system=best["system_name"] or best["system_id"], submitter=best["submitter"])


def claims(figures: Mapping[str, dict], focus: str | None, lang: str) -> list[str]:
    """One sentence per benchmark and scenario: the focus's standing, or (no focus) the best result.
    Figures made for another focus (left by an earlier build) are not this report's."""
    lines = []
    for benchmark in sorted(figures):
        fig = figures[benchmark]
        if focus and (fig.get("focus") or "").lower() not in ("", focus.lower()):
            continue
        for s in fig.get("scenarios", []):
            if not focus or s.get("focus"):
                lines.append(_scenario_line(fig, s, lang))
    return lines


def _categories(figures: Mapping[str, dict], lang: str) -> str:
    found = sorted({c for fig in figures.values() for s in fig.get("scenarios", [])
                    for entry in (s.get("focus") or s["best"],) for c in str(entry["category"]).split(",") if c})
    return ", ".join(label(f"inference.category.{c}", lang) for c in found)


def _facts(summary: dict, lang: str) -> dict:
    """The focus's counts and categories as the headline and the counts sentence print them: benchmarks
    and benchmark-scenario pairs, never one word for both."""
    return {"results": counted("inference.count.valid_results", lang, summary["focus_results"]),
            "models": counted("inference.count.benchmarks", lang, len(summary["focus_benchmarks"])),
            "pairs": counted("story.count.pairs", lang, summary.get("focus_pairs", len(summary["focus_benchmarks"]))),
            "divisions": ", ".join(label(f"division.{d}.in_text", lang) for d in summary["focus_divisions"]),
            "categories": ", ".join(label(f"inference.category.{c}", lang) for c in summary["focus_categories"]),
            "availability": ", ".join(label(f"inference.availability.{a}", lang)
                                      for a in summary["focus_availability"] if a)}


def _headline(summary: dict | None, focus: str | None, round_title: str, lang: str,
              accelerator: bool = False) -> tuple[str, str, str]:
    """The counts heading and its intro (a report with no story leads with them), and the counts
    sentence that follows a story's highlights (the story's headline leads instead)."""
    if not summary:
        return "", "", ""
    if not focus:
        return label("inference.narr.headline_nofocus", lang, round_title=round_title,
                     results=counted("inference.count.valid_results", lang, summary["results"]),
                     submitters=counted("inference.count.submitters", lang, summary["submitters"])), "", ""
    if not summary["focus_results"]:
        return label("inference.narr.absent", lang, focus=focus, round_title=round_title), "", ""
    facts = _facts(summary, lang)
    intro_key = "inference.narr.intro_accelerator" if accelerator else "inference.narr.intro"
    counts_key = "inference.narr.counts_accelerator" if accelerator else "inference.narr.counts"
    return (label("inference.narr.headline", lang, focus=focus, round_title=round_title, **facts),
            label(intro_key, lang, focus=focus, **facts),
            label(counts_key, lang, focus=focus, round_title=round_title, **facts))


def _citation(figures: Mapping[str, dict], round_id: str, lang: str, summary: dict | None = None) -> str:
    """The round's note: suite, divisions, categories, and whether the results are cited by their
    MLCommons result IDs (every result the story cites has one) or by path (this copy has none)."""
    divisions = sorted({fig["division"] for fig in figures.values()})
    claims = citations.story_claims((summary or {}).get("story"))
    with_id = any(citations.has_ids(c.get("cites") or (), c.get("cite_ids")) for c in claims)
    key = ("inference.narr.ids_absent" if not with_id else "inference.narr.ids_partial"
           if citations.missing(claims, round_id) else "inference.narr.ids_cited")
    ids = label(key, lang)
    return label("inference.narr.citation", lang, version=parse_round_id(round_id).version,
                 division=", ".join(label(f"division.{d}.in_text", lang) for d in divisions),
                 categories=_categories(figures, lang), ids=ids)


def citation_notices(summary: dict | None, round_id: str) -> list[str]:
    """What `report` prints once when the story cites a result of the round without its MLCommons ID."""
    if not citations.missing(citations.story_claims((summary or {}).get("story")), round_id):
        return []
    return [f"citations: {round_id} has no MLCommons result ID for some cited results, which are cited by their "
            "results path; to cite the IDs, re-ingest a results tree that holds summary_results.json at its root "
            "(`python build.py ingest <source>`)"]


#: How the story names an Inference benchmark and scenario.
NAMES = story_text.Names(lambda model, round_id, lang: models.title(model, lang),
                          lambda scenario, lang: label(f"inference.scenario.{scenario}", lang))


def _story(summary: dict | None, round_id: str, lang: str) -> tuple[dict, list[dict]]:
    """summary.json's story worded for ``lang``, and its claims in reading order, numbered 1, 2, …"""
    worded = story_text.render((summary or {}).get("story"), lang, NAMES, round_id)
    ordered = ([worded["headline"]] if worded["headline"] else []) + worded["highlights"] + [
        c for group in worded["body"] for c in group["claims"]]
    for number, claim in enumerate(ordered, start=1):
        claim["note"] = number
    return worded, ordered


def _story_html(worded: dict, lang: str, counts: str = "") -> list[str]:
    """The headline paragraph (the story's strongest claim leads, as in Training), the highlights, the
    focus's counts, and "More from the results", each claim with its marker."""
    e = html.escape

    def item(claim: dict) -> str:
        return (f'{e(claim["text"])}<sup class="mlperf-fn"><a href="#mlperf-{lang}-note-{claim["note"]}">'
                f'{claim["note"]}</a></sup>')
    out = [f'<p class="mlperf-lead mlperf-story-headline"><strong>{item(worded["headline"])}</strong></p>',
           "<ul>" + "".join(f"<li>{item(c)}</li>" for c in worded["highlights"]) + "</ul>"]
    if counts:
        out.append(f"<p>{e(counts)}</p>")
    if worded["body"]:
        out.append(f"<h2>{e(label('story.heading.more', lang))}</h2>")
        for group in worded["body"]:
            out += [f"<h3>{e(group['title'])}</h3>", '<ul class="print-capped">'
                    + "".join(f"<li>{item(c)}</li>" for c in group["claims"]) + "</ul>"]  # assemble.print_lists
    return out


def retrieval(config: Any, round_id: str) -> tuple[str, str | None]:
    """Where and when the round's results were retrieved (report.yaml's ``source`` when it is this round's)."""
    return citations.source_of(getattr(config, "source", None), round_id)


def _note(claim: dict, lang: str, config: Any) -> str:
    """A claim's footnote: its results by MLCommons result ID where the tables carry one, else by path."""
    return story_text.note_text(claim, lang, str, names=NAMES, retrieval=retrieval(config, config.round))


def _story_notes(ordered: list[dict], lang: str, config: Any) -> list[str]:
    e = html.escape
    return [f'<p class="mlperf-note" id="mlperf-{lang}-note-{c["note"]}"><span class="mlperf-note-number">{c["note"]}'
            f'</span> {e(_note(c, lang, config))}</p>' for c in ordered]


def _focus(config: Any) -> str | None:
    """What the text calls the focus: the submitter, or the accelerator whose systems it follows; None
    for ``--focus none``."""
    focus = config.focus
    return focus.name if focus.kind != "none" else None


def render(figures: Mapping[str, dict], summary: dict | None, config: Any, lang: str, fmt: str = "html",
           *, catalogue: Any = None) -> Rendered:
    """Narrative and notes of one language as HTML fragments: the story's headline and claims where
    summary.json has one, else one line per model and scenario."""
    focus = _focus(config)
    round_id = config.round
    title, intro, counts = _headline(summary, focus, parse_round_id(round_id).title, lang,
                                     accelerator=config.focus.kind == "accelerator")
    e = html.escape
    worded, ordered = _story(summary, round_id, lang)
    lines = claims(figures, focus, lang) or claims(figures, None, lang)
    if worded["headline"]:
        body = [*_story_html(worded, lang, counts or intro or title), f"<p>{e(label('inference.narr.comparison', lang))}</p>"]
    else:
        body = [f"<h2>{e(title)}</h2>" if title else "", f"<p>{e(intro)}</p>" if intro else "",
                "<ul>" + "".join(f"<li>{e(line)}</li>" for line in lines) + "</ul>",
                f"<p>{e(label('inference.narr.comparison', lang))}</p>"]
    notes = [*_story_notes(ordered, lang, config), f"<p>{e(_citation(figures, round_id, lang, summary))}</p>",
             f"<p>{e(label('inference.narr.notes', lang, round=round_id))}</p>"]
    relabelled = sorted(name for name, fig in figures.items() if fig.get("official_units"))
    if relabelled:
        units = sorted({u for model in relabelled for u in figures[model]["official_units"]})
        notes.append("<p>" + e(label("inference.narr.units_relabelled", lang, units=", ".join(units),
                                     models=", ".join(figures[m]["title"].get(lang) or m for m in relabelled)))
                     + "</p>")
    return Rendered("\n".join(part for part in body if part), "\n".join(notes))


def _lead(summary: dict | None, config: Any, lang: str) -> list[dict]:
    """The story's headline and highlights (what the email carries), numbered from 1."""
    worded, _ = _story(summary, config.round, lang)
    lead = ([worded["headline"]] if worded["headline"] else []) + worded["highlights"]
    for number, claim in enumerate(lead, start=1):
        claim["note"] = number
    return lead


def headline_summary(figures: Mapping[str, dict], config: Any, lang: str, *, catalogue: Any = None,
                     summary: dict | None = None) -> list[str]:
    """The email's lead: the story's headline and highlights, each with its note marker; without a
    story, the claims with a ``[1]`` marker into the citation note."""
    lead = _lead(summary, config, lang)
    if lead:
        return [f"{c['text']} [{c['note']}]" for c in lead]
    return [f"{line} [1]" for line in claims(figures, _focus(config), lang)[:6]]


def headline_notes(figures: Mapping[str, dict], config: Any, lang: str, *, catalogue: Any = None,
                   summary: dict | None = None) -> list[str]:
    lead = _lead(summary, config, lang)
    if lead:
        return [f"[{c['note']}] {_note(c, lang, config)}" for c in lead] + [
            _citation(figures, config.round, lang, summary)]
    return [f"[1] {_citation(figures, config.round, lang, summary)}"]
