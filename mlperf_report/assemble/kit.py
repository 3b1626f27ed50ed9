"""The claims-and-charts model every deliverable of a report is made from, in one language.

The HTML and PDF report, the slide deck, the one-page brief and the chart cards all lead with the same
claims: the story's headline and highlights as the suite words them (``Suite.lead_claims``), each
with its footnote (the results it rests on, MLCommons' notice where a figure is derived) and the
chart of what it compares (``analysis.claim_charts``). Built once per language in the build process,
small and picklable, handed to the processes that make the files; so no deliverable can say what
another does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mlperf_report.analysis.claim_charts import ClaimChart
from mlperf_report.core.brand import NO_BRAND, Brand
from mlperf_report.core.rounds import parse_round_id
from mlperf_report.narrative import citations
from mlperf_report.narrative.rendering import MARK, TRADEMARK_LEGEND


@dataclass(frozen=True)
class KitClaim:
    """One lead claim: its sentence, its footnote, the result ids it rests on and its chart."""

    text: str
    note: str
    cites: tuple[str, ...] = ()
    derived: bool = False
    chart: ClaimChart | None = None
    chart_title: str = ""
    angle: str = ""
    kind: str = ""
    citations: tuple[str, ...] = ()  # the cited results as a footer lists them: by MLCommons result ID, else path
    has_ids: bool = False            # whether one of them is cited by its MLCommons result ID
    drawings: tuple = ()             # (kit_charts.ChartSize, PNG bytes or SVG text): its chart, drawn once a size

    def drawn(self, size):
        """The chart drawn at ``size`` by the document (``report_document``), or None when it was not."""
        return next((made for at, made in self.drawings if at == size), None)


@dataclass(frozen=True)
class Kit:
    """One language's deliverables' common content."""

    lang: str
    round_id: str
    round_title: str
    title: str
    date: str
    focus_name: str
    claims: tuple[KitClaim, ...] = ()  # the headline first
    has_exhibits: bool = False
    legend: str = TRADEMARK_LEGEND
    retrieved: str = ""  # when the results were retrieved (report.yaml's source.retrieved, YYYY-MM-DD), or ""
    brand: Brand = NO_BRAND  # core.brand: the colours, logo and typefaces every deliverable carries

    @property
    def headline(self) -> KitClaim | None:
        return self.claims[0] if self.claims else None

    @property
    def cited(self) -> tuple[KitClaim, ...]:
        """The claims that get a slide and a card of their own: those citing a result. What a focus
        entered for the first time rests on the previous round having none of its results, which no
        footer can cite: it stays in the report and the brief, with no note."""
        return tuple(c for c in self.claims if c.cites)

    @property
    def source(self) -> str:
        """Where the results are published: MLCommons' results repository of the round."""
        try:
            parsed = parse_round_id(self.round_id)
            return f"github.com/mlcommons/{parsed.suite}_results_v{parsed.version}"
        except ValueError:
            return "mlcommons.org"

    @property
    def mark_title(self) -> str:
        """The round's name with the mark MLCommons requires (``MLPerf® Training v4.1``)."""
        return self.round_title.replace("MLPerf", MARK, 1)


def kit_of(claims: list[dict], *, lang: str, round_id: str, round_title: str, title: str, date: str,
           focus_name: str, has_exhibits: bool, fallback: tuple[list[str], list[str]] = ([], []),
           retrieved: str = "") -> Kit:
    """The kit of ``claims`` (``Suite.lead_claims``); without a story, the email's headline lines and
    notes (``fallback``: ``Suite.headlines``), which carry no chart."""
    made = tuple(KitClaim(c["text"], c.get("note_text", ""), tuple(c.get("cites") or ()), bool(c.get("derived")),
                          c.get("chart"), c.get("chart_title", ""), c.get("angle", ""), c.get("kind", ""),
                          tuple(c.get("citations") or ()), citations.has_ids(c.get("cites") or (), c.get("cite_ids")))
                 for c in claims)
    if not made:
        lines, notes = fallback
        made = tuple(KitClaim(re.sub(r"\s*\[\d+\]$", "", line), " ".join(notes[:1])) for line in lines[:7])
    return Kit(lang, round_id, round_title, title, date, focus_name, made, has_exhibits, retrieved=retrieved)
