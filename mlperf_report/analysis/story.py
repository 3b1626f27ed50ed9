"""The story engine: every true claim of a few kinds that a round's results support, strongest first.

A benchmark team's release is built from a few kinds of claims (angles): leadership, generation over
generation, like-for-like competition, the partners on the vendor's accelerator, scaling, progress
since the last round, and energy. This module finds each claim the data supports, gives it a
strength (the size of the gap, how many results stand behind it) and the result IDs it rests on, and
ranks them. It is suite-free: a suite hands over a *comparable* frame (:data:`COLUMNS`, one row per
scored result) and says which rows are the focus's; ``story_inputs`` builds that frame for Training
and Inference.

Honesty rules, enforced here rather than in the wording: comparable means same benchmark, scenario and
division (so closed and open are never compared), and in the open division the same submitter's same
model; a gap under :data:`NOISE` is "on par", never "faster"; no predecessor in the data means no
generation claim, and an older result is the focus's own (or, for a chip vendor, a partner's, said
so); a debut needs the catalogue's sourced word and no earlier round in the data with the chip; a chip
the catalogue does not know is named as written and gets no generation or debut claim, and a system
of mixed chips ("MI300X (x32), MI325X (x16)") is compared with nothing; a leadership claim needs another submitter's result in the same group; derived figures (ratios,
efficiencies, shares) are marked ``derived`` so the text carries MLCommons' notice.

What a team would not publish never leads (headline, highlights): a rival ahead of the focus
("behind"), or a scaling claim under the stated efficiency (:data:`SCALING_EFFICIENCY`, configurable);
both stay in the body, among the like-for-like results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Mapping

from mlperf_report.analysis.claims import (ANGLES, COLUMNS, HIGHLIGHTS, NOISE, PER_ANGLE, SCALING_EFFICIENCY, Claim,
                                           Focus, Story, prepare)
from mlperf_report.core.accelerators import Generations

if TYPE_CHECKING:  # the angles (and pandas) are imported where claims are found, in a kernel: the
    import pandas as pd  # build's own process only tells and cites a story read from its figures

__all__ = ["ANGLES", "COLUMNS", "NOISE", "SCALING_EFFICIENCY", "Claim", "Focus", "Story", "find_claims", "leads",
           "rank", "tell", "with_cite_ids", "mlcommons_ids"]


def find_claims(frame: pd.DataFrame, focus: Focus, generations: Generations,
                previous: pd.DataFrame | None = None, prices: Iterable[dict] = (), *,
                seen: Mapping[str, Iterable[str]] | None = None) -> list[Claim]:
    """Every claim of every angle that the comparable frame (and the previous round's, and the
    perf/$ entries where prices are on file) supports. ``seen``: the chips (accelerator and host
    processor model names) of every other round of the suite present in the data, by round id."""
    from mlperf_report.analysis.story_angles import (competition, energy, leadership, leadership_of_round, price,
                                                     progress, scaling)
    from mlperf_report.analysis.story_chips import debut, generation
    from mlperf_report.analysis.story_ecosystem import ecosystem

    full = prepare(frame, focus)
    before = prepare(previous, focus) if previous is not None and len(previous) else None
    if focus.kind == "none":
        return leadership_of_round(full) + progress(full, before, focus, generations)
    df = _one_chip(full, generations)
    return (debut(df, generations, seen) + leadership(full) + generation(df, generations, _one_chip(before, generations), focus)
            + competition(df, focus) + ecosystem(df, focus, generations, systems=full) + scaling(df)
            + progress(full, before, focus, generations) + price(prices) + energy(full))


def _one_chip(df: pd.DataFrame | None, generations: Generations) -> pd.DataFrame | None:
    """The results of systems of one chip: a system of mixed chips is set against nothing, chip for
    chip (generation, debut, rival, partner, scaling). It stays a result of the round: a claim to be
    fastest, the round's best results and the host share count it, or a mixed system faster than
    the focus's best would let the focus claim a lead it does not have."""
    if df is None:
        return None
    return df[~df["chip"].map(generations.mixed).astype(bool)].reset_index(drop=True)


def leads(claim: Claim, scaling_efficiency: float = SCALING_EFFICIENCY) -> bool:
    """Whether a claim may lead (headline, highlights): never a rival ahead of the focus, never a
    scaling claim under ``scaling_efficiency``."""
    if claim.kind == "behind":
        return False
    return not (claim.angle == "scaling" and claim.facts.get("efficiency", 1.0) < scaling_efficiency)


def rank(claims: Iterable[Claim], order: Iterable[str] | None = None, skip: Iterable[str] = ()) -> list[Claim]:
    """Strongest first; ``order`` (angles) ranks by angle first; angles in ``skip`` are left out."""
    dropped = set(skip)
    kept = [c for c in claims if c.angle not in dropped]
    position = {a: i for i, a in enumerate(order or ())}
    return sorted(kept, key=lambda c: (position.get(c.angle, len(position)) if position else 0, -c.strength,
                                       c.angle, c.kind, c.cites))


def tell(claims: Iterable[Claim], focus: Focus, *, order: Iterable[str] | None = None, skip: Iterable[str] = (),
         highlights: int = HIGHLIGHTS, scaling_efficiency: float = SCALING_EFFICIENCY) -> Story:
    """The story: the strongest claim that may lead (:func:`leads`) as headline, the next strongest (at
    most ``PER_ANGLE`` of an angle) as highlights, every other claim in the body."""
    ranked = rank(claims, order, skip)
    lead = [c for c in ranked if leads(c, scaling_efficiency)]
    headline = lead[0] if lead else None
    chosen: list[Claim] = []
    per_angle: dict[str, int] = {}
    for claim in lead[1:]:
        if len(chosen) < highlights and per_angle.get(claim.angle, 0) < PER_ANGLE:
            chosen.append(claim)
            per_angle[claim.angle] = per_angle.get(claim.angle, 0) + 1
    taken = {id(c) for c in chosen} | {id(headline)}
    body = tuple(c for c in ranked if id(c) not in taken)
    return Story(headline, tuple(chosen), body, focus.kind, focus.name, scaling_efficiency)


def story_focus(focus) -> Focus:
    """The configuration's focus as the engine's (a predicate over submitter and accelerator model)."""
    return Focus(focus.kind, focus.name, focus.matches)


def mlcommons_ids(frame: pd.DataFrame, ids: Iterable) -> dict[str, str]:
    """Story result id -> MLCommons result ID (``5.1-0002``) of each row of a comparable frame that has
    one (``ids``: the rows' IDs in order, empty or missing where the table has none)."""
    return {str(r): str(i).strip() for r, i in zip(frame["result_id"], ids)
            if isinstance(i, str) and i.strip()}


def with_cite_ids(story: dict, ids: Mapping[str, str]) -> dict:
    """summary.json's story with each claim's ``cite_ids`` (its cited results' MLCommons IDs, those
    known): what its footnotes cite. The claims, their order and their facts are untouched."""
    def cited(claim: dict) -> dict:
        found = {c: ids[c] for c in claim.get("cites", ()) if c in ids}
        return {**claim, "cite_ids": found} if found else claim
    return each_claim(story, cited)


def each_claim(story: dict, change: Callable[[dict], dict]) -> dict:
    """summary.json's story with ``change`` made to each of its claims (headline, highlights, body):
    the one walk of the story's parts, for whatever adds to its claims. An absent headline stays so."""
    headline = story.get("headline")
    return {**story, "headline": change(headline) if headline else headline,
            "highlights": [change(c) if c else c for c in story.get("highlights", [])],
            "body": [change(c) if c else c for c in story.get("body", [])]}
