"""The story engine: every true claim of a few kinds that a round's results support, strongest first.

A benchmark team's release is built from a few kinds of claims (angles): leadership, generation over
generation, like-for-like competition, the partners on the vendor's accelerator, scaling, progress
since the last round, and energy. This module finds each claim the data supports, gives it a
strength (the size of the gap, how many results stand behind it) and the result IDs it rests on, and
ranks them. It is suite-free: a suite hands over a *comparable* frame (:data:`COLUMNS`, one row per
scored result) and says which rows are the focus's; ``story_inputs`` builds that frame for Training
and Inference.

Honesty rules, enforced here rather than in the wording: comparable means same benchmark, scenario and
division (so closed and open are never compared); a gap under :data:`NOISE` is "on par", never
"faster"; no predecessor in the data means no generation claim; a leadership claim needs another
submitter's result in the same group; derived figures (ratios, efficiencies) are marked ``derived``
so the text carries MLCommons' notice.
"""

from __future__ import annotations

from typing import Iterable

import pandas as pd

from mlperf_report.analysis.claims import (ANGLES, COLUMNS, HIGHLIGHTS, NOISE, PER_ANGLE, Claim, Focus, Story,
                                           prepare)
from mlperf_report.analysis.story_angles import (competition, ecosystem, energy, generation, leadership,
                                                 leadership_of_round, price, progress, scaling)
from mlperf_report.core.accelerators import Generations

__all__ = ["ANGLES", "COLUMNS", "NOISE", "Claim", "Focus", "Story", "find_claims", "rank", "tell"]

def find_claims(frame: pd.DataFrame, focus: Focus, generations: Generations,
                previous: pd.DataFrame | None = None, prices: Iterable[dict] = ()) -> list[Claim]:
    """Every claim of every angle that the comparable frame (and the previous round's, and the
    perf/$ entries where prices are on file) supports."""
    df = prepare(frame, focus)
    before = prepare(previous, focus) if previous is not None and len(previous) else None
    if focus.kind == "none":
        return leadership_of_round(df) + progress(df, before, focus)
    return (leadership(df) + generation(df, generations, before) + competition(df, focus) + ecosystem(df, focus)
            + scaling(df) + progress(df, before, focus) + price(prices) + energy(df))


def rank(claims: Iterable[Claim], order: Iterable[str] | None = None, skip: Iterable[str] = ()) -> list[Claim]:
    """Strongest first; ``order`` (angles) ranks by angle first; angles in ``skip`` are left out."""
    dropped = set(skip)
    kept = [c for c in claims if c.angle not in dropped]
    position = {a: i for i, a in enumerate(order or ())}
    return sorted(kept, key=lambda c: (position.get(c.angle, len(position)) if position else 0, -c.strength,
                                       c.angle, c.kind, c.cites))


def tell(claims: Iterable[Claim], focus: Focus, *, order: Iterable[str] | None = None, skip: Iterable[str] = (),
         highlights: int = HIGHLIGHTS) -> Story:
    """The story: the strongest claim as headline, the next strongest (at most ``PER_ANGLE`` of an
    angle, and no "behind" claim) as highlights, every other claim in the body."""
    ranked = rank(claims, order, skip)
    lead = [c for c in ranked if c.kind != "behind"]
    headline = lead[0] if lead else None
    chosen: list[Claim] = []
    per_angle: dict[str, int] = {}
    for claim in lead[1:]:
        if len(chosen) < highlights and per_angle.get(claim.angle, 0) < PER_ANGLE:
            chosen.append(claim)
            per_angle[claim.angle] = per_angle.get(claim.angle, 0) + 1
    taken = {id(c) for c in chosen} | {id(headline)}
    body = tuple(c for c in ranked if id(c) not in taken)
    return Story(headline, tuple(chosen), body, focus.kind, focus.name)


def story_focus(focus) -> Focus:
    """The configuration's focus as the engine's (a predicate over submitter and accelerator model)."""
    return Focus(focus.kind, focus.name, focus.matches)
