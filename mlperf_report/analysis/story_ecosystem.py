"""The story engine's ecosystem angle: who else built on the focus's chips, and how many of the
round's systems run on the focus's host processors.

A chip vendor's release counts its partners ("15 partners submitted on our platform") and names the
closest partner result; a processor vendor's counts the systems its CPUs host ("Xeon hosts 58 % of
the systems"). Partner results in the open division are compared with the vendor's only within one
model (``claims.GROUP``), so they are never compared across submitters at all.
"""

from __future__ import annotations

import pandas as pd

from mlperf_report.analysis.claims import GROUP, Claim, Focus, best_row, row_facts
from mlperf_report.analysis.vendors import host_vendor_of, vendor_of
from mlperf_report.core.accelerators import Generations


def _on_chips(df: pd.DataFrame, focus: Focus) -> tuple[pd.DataFrame, str | None] | None:
    """The results on the focus's chips and the name of their vendor among the submitters."""
    if focus.kind == "accelerator":
        on_it = df[df["mine"]]
        vendor = (vendor_of(on_it["accelerator_model"].iloc[0]) or "").lower() if len(on_it) else ""
        return on_it, next((s for s in on_it["submitter"].unique() if str(s).lower() == vendor), None)
    if focus.kind != "submitter":
        return None
    vendors = {vendor_of(m) for m in df.loc[df["mine"], "chip"]}
    own = next((v for v in sorted(v for v in vendors if v) if v.lower() == focus.name.lower()), None)
    if own is None:
        return None
    on_it = df[df["chip"].map(vendor_of) == own]
    return on_it, next((s for s in on_it["submitter"].unique() if str(s).lower() == own.lower()), None)


def ecosystem(df: pd.DataFrame, focus: Focus, generations: Generations, *, systems: pd.DataFrame | None = None,
              ) -> list[Claim]:
    """The partners who submitted on the focus's accelerators (or processors), and how close they
    come to its own; for a processor vendor, the systems its processors host (among ``systems``: every
    result of the round, mixed-chip systems included; default ``df``)."""
    found = _on_chips(df, focus)
    claims = host_share(df if systems is None else systems, focus)
    if found is None:
        return claims
    on_it, own_name = found
    partners = on_it[on_it["submitter"] != own_name] if own_name else on_it
    if partners["submitter"].nunique() < (1 if own_name else 2):
        return claims
    counts = partners.groupby("submitter").size()
    names = sorted(counts.index, key=lambda s: (-counts[s], str(s).lower()))
    kinds = set(partners["chip_kind"])
    facts: dict = {"partners": [str(s) for s in names], "results": int(len(partners)), "own": own_name,
                   "counts": [int(counts[s]) for s in names],  # each partner's results, as ``partners`` orders them
                   "closest": _closest_partner(on_it, own_name, generations) if own_name else None,
                   "kind": "both" if len(kinds) > 1 else (kinds.pop() if kinds else "accelerator")}
    cites = tuple(partners["result_id"].head(12))
    # an accelerator's story is its partners' story: it leads; for a chip vendor it is one claim of several
    base = 5.5 if focus.kind == "accelerator" else 1.5
    return [Claim("ecosystem", "partners", base + min(0.15 * len(names), 1.5), facts, cites,
                  derived=facts["closest"] is not None)] + claims


def _closest_partner(on_it: pd.DataFrame, own_name: str, generations: Generations) -> dict | None:
    """The partner result closest to the vendor's own on the same chip generation and count (same
    benchmark and division)."""
    best = None
    counted = on_it[on_it["chips"].notna() & on_it["chips"].gt(0)]
    # a chip the catalogue does not know is its own group, never one of a catalogued generation
    counted = counted.assign(generation=counted["chip"].map(lambda m: getattr(generations.of(m), "name", None)
                                                            or f"as written: {m}"))
    for _, group in counted.groupby(GROUP + ["chip_kind", "chips", "generation"], sort=True):
        own, partners = group[group["submitter"] == own_name], group[group["submitter"] != own_name]
        if own.empty or partners.empty:
            continue
        top, partner = best_row(own), best_row(partners)
        ratio = partner["perf"] / top["perf"]
        if best is None or abs(1 - ratio) < abs(1 - best["ratio"]):
            best = {"own": row_facts(top), "partner": row_facts(partner), "ratio": ratio}
    return best


#: A processor family every hosted system's model name shows, said with the vendor ("Intel Xeon");
#: Grace is also written by its cores' name, "Neoverse-V2".
_BRANDS = (("Xeon", r"xeon"), ("EPYC", r"epyc"), ("Grace", r"\bgrace\b|neoverse[-_ ]?v2\b"))


def host_share(df: pd.DataFrame, focus: Focus) -> list[Claim]:
    """For a processor vendor: how many of the round's systems with a valid result its processors
    host (each system counted once, every division), and whether that is more than any other vendor's.
    A host of no known family ("ARM Cortex-A78AE", "Ampere Altra") counts for no vendor."""
    if focus.kind != "submitter" or df.empty:
        return []
    systems = df.drop_duplicates(["submitter", "system_id"])
    vendors = systems["host_processor_model"].map(host_vendor_of).fillna("")
    hosted = systems[vendors.str.lower() == focus.name.lower()]
    if len(hosted) < 2 or len(systems) < 3:
        return []
    others = vendors[(vendors.str.lower() != focus.name.lower()) & (vendors != "")].value_counts()
    share = len(hosted) / len(systems)
    models = hosted["host_processor_model"].astype(str).str.lower()
    brand = next((b for b, pattern in _BRANDS if models.str.contains(pattern, regex=True).all()), "")
    facts = {"vendor": str(vendors[hosted.index].iloc[0]), "systems": int(len(hosted)),
             "of": int(len(systems)), "share": share, "submitters": int(hosted["submitter"].nunique()),
             "most": bool(others.empty or len(hosted) > int(others.max())), "brand": brand}
    strength = 1.5 + 2.5 * share + (0.5 if facts["most"] else 0.0)
    return [Claim("ecosystem", "host_share", strength, facts, tuple(hosted["result_id"].head(12)), derived=True)]
