"""The story engine's angles that compare results: each finds, in a prepared comparable frame
(``claims.prepare``), every claim of its kind that the data supports, with its strength and the
results it rests on.

Leadership (first overall and at an accelerator count), the nearest competitor at the same count,
scaling across one submitter's systems, progress since the round just before, performance per dollar
and energy (generations and debuts: ``story_chips``; partners and hosts: ``story_ecosystem``). The
honesty rules live here: gaps under ``NOISE`` are never "ahead", closed and open are never compared
and open results only within one submitter's model (groups are ``claims.GROUP``).
"""

from __future__ import annotations

import math
from typing import Iterable

import pandas as pd

from mlperf_report.analysis.claims import (GROUP, NOISE, Claim, Focus, best_row, relative_gap, row_facts, sized)
from mlperf_report.analysis.vendors import vendor_of
from mlperf_report.core.accelerators import Generations


def leadership(df: pd.DataFrame) -> list[Claim]:
    """First overall in a benchmark (and scenario), per division, counted across benchmarks ("the
    fastest on 3 of the 7 benchmarks it entered"), and first at an accelerator count."""
    leads: dict[str, list[dict]] = {}
    entered: dict[str, int] = {}
    for (_, _, division, _), group in df.groupby(GROUP, sort=True):
        mine, others = group[group["mine"]], group[~group["mine"]]
        if mine.empty or others.empty:
            continue
        entered[division] = entered.get(division, 0) + 1
        top, runner = best_row(mine), best_row(others)
        gap = relative_gap(top["perf"], runner["perf"])
        if gap >= NOISE:
            leads.setdefault(division, []).append({"result": row_facts(top), "runner": row_facts(runner), "gap": gap,
                                                   "results": len(group)})
    claims = []
    for division, won in sorted(leads.items()):
        won.sort(key=lambda w: (-w["gap"], w["result"]["result_id"]))
        cites = tuple(x for w in won for x in (w["result"]["result_id"], w["runner"]["result_id"]))
        strength = 5.0 + min(0.25 * (len(won) - 1), 1.0) + min(won[0]["gap"], 1.0) / 2 - (0.5 if division == "open" else 0)
        claims.append(Claim("leadership", "first_overall", strength,
                            {"division": division, "leads": won, "of": entered[division]}, cites, derived=True))
    return claims + _leadership_at_count(df)


def _leadership_at_count(df: pd.DataFrame) -> list[Claim]:
    leads: dict[int, list[dict]] = {}
    entered: dict[int, int] = {}
    for (_, _, _, _, count), group in sized(df).groupby(GROUP + ["accelerators"], sort=True):
        mine, others = group[group["mine"]], group[~group["mine"]]
        if mine.empty or others.empty:
            continue
        entered[int(count)] = entered.get(int(count), 0) + 1
        top, runner = best_row(mine), best_row(others)
        gap = relative_gap(top["perf"], runner["perf"])
        if gap >= NOISE:
            leads.setdefault(int(count), []).append({"result": row_facts(top), "runner": row_facts(runner), "gap": gap,
                                                     "systems": len(group)})
    claims = []
    for count, won in sorted(leads.items()):
        cites = tuple(x for w in won for x in (w["result"]["result_id"], w["runner"]["result_id"]))
        claims.append(Claim("leadership", "first_at_count", 2.5 + 0.5 * len(won) + min(max(w["gap"] for w in won), 1.0) / 2,
                            {"accelerators": count, "leads": won, "of": entered[count]}, cites, derived=True))
    return claims


def _rivals(group: pd.DataFrame, top: pd.Series, focus: Focus) -> pd.DataFrame:
    """Who the focus result competes with: another vendor's accelerator for a chip vendor or an
    accelerator focus; any other submitter for a system builder."""
    others = group[~group["mine"]]
    vendor = vendor_of(top["accelerator_model"])
    chip_vendor = focus.kind == "accelerator" or (vendor and vendor.lower() == str(top["submitter"]).lower())
    if chip_vendor:   # another vendor's, known: a chip of no known vendor may be the focus's own
        vendors = others["accelerator_model"].map(vendor_of)
        return others[vendors.notna() & (vendors != vendor)]
    return others


def competition(df: pd.DataFrame, focus: Focus) -> list[Claim]:
    """At each accelerator count, the competitor result nearest the focus's best, worded by the real gap."""
    claims = []
    for _, group in sized(df).groupby(GROUP + ["accelerators"], sort=True):
        mine = group[group["mine"]]
        if mine.empty:
            continue
        top = best_row(mine)
        rivals = _rivals(group, top, focus)
        if rivals.empty:
            continue
        distance = (rivals["perf"] / top["perf"]).map(lambda r: abs(math.log(r)))
        nearest = rivals.assign(distance=distance).sort_values(["distance", "result_id"], kind="stable").iloc[0]
        gap = relative_gap(top["perf"], nearest["perf"])
        kind, strength = (("on_par", 1.2) if abs(gap) < NOISE else
                          ("ahead", 2.0 + min(gap, 1.0)) if gap > 0 else ("behind", 0.2))
        claims.append(Claim("competition", kind, strength,
                            {"result": row_facts(top), "rival": row_facts(nearest), "gap": gap, "rivals": len(rivals)},
                            (top["result_id"], nearest["result_id"]), derived=True))
    return claims


def scaling(df: pd.DataFrame) -> list[Claim]:
    """From the focus's smallest to its largest system of one accelerator on one benchmark (one
    submitter's systems): the gain and the derived efficiency (gain ÷ growth in accelerators).
    Latency results do not scale this way."""
    claims = []
    mine = sized(df[df["mine"] & (df["measure"] != "latency")])
    for _, group in mine.groupby(GROUP, sort=True):
        best = None
        for _, runs in group.groupby(["accelerator_model", "submitter"], sort=True):  # one submitter's systems
            counts = sorted(runs["accelerators"].unique())
            if len(counts) < 2:
                continue
            small = best_row(runs[runs["accelerators"] == counts[0]])
            large = best_row(runs[runs["accelerators"] == counts[-1]])
            growth, gain = counts[-1] / counts[0], large["perf"] / small["perf"]
            if gain >= 1 + NOISE and (best is None or growth > best["growth"]):
                best = {"small": row_facts(small), "large": row_facts(large), "growth": growth, "gain": gain,
                        "efficiency": gain / growth, "points": int(runs["accelerators"].nunique())}
        if best:
            strength = 2.5 + 0.25 * min(math.log2(best["growth"]), 4.0) + 2 * min(best["efficiency"], 1.0)
            claims.append(Claim("scaling", "across_sizes", strength, best,
                                (best["small"]["result_id"], best["large"]["result_id"]), derived=True))
    return claims


def progress(df: pd.DataFrame, previous: pd.DataFrame | None, focus: Focus, generations: Generations) -> list[Claim]:
    """The focus's best against its own best of the previous round (the same hardware when it can:
    software gains), and what it entered for the first time. With no focus: the round's best results."""
    if previous is None or previous.empty:
        return []
    before = previous.copy()
    before["mine"] = [bool(focus.is_focus(s, m)) or focus.kind == "none"
                      for s, m in zip(before["submitter"], before["accelerator_model"])]
    now = df.assign(mine=df["mine"] | (focus.kind == "none"))
    claims = []
    for key, group in now[now["mine"]].groupby(GROUP, sort=True):
        then = before[before["mine"] & (before["benchmark"] == key[0]) & (before["scenario"] == key[1])
                      & (before["division"] == key[2]) & (before["like"] == key[3])]
        if then.empty:
            continue
        claims.extend(_gain(group, then, same_hardware=focus.kind != "none"))
    claims.extend(_first_entries(now[now["mine"]], before[before["mine"]], focus, str(previous["round"].iloc[0]),
                                 generations))
    return claims


def _gain(group: pd.DataFrame, then: pd.DataFrame, same_hardware: bool = True) -> list[Claim]:
    same = group.merge(then[["chip", "chips", "perf", "result_id"]], on=["chip", "chips"], suffixes=("", "_before"))
    if same_hardware and len(same):
        same = same.assign(ratio=same["perf"] / same["perf_before"])
        pick = same.sort_values(["ratio", "result_id"], ascending=[False, True], kind="stable").iloc[0]
        if pick["ratio"] >= 1 + NOISE:
            old = then[then["result_id"] == pick["result_id_before"]].iloc[0]
            return [Claim("progress", "same_hardware", 2.5 + min(math.log2(pick["ratio"]), 2.0),
                          {"result": row_facts(pick), "before": row_facts(old), "ratio": float(pick["ratio"])},
                          (pick["result_id"], old["result_id"]), derived=True)]
    top, old = best_row(group), best_row(then)
    ratio = top["perf"] / old["perf"]
    if ratio < 1 + NOISE:
        return []
    return [Claim("progress", "best", 2.0 + min(math.log2(ratio), 2.0),
                  {"result": row_facts(top), "before": row_facts(old), "ratio": ratio}, (top["result_id"], old["result_id"]),
                  derived=True)]


def _new_chips(now: pd.DataFrame, before: pd.DataFrame, generations: Generations) -> list[str]:
    """The focus's chips whose generation it had no result on in the previous round. Only chips the
    catalogue knows, and only when it knows every chip of the previous round too: a chip the tables
    spell differently from one round to the next ("TPU" in v1.0, "TPU-v4" in v1.1) is never new."""
    old = [generations.of(m) for m in set(before["chip"]) if m]
    if any(g is None for g in old):
        return []
    known = {g.name for g in old}
    return sorted({m for m in set(now["chip"]) if m and generations.of(m) and generations.of(m).name not in known})


def _first_entries(now: pd.DataFrame, before: pd.DataFrame, focus: Focus, previous: str,
                   generations: Generations) -> list[Claim]:
    new = sorted(set(now["benchmark"]) - set(before["benchmark"]))
    if focus.kind == "none":
        return [Claim("progress", "new_benchmarks", 1.0, {"benchmarks": new, "previous": previous})] if new else []
    if before.empty:
        return [Claim("progress", "first_round", 1.5, {"benchmarks": sorted(set(now["benchmark"])), "previous": previous})]
    claims = []
    if new:
        claims.append(Claim("progress", "new_benchmarks", 1.0, {"benchmarks": new, "previous": previous}))
    chips = _new_chips(now, before, generations)
    if chips:
        claims.append(Claim("progress", "new_accelerators", 1.0, {"accelerators": chips, "previous": previous}))
    return claims


def price(entries: Iterable[dict]) -> list[Claim]:
    """Performance per dollar against the report's baseline, where both prices are on file: per
    benchmark and division, the focus system with the best ratio. ``entries`` carry ``benchmark``,
    ``division``, ``system`` and ``baseline`` (comparable rows), ``ratio``, ``price``, ``baseline_price``."""
    best: dict[tuple[str, str], dict] = {}
    for entry in entries:
        key = (entry["benchmark"], entry["division"])
        if key not in best or entry["ratio"] > best[key]["ratio"]:
            best[key] = entry
    claims = []
    for key in sorted(best):
        e = best[key]
        ratio = e["ratio"]
        kind, strength = (("ahead", 5.5 + min(math.log2(ratio), 1.0)) if ratio >= 1 + NOISE else
                          ("on_par", 1.2) if ratio > 1 - NOISE else ("behind", 0.2))
        claims.append(Claim("price", kind, strength, dict(e), (e["system"]["result_id"], e["baseline"]["result_id"]),
                            derived=True))
    return claims


def energy(df: pd.DataFrame) -> list[Claim]:
    """The focus's power or energy results, where the round has them (one claim, its results cited)."""
    mine = df[df["mine"] & df["energy"].notna()]
    if mine.empty:
        return []
    rows = [row_facts(r) for _, r in mine.iterrows()]
    return [Claim("energy", "measured", 0.8, {"results": rows}, tuple(r["result_id"] for r in rows))]


def leadership_of_round(df: pd.DataFrame) -> list[Claim]:
    """With no focus: the best result of each benchmark (and scenario) of the closed division, and
    which submitters hold them."""
    bests = [row_facts(best_row(group)) for _, group in df[df["division"] == "closed"].groupby(GROUP, sort=True)]
    if not bests:
        return []
    holders: dict[str, int] = {}
    for best in bests:
        holders[best["submitter"]] = holders.get(best["submitter"], 0) + 1
    ranked = sorted(holders.items(), key=lambda h: (-h[1], h[0].lower()))
    return [Claim("leadership", "round_best", 5.0, {"bests": bests, "holders": [list(h) for h in ranked]},
                  tuple(b["result_id"] for b in bests))]
