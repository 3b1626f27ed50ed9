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
from typing import Any, Mapping

from mlperf_report.i18n import catalogue, formatting
from mlperf_report.core import languages
from mlperf_report.suites.training import catalogue as benchmark_catalogue
from mlperf_report.core.config import focus_from_key, focus_of
from mlperf_report.suites.training import rounds
from mlperf_report.analysis.story import each_claim
from mlperf_report.narrative import citations, story_text
from mlperf_report.suites.training.narrative_facts import (Facts, Notes, bases, equal_scale, focus_results, headline,
                                                          marked, official_times, power_claims, previous_claim, results_table)
from mlperf_report.suites.training.narrative_round import (benchmarks_view, divisions_view, flagship, overview,
                                                          overview_table, perf_per_dollar, price_comparisons,
                                                          systems_view)
from mlperf_report.narrative.rendering import (FORMATS, MARK, TRADEMARK_LEGEND, Rendered, check_choice,
                                               in_reading_order, lines, render_template)
from mlperf_report.core.errors import InputError, UserError

LANGUAGES = languages.available()
DIVISIONS = ("closed", "open")


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
    url, retrieved = citations.source_of(source, round_id)
    facts = Facts(lang=lang, round_id=round_id, catalogue=catalogue, notes=Notes(), url=url,
                   retrieved=formatting.date(retrieved, lang) if retrieved else None,
                   verified=source.get("verified"), result_ids=_result_ids(cfg))
    round_ = rounds.parse_round(round_id)
    headlines = [h for h in (headline(f, facts, focus) for f in figs) if h]
    context = {
        "lang": lang, "mark": MARK, "submitter": _subject(focus, figs, lang), "focus": _focus_view(focus, figs),
        "suite": marked(round_.title), "round_title": round_.title, "round_id": round_id,
        "unverified": facts.verified is False, "note_prefix": f"mlperf-{lang}-note-",
        "headlines": headlines, "flagship": flagship(headlines),
    }
    if scope == "full":
        context["overview"] = overview(figs, summary, facts, round_) if focus.kind == "none" else None
        context["benchmarks"] = benchmarks_view(figs, round_, lang)
        context["systems"] = systems_view(figs, facts) if focus.kind == "submitter" else []
        context["divisions"] = divisions_view(figs, headlines)
        context["power"] = power_claims(figs, facts)
    perf = perf_per_dollar(figs, facts)
    context["perf_per_dollar"] = perf
    context["price_comparisons"] = price_comparisons(perf)
    context["equal_scale"] = equal_scale(figs, facts, {c["benchmark"] for c in perf})
    context["bases"] = bases(perf, context["equal_scale"])
    if scope == "full":
        context["previous"] = [p for p in (previous_claim(f, facts) for f in figs) if p]
        context["table"] = overview_table(context["overview"]) if focus.kind == "none" else results_table(figs, facts, focus)
    story = story_ids((summary or {}).get("story"), cfg, round_id)
    context["story"] = _story(story, facts, lang, with_body=scope == "full",
                              retrieval=(url, retrieved))
    context["notes"] = facts.notes.items
    context["official_times"] = official_times(figs, facts)
    context["legend"] = TRADEMARK_LEGEND
    context["source_url"] = facts.url
    context["retrieved"] = facts.retrieved
    return context


def _story(story: dict | None, facts: "Facts", lang: str, *, with_body: bool = True,
           retrieval: tuple[str, str | None] | None = None) -> dict:
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
                                         {"kind": "story", "text": story_text.note_text(claim, lang, str, names=names,
                                                                                         retrieval=retrieval)}
                                         ) if claim["cites"] else None
    return worded


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
        focus = focus_from_key(made_for[0])
    else:
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
    focus = focus_from_key(made_for[0])
    return (focus.name, "") if focus.kind == "submitter" else ("none", focus.name)


def _focus_submitters(figs: list[dict]) -> list[str]:
    """Submitters of the focus results, most results first (an accelerator's partners)."""
    counts: dict[str, int] = {}
    for fig in figs:
        for division in DIVISIONS:
            for result in focus_results(fig, division):
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


def story_ids(story: dict | None, config: Any, round_id: str) -> dict | None:
    """summary.json's story with the IDs of ``source.result_ids`` added where a claim cites a result
    of the report's round that the tables gave none (the ingested ID comes first)."""
    configured = _result_ids(_config_dict(config))
    if not story or not configured:
        return story

    def filled(claim: dict) -> dict:
        ids = dict(claim.get("cite_ids") or {})
        for cite in claim.get("cites", ()):
            p = citations.parts(cite)
            key = f"{p.get('submitter', '')}/{p.get('system_id', '')}".lower()
            if p.get("round") == round_id and not citations.official_id(ids.get(cite)) and key in configured:
                ids[cite] = configured[key]
        return {**claim, "cite_ids": ids} if ids else claim
    return each_claim(story, filled)


# ----------------------------------------------------------------------------------------- sections


