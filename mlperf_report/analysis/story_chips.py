"""The story engine's chip angles, from the catalogue of generations (``data/accelerators.yaml``):
a newer generation against each earlier one, and a generation's first MLPerf round (its debut).

Generation over generation sets the focus's newer chip against an earlier generation at the same
count, like for like (``claims.GROUP``), in this round or the round just before: against the same
submitter's own result, or, for a chip vendor's story, a partner's result on its older chip, said
so; never against another submitter's system as if it were the focus's own. A result with no
accelerator (CPU-only inference) is compared on its host processors. Every earlier generation is
tried, so the largest honest gain ("2.8× its MI300X") can lead, not only the one over the nearest.

A debut is claimed only when both hold: the catalogue says, with a public source, that the
generation's first MLPerf round of the suite is this one, and no earlier round of the suite present
in ``data/`` has a result on it. A round missing from ``data/`` therefore never makes a chip look new
(the data alone is never enough), and a catalogue the data contradicts makes no claim.
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping

import pandas as pd

from mlperf_report.analysis.claims import GROUP, NOISE, Claim, Focus, best_row, row_facts
from mlperf_report.core.accelerators import Generation, Generations
from mlperf_report.core.rounds import parse_round_id

#: A debut leads the story: it is the headline a vendor's release opens with.
DEBUT_STRENGTH = 7.0


def _counted(df: pd.DataFrame) -> pd.DataFrame:
    """Rows that ran on a known chip and count of them."""
    return df[(df["chip"] != "") & df["chips"].notna() & df["chips"].gt(0)]


def _owners(pool: pd.DataFrame, mine: pd.DataFrame, focus: Focus, new: Generation) -> list[tuple[str, pd.DataFrame]]:
    """Whose older results a newer one may be set against: the same submitter's ("own"); for the chip
    vendor's own story, its partners' on the vendor's older chip ("partner")."""
    submitter = mine["submitter"].iloc[0]
    own = pool[pool["submitter"] == submitter]
    chip_vendor = focus.kind == "submitter" and new.vendor.lower() == focus.name.lower()
    return [("own", own)] + ([("partner", pool[pool["submitter"] != submitter])] if chip_vendor else [])


#: What a newer result is matched on: the same benchmark, scenario, division, kind of chip and count.
_LIKE = ["benchmark", "scenario", "division", "chip_kind", "chips"]


def _against(pool: dict, mine: pd.DataFrame, new: Generation, old: Generation, focus: Focus) -> dict | None:
    """The focus's best result of ``new`` against the best result of ``old`` with the same key and
    count (``pool``: the counted results by ``_LIKE``), its own first, a partner's where the story
    allows; None when none is slower by NOISE."""
    top = best_row(mine)
    key = pool.get(tuple(top[c] for c in _LIKE))
    if key is None:
        return None
    key = key[key["generation"] == old.name]
    for by, theirs in _owners(key, mine, focus, new):
        theirs = theirs[theirs["like"] == top["like"]] if top["division"] == "open" else theirs
        if theirs.empty:
            continue
        before = best_row(theirs)
        ratio = top["perf"] / before["perf"]
        if ratio >= 1 + NOISE:
            return {"result": row_facts(top), "predecessor": row_facts(before), "ratio": float(ratio),
                    "accelerators": int(top["chips"]), "unit": top["chip_kind"], "by": by}
        return None  # the focus's own older result is as fast: no partner's slower one instead
    return None


def _rank(found: dict) -> tuple:
    """Own older results before a partner's, then the larger gain, then the result id."""
    return found["by"] != "own", -found["ratio"], found["result"]["result_id"]


def generation(df: pd.DataFrame, generations: Generations, previous: pd.DataFrame | None = None,
               focus: Focus | None = None) -> list[Claim]:
    """The focus's newer chip against each earlier generation at the same count (this round, or the
    previous round's tables); one claim per pair of generations, its best benchmark first, each
    benchmark (and scenario, division, count) counted once however many systems or chips of the
    generation the focus ran there (MI350X and MI355X, an accelerator's several submitters)."""
    focus = focus or Focus("submitter", "", lambda s, m: False)
    pool = _counted(df if previous is None or previous.empty else pd.concat([df, previous.assign(mine=False)]))
    gens = {m: generations.of(m) for m in pool["chip"].unique()}
    pool = pool.assign(generation=pool["chip"].map(lambda m: getattr(gens.get(m), "name", "")))
    alike = {key: rows for key, rows in pool.groupby(_LIKE, sort=False)}
    pairs: dict[tuple[str, str], list[dict]] = {}
    for _, group in _counted(df[df["mine"]]).groupby(GROUP + ["chip_kind", "chips"], sort=True):
        group = group.assign(generation=group["chip"].map(lambda m: getattr(gens.get(m), "name", "")))
        best: dict[tuple[str, str], dict] = {}
        for (_, _), mine in group[group["generation"] != ""].groupby(["generation", "submitter"], sort=True):
            new = gens.get(best_row(mine)["chip"])
            for old in generations.earlier(new):
                found = _against(alike, mine, new, old, focus)
                if found and ((new.name, old.name) not in best or _rank(found) < _rank(best[(new.name, old.name)])):
                    best[(new.name, old.name)] = found
        for pair, found in best.items():
            pairs.setdefault(pair, []).append(found)
    claims = []
    for (new, old), found in sorted(pairs.items()):
        found.sort(key=_rank)
        cites = tuple(x for f in found for x in (f["result"]["result_id"], f["predecessor"]["result_id"]))
        strength = 5.0 + min(math.log2(found[0]["ratio"]), 2.0) - (0.3 if found[0]["by"] == "partner" else 0.0)
        claims.append(Claim("generation", "over_predecessor", strength,
                            {"new": new, "old": old, "best": found[0], "others": found[1:]}, cites, derived=True))
    return claims


def _seen_before(generation: Generation, round_id: str, seen: Mapping[str, Iterable[str]],
                 generations: Generations) -> bool:
    """Whether an earlier round of the same suite present in the data has a result on ``generation``."""
    this = parse_round_id(round_id)
    for other, models in seen.items():
        earlier = parse_round_id(other)
        if earlier.suite == this.suite and earlier < this and any(generations.of(m) == generation for m in models):
            return True
    return False


#: Results a debut's chart shows at most (one per benchmark, scenario and division): all of them cited.
DEBUT_CELLS = 8


def _best_of_each(results: pd.DataFrame) -> tuple[list[dict], int]:
    """A debut's best result on each benchmark (scenario and division) it entered, ordered by
    benchmark, scenario and division ids, at most :data:`DEBUT_CELLS` (what its chart shows across benchmarks), and how many it entered."""
    groups = results.groupby(["benchmark", "scenario", "division"], sort=True, dropna=False)
    return [row_facts(best_row(group)) for _, group in groups][:DEBUT_CELLS], groups.ngroups


def debut(df: pd.DataFrame, generations: Generations, seen: Mapping[str, Iterable[str]] | None = None) -> list[Claim]:
    """The focus's results on a generation whose first MLPerf round of the suite is this one: how
    many, on which benchmarks, its largest system, and its best result on each benchmark (cited
    first after the largest, so a chart of them cites every one)."""
    mine = _counted(df[df["mine"]])
    if mine.empty:
        return []
    round_id = str(mine["round"].iloc[0])
    this = parse_round_id(round_id)
    on: dict[Generation, list[int]] = {}
    for index, model in mine["chip"].items():
        generation = generations.of(model)
        if generation is not None and generation.debut.get(this.suite) == f"v{this.version}":
            on.setdefault(generation, []).append(index)
    claims = []
    for generation, rows in sorted(on.items(), key=lambda item: item[0].name):
        if _seen_before(generation, round_id, seen or {}, generations):
            continue  # the data contradicts the catalogue: no "first" claim
        results = mine.loc[rows]
        largest = best_row(results[results["chips"] == results["chips"].max()])
        each, entered = _best_of_each(results)
        cites = list(dict.fromkeys([largest["result_id"], *(r["result_id"] for r in each), *results["result_id"]]))
        facts = {"generation": generation.name, "chips": sorted(set(results["chip"])), "round": round_id,
                 "results": int(len(results)), "benchmarks": sorted(set(results["benchmark"])),
                 "divisions": sorted(set(results["division"])), "submitters": sorted(set(results["submitter"])),
                 "largest": row_facts(largest), "largest_chips": int(largest["chips"]), "unit": largest["chip_kind"],
                 "one_size": bool(results["chips"].nunique() == 1),
                 "availability": str(results["availability"].iloc[0]) if results["availability"].nunique() == 1 else "",
                 "source": generation.debut_source, "per_benchmark": each,
                 "entered": entered}
        strength = DEBUT_STRENGTH + min(0.1 * len(facts["benchmarks"]), 0.5)
        claims.append(Claim("generation", "debut", strength, facts, tuple(cites[:12])))
    return claims
