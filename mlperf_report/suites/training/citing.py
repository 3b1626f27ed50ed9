"""What `build.py report` says once about a Training report's citations: where the configured
``source.result_ids`` and the results table's MLCommons IDs disagree (the table's is cited), and, when
the story or a result of the focus (each has its note) cites a result of the round without an ID, how
to add them."""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from mlperf_report.narrative import citations
from mlperf_report.suites.training import narrative


def _system_results(value: Any) -> Iterator[Mapping]:
    """Every SYSTEM_RESULT in a figures file (dicts with a ``system_id`` and a ``result_id``)."""
    if isinstance(value, Mapping):
        if "system_id" in value and "result_id" in value:
            yield value
        for item in value.values():
            yield from _system_results(item)
    elif isinstance(value, list):
        for item in value:
            yield from _system_results(item)


def conflicts(figures: Mapping[str, dict], config: Any, round_id: str) -> list[str]:
    """One line per system whose configured ID differs from the table's."""
    configured = narrative._result_ids(narrative._config_dict(config))
    found = {}
    for result in _system_results(dict(figures)):
        table = citations.official_id(result.get("mlcommons_id"))
        key = f"{result.get('submitter', '')}/{result.get('system_id', '')}"
        given = configured.get(key.lower())
        if table and given and given != table and str(result["result_id"]).startswith(round_id + "/"):
            found[key] = (given, table)
    return [f"citations: report.yaml source.result_ids gives {given} for {key}; the results table of {round_id} "
            f"has {table}, which is cited" for key, (given, table) in sorted(found.items())]


def _focus_without_id(figures: Mapping[str, dict], config: Any) -> bool:
    """Whether a result of the focus (each has its note) has no ID, from the table or the map."""
    configured = narrative._result_ids(narrative._config_dict(config))
    for fig in figures.values():
        for result in _system_results((fig or {}).get("focus") if isinstance(fig, Mapping) else None):
            key = f"{result.get('submitter', '')}/{result.get('system_id', '')}".lower()
            if not citations.official_id(result.get("mlcommons_id")) and not configured.get(key):
                return True
    return False


def notices(figures: Mapping[str, dict], summary: dict | None, config: Any) -> list[str]:
    round_id = str((summary or {}).get("round") or config.round)
    lines = conflicts(figures, config, round_id)
    story = narrative.story_ids((summary or {}).get("story"), config, round_id)
    if citations.missing(citations.story_claims(story), round_id) or _focus_without_id(figures, config):
        lines.append(f"citations: {round_id} has no MLCommons result ID for some cited results, which are cited by "
                     "their results path; to cite the IDs, run `python build.py ingest <source> --official "
                     "<MLCommons results table .xlsx or .csv>` or give them in data/report.yaml's "
                     "source.result_ids (submitter/system_id: ID)")
    return lines
