"""How a cited result is named in a footnote, a slide's footer and a card: by its MLCommons result ID
where the tables carry it, else by its results path.

MLCommons' messaging guidelines (§3.2, "Required Footnote") ask every cited result's footnote for the
suite, version and division, the benchmark (and scenario), the date and source of retrieval and the
MLPerf result ID. A claim cites results by the story's own ids (``<round>/<division>/<submitter>/
<system_id>/<benchmark>[/<scenario>]``); ``cite_ids`` maps those to MLCommons' IDs (``5.1-0002``).
Results with an ID are cited in groups of one round, division, benchmark and scenario ("MLPerf®
Training v5.1, closed division, BERT, result ID 5.1-0002"); a result without one keeps its path.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping

from mlperf_report.core.rounds import parse_round_id
from mlperf_report.i18n import formatting
from mlperf_report.i18n.labels import label
from mlperf_report.narrative.rendering import MARK

#: A result ID as MLCommons publishes it (``5.1-0002``, optionally ``.benchmark``); anything else a
#: table may hold in the column (a path, a note) is never cited as an ID.
RESULT_ID = re.compile(r"^\d+\.\d+-\d+(\.[A-Za-z0-9_-]+)?$")

#: How a suite names a benchmark in a citation: ``(benchmark id, round id, lang) -> name``.
Namer = Callable[[str, str, str], str]


def official_id(value: object) -> str | None:
    """``value`` when it is an MLCommons result ID, else None (empty, NaN, a path)."""
    text = value.strip() if isinstance(value, str) else ""
    return text if text and RESULT_ID.match(text) else None


def parts(cite: str) -> dict:
    """A story result id as its parts (round, division, submitter, system, benchmark, scenario)."""
    pieces = cite.split("/")
    keys = ("round", "division", "submitter", "system_id", "benchmark", "scenario")
    return dict(zip(keys, pieces[:5] + ["/".join(pieces[5:])] if len(pieces) > 5 else pieces))


def _group_text(key: tuple, ids: list[str], lang: str, bench: Namer | None, scenario) -> str:
    round_id, division, benchmark, scen = key
    try:
        suite = parse_round_id(round_id).title.replace("MLPerf", MARK, 1)
    except ValueError:
        suite = round_id
    named = bench(benchmark, round_id, lang) if bench else benchmark
    if scen:
        named = label("cite.benchmark_scenario", lang, benchmark=named, scenario=scenario(scen, lang) if scenario else scen)
    division_text = label(f"division.{division}.in_text", lang) if division in ("closed", "open") else division
    key_ = "cite.result" if len(ids) == 1 else "cite.results"
    return label(key_, lang, suite=suite, division=division_text, benchmark=named, ids=id_list(ids, lang))


def listed(found: list[str], lang: str) -> str:
    """Citations one after the other: ``; `` between them (each has commas of its own), ``；`` in Chinese."""
    return ("；" if lang.startswith("zh") else "; ").join(found)


def id_list(ids: list[str], lang: str) -> str:
    """Result IDs listed: ``5.1-0002, 5.1-0007`` (``5.1-0002、5.1-0007`` in Chinese)."""
    return ("、" if lang.startswith("zh") else ", ").join(ids)


def items(cites: Iterable[str], cite_ids: Mapping[str, str] | None, lang: str, *,
          bench: Namer | None = None, scenario: Callable[[str, str], str] | None = None,
          path: Callable[[str], str] = str) -> list[str]:
    """The cited results as a footnote lists them, in the order cited: one item per round, division,
    benchmark and scenario of the results with an ID (their IDs listed), one per result without."""
    cite_ids = cite_ids or {}
    groups: dict[tuple, list[str]] = {}
    order: list = []
    for cite in cites:
        found = official_id(cite_ids.get(cite))
        if not found:
            order.append(path(cite))
            continue
        p = parts(cite)
        key = (p.get("round", ""), p.get("division", ""), p.get("benchmark", ""), p.get("scenario", ""))
        if key not in groups:
            groups[key] = []
            order.append(key)
        if found not in groups[key]:
            groups[key].append(found)
    return [_group_text(k, groups[k], lang, bench, scenario) if isinstance(k, tuple) else k for k in order]


def has_ids(cites: Iterable[str], cite_ids: Mapping[str, str] | None) -> bool:
    return any(official_id((cite_ids or {}).get(c)) for c in cites)


def source_of(source: Mapping | None, round_id: str) -> tuple[str, str | None]:
    """Where a round's results were retrieved and when (``report.yaml``'s ``source: url, retrieved``):
    the configured URL and date when they are this round's; else MLCommons' results repository of the
    round, with no date (a date is never carried over from another round's source)."""
    source = source or {}
    url = str(source.get("url") or "").strip()
    retrieved = source.get("retrieved")
    try:
        parsed = parse_round_id(round_id)
        repository = f"https://github.com/mlcommons/{parsed.suite}_results_v{parsed.version}"
    except ValueError:
        return url, str(retrieved) if retrieved and url else None
    named = re.search(r"[a-z]+_results_v\d+\.\d+", url)
    if not url or (named and named.group(0) != repository.rsplit("/", 1)[1]):
        return repository, None
    return url, str(retrieved) if retrieved else None


def retrieved_sentence(source: str, date: str | None, lang: str) -> str:
    """"Retrieved from <source> on <date>." (the date in ``lang``'s long form), or without the date."""
    if date:
        return label("cite.retrieved", lang, source=source, date=formatting.date(date, lang))
    return label("cite.retrieved_undated", lang, source=source)


def on_date(date: str | None, lang: str) -> str:
    """", retrieved <date>" after a source already named (a slide's footer), or nothing."""
    return label("cite.on_date", lang, date=formatting.date(date, lang)) if date else ""


def missing(claims: Iterable[Mapping], round_id: str) -> bool:
    """Whether a claim cites a result of ``round_id`` that has no MLCommons ID."""
    for claim in claims:
        ids = claim.get("cite_ids") or {}
        if any(c.startswith(round_id + "/") and not official_id(ids.get(c)) for c in claim.get("cites") or ()):
            return True
    return False


def story_claims(story: Mapping | None) -> list[Mapping]:
    """Every claim of summary.json's story: headline, highlights, body."""
    story = story or {}
    return ([story["headline"]] if story.get("headline") else []) + list(story.get("highlights") or []) + list(
        story.get("body") or [])
