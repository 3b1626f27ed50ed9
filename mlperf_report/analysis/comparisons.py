"""Like-for-like comparisons: who is the focus, scale classes, the baseline, names told apart.

DataFrames in, DataFrames (or rows and plain values) out, no file access.

- The focus (``core.config.Focus``): a submitter, every system on an accelerator, or nobody.
- Scale classes: results are compared with results of the same accelerator count ("fastest of 12
  closed systems with 8 accelerators"), never ranked against clusters a hundred times larger.
- The baseline of a benchmark: a pin from ``report.yaml``, else the fastest closed, available result
  on a competitor's accelerator with the focus system's accelerator count.
- Two systems of one benchmark and division that share a display name (same hardware, different
  software) get the framework, or failing that the system id, added to their name.
"""

from __future__ import annotations


import pandas as pd

from mlperf_report.analysis.vendors import VENDORS, vendor_of
from mlperf_report.core.config import Baseline, Focus



def focus_mask(results: pd.DataFrame, focus: Focus) -> pd.Series:
    """True for the rows that belong to the focus."""
    models = results["accelerator_model"] if "accelerator_model" in results else pd.Series("", index=results.index)
    return pd.Series([focus.matches(s, m) for s, m in zip(results["submitter"], models)], index=results.index, dtype=bool)


# --- names --------------------------------------------------------------------------------------

#: A framework text longer than this is not a readable name suffix; the system id is used instead.
_SHORT_FRAMEWORK = 32


def distinct_names(results: pd.DataFrame) -> pd.Series:
    """``display_name`` made unique per benchmark and division: where two systems of one submitter
    share a name, the framework (when it tells them apart and is short) or the system id is added."""
    names = results["display_name"].astype(str).tolist()
    keys = list(zip(results["benchmark"].astype(str), results["division"].astype(str),
                    results["submitter"].astype(str), names))
    system_ids = results["system_id"].astype(str).tolist()
    frameworks = (results["framework"].fillna("").astype(str).str.strip().tolist() if "framework" in results
                  else [""] * len(names))
    groups: dict[tuple, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    for rows in groups.values():
        ids = {system_ids[i] for i in rows}
        if len(ids) < 2:
            continue
        own = {frameworks[i] for i in rows}
        usable = len(own) == len(ids) and all(0 < len(f) <= _SHORT_FRAMEWORK for f in own)
        for i in rows:
            suffix = frameworks[i] if usable else system_ids[i]
            if suffix != names[i]:     # a system whose id is its name keeps it; the others get theirs
                names[i] = f"{names[i]} ({suffix})"
    return pd.Series(names, index=results.index)


# --- scale classes ------------------------------------------------------------------------------

def scale_class(scored: pd.DataFrame, accelerators: int) -> pd.DataFrame:
    """The scored results (one benchmark and division, fastest first) with ``accelerators`` accelerators."""
    return scored[scored["accelerators"] == accelerators].reset_index(drop=True)


def scale_classes(scored: pd.DataFrame) -> list[int]:
    """Accelerator counts present among scored results, smallest first."""
    counts = scored["accelerators"].dropna()
    return sorted(int(c) for c in counts.unique() if int(c) > 0)


def position_in_class(scored: pd.DataFrame, row: pd.Series) -> tuple[int, int] | None:
    """(position, systems) of ``row`` among results with its accelerator count (1 = fastest)."""
    if pd.isna(row.get("accelerators")):
        return None
    same = scale_class(scored, int(row["accelerators"]))
    hit = same.index[(same["submitter"] == row["submitter"]) & (same["system_id"] == row["system_id"])]
    return (int(hit[0]) + 1, len(same)) if len(hit) else None


def common_scale(scored: pd.DataFrame) -> int | None:
    """The accelerator count most results share (ties: the smaller count), the like-for-like class
    a neutral overview quotes besides the fastest result overall."""
    counts = scored["accelerators"].dropna().astype(int)
    counts = counts[counts > 0]
    if counts.empty:
        return None
    tally = counts.value_counts()
    best = tally.max()
    return int(min(tally[tally == best].index))


# --- baseline -----------------------------------------------------------------------------------

def _competitor_mask(df: pd.DataFrame, competitor: str, focus_vendors: set[str]) -> pd.Series:
    """Rows on the competitor's accelerator; any other vendor's when the competitor is ``auto`` or
    the focus's own vendor (an NVIDIA report compares with Google, AMD, Intel, ...)."""
    vendors = df["accelerator_model"].map(vendor_of) if "accelerator_model" in df else pd.Series(None, index=df.index)
    wanted = competitor.strip()
    known = {name.lower(): name for name, _ in VENDORS}
    if wanted.lower() == "auto" or known.get(wanted.lower()) in focus_vendors:
        return vendors.notna() & ~vendors.isin(focus_vendors)
    if wanted.lower() in known:
        return vendors == known[wanted.lower()]
    models = df["accelerator_model"].fillna("").astype(str).str.lower()
    return models.str.contains(wanted.lower(), regex=False)


def _pinned(df: pd.DataFrame, pin: str) -> pd.Series | None:
    submitter, _, system_id = pin.rpartition("/")
    mask = df["system_id"].str.lower() == system_id.lower()
    if submitter:
        mask &= df["submitter"].str.lower() == submitter.lower()
    hit = df[mask]
    return hit.iloc[0] if len(hit) else None


def choose_baseline(scored_division: pd.DataFrame, *, baseline: Baseline, focus_rows: pd.DataFrame,
                    pin: str | None = None) -> tuple[pd.Series | None, dict]:
    """The baseline result of one benchmark and how it was chosen.

    ``scored_division``: the benchmark's scored results of the baseline's division, fastest first;
    ``focus_rows``: the focus's scored closed results of the benchmark (any order).
    """
    rule = {"used": None, "pinned": pin or None, "competitor": baseline.competitor, "division": baseline.division,
            "accelerators": None, "candidates": 0}
    if pin:
        row = _pinned(scored_division, pin)
        if row is not None:
            return row, {**rule, "used": "pinned", "accelerators": _int(row.get("accelerators"))}
    df = scored_division
    if "availability" in df:
        df = df[df["availability"].fillna("") == "available"]
    if baseline.submitter:
        df = df[df["submitter"].str.lower() == baseline.submitter.lower()]
    focus_keys = set(zip(focus_rows["submitter"], focus_rows["system_id"]))
    df = df[[k not in focus_keys for k in zip(df["submitter"], df["system_id"])]]
    focus_vendors = {v for v in focus_rows.get("accelerator_model", pd.Series(dtype=str)).map(vendor_of) if v}
    df = df[_competitor_mask(df, baseline.competitor, focus_vendors)]
    if baseline.accelerators:
        counts = [baseline.accelerators]
    else:
        counts = sorted({int(c) for c in focus_rows["accelerators"].dropna()})
    for count in counts:
        same = df[df["accelerators"] == count]
        if len(same):
            return same.iloc[0], {**rule, "used": "rule", "accelerators": count, "candidates": len(same),
                                  "vendors": sorted({v for v in focus_vendors})}
    return None, {**rule, "vendors": sorted(focus_vendors)}


def _int(value) -> int | None:
    return None if value is None or pd.isna(value) else int(value)
