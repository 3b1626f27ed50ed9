"""The words a claim chart prints that only the narrative has: a debut's cells (``analysis.claim_grid``).

Each cell of a debut's chart shows a result's figure as the story's sentence prints it
(``story_words.value_parts``: the same number, never rounded again), the benchmark as the sentence
names it, and the result's MLCommons ID where the tables carry one, so the card or slide that shows
the figure cites it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from mlperf_report.i18n.labels import label
from mlperf_report.narrative import citations
from mlperf_report.narrative.story_words import value_parts


def worded(chart, claim: dict, bench: Callable[[dict], str], scenario: Callable[[str], str], lang: str):
    """``chart`` (``claim_charts.ClaimChart``) with a debut's cells worded: ``figure`` and ``figure_unit``,
    ``benchmark_name`` (``bench(row)`` of the row without its scenario and division), ``scenario_name``
    (``scenario(name)``, "" for none), ``open_division`` (the grid keeps the scenario and the open
    division's mark whole where it cuts the benchmark's name: an open result never reads as closed) and
    ``cite`` (``Result ID 4.1-0002``, or "" where none is known); any other chart as it is."""
    if chart is None or chart.measure != "debut":
        return chart
    ids = claim.get("cite_ids") or {}
    cells = []
    for row in chart.rows:
        number, unit = value_parts(row, lang)
        found = citations.official_id(ids.get(row["result_id"]))
        cells.append({**row, "figure": number, "figure_unit": unit,
                      "benchmark_name": bench({**row, "scenario": "", "division": "closed"}),
                      "scenario_name": scenario(row["scenario"]) if row.get("scenario") else "",
                      "open_division": row.get("division") == "open",
                      "cite": label("kit.cell_id", lang, id=found) if found else ""})
    return replace(chart, rows=tuple(cells))


def debut_title(chart, lang: str) -> str:
    """A debut chart's title: its best result on each benchmark entered, or on how many of them it shows."""
    if chart.entered > len(chart.rows):
        return label("kit.debut_title_some", lang, shown=len(chart.rows), entered=chart.entered)
    return label("kit.debut_title", lang)
