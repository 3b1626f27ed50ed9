"""Shaping the ingest tables into what the charts, tables and figures.json show.

DataFrames in, DataFrames (or rows) out, no file access. Every selection is sorted on a full key
(score, then submitter, then system) so ties never depend on file order, which keeps charts and
figures.json deterministic. Closed and open results are never mixed in one comparison.
"""

from __future__ import annotations

from typing import Mapping

import pandas as pd

from mlperf_report.analysis import comparisons
from mlperf_report.core.config import DIVISIONS, Baseline, Focus, focus_of
from mlperf_report.core.prices import Catalogue
from mlperf_report.core.rounds import parse_round_id

_ORDER = ["score_min", "submitter", "system_id", "division"]
_KEY_COLUMNS = ("division", "submitter", "system_id", "benchmark", "status")
_INT_COLUMNS = ("accelerators", "host_processors", "nodes", "runs_found", "runs_required", "runs_converged")


def prepare_results(results: pd.DataFrame, catalogue: Catalogue | None = None, round_id: str | None = None) -> pd.DataFrame:
    """Types fixed (counts as nullable ints, score as float) and a ``display_name`` per row."""
    df = results.copy()
    df["score_min"] = pd.to_numeric(df["score_min"], errors="coerce")
    for column in _INT_COLUMNS:
        if column in df:
            df[column] = pd.to_numeric(df[column], errors="coerce").round().astype("Int64")
    for column in ("submitter", "system_id", "system_name", "division", "benchmark", "status"):
        if column in df:
            df[column] = df[column].astype("string")
    # Key columns never NA (a result whose systems JSON is missing has no division): comparisons on
    # them must be True or False, and the row still shows up, with its status, in the results table.
    for column in _KEY_COLUMNS:
        if column in df:
            df[column] = df[column].fillna("")
    catalogue = catalogue or Catalogue()
    df["display_name"] = [catalogue.display_name(_row_dict(row), round_id) for _, row in df.iterrows()]
    if len(df) and {"benchmark", "division", "system_id"} <= set(df.columns):
        df["display_name"] = comparisons.distinct_names(df)
    return df


def _row_dict(row: pd.Series) -> dict:
    return {k: (None if _missing(v) else v) for k, v in row.items()}


def _missing(value) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _sorted(df: pd.DataFrame) -> pd.DataFrame:
    keys = [k for k in _ORDER if k in df]
    return df.sort_values(keys, kind="mergesort", na_position="last").reset_index(drop=True)


def scored(results: pd.DataFrame, *, benchmark: str | None = None, division: str | None = None) -> pd.DataFrame:
    """Results with an official score, fastest first.

    Every comparison starts here, so a notebook asks it of the same frame a dozen times or more (a
    fifth of a Training v4.1 notebook's time in a kernel whose charts come from the memo): each answer
    is kept while that frame lives (:func:`_kept_for`) and handed out as a copy of its own."""
    kept = _kept_for(results)
    key = (benchmark, division)
    if key not in kept:
        mask = (results["status"] == "ok") & results["score_min"].notna()
        if benchmark is not None:
            mask &= results["benchmark"] == benchmark
        if division is not None:
            mask &= results["division"] == division
        kept[key] = _sorted(results[mask])
    return kept[key].copy()


_SCORED: dict[int, tuple] = {}  # id(results) -> (a weak reference to it, its shape, {(benchmark, division): scored})


def _kept_for(results: pd.DataFrame) -> dict:
    """The answers :func:`scored` keeps for ``results``: for as long as that very frame lives, and
    of its shape (the tables are read and prepared, then only selected from, never changed in place)."""
    import weakref

    entry = _SCORED.get(id(results))
    if entry is None or entry[0]() is not results or entry[1] != results.shape:
        gone = lambda _, key=id(results): _SCORED.pop(key, None)  # noqa: E731  (its id may be reused)
        entry = _SCORED[id(results)] = (weakref.ref(results, gone), results.shape, {})
    return entry[2]


def unscored(results: pd.DataFrame, *, benchmark: str | None = None) -> pd.DataFrame:
    """Results without a score, with the reason: listed in the report, never dropped silently."""
    mask = results["status"] != "ok"
    if benchmark is not None:
        mask &= results["benchmark"] == benchmark
    df = results[mask]
    return df.sort_values(["division", "submitter", "system_id"], kind="mergesort").reset_index(drop=True)


def fastest(results: pd.DataFrame, *, benchmark: str) -> dict[str, pd.Series | None]:
    """The fastest scored result of each division (None when a division has none)."""
    out = {}
    for division in DIVISIONS:
        df = scored(results, benchmark=benchmark, division=division)
        out[division] = df.iloc[0] if len(df) else None
    return out


def as_focus(focus: Focus | str | None) -> Focus:
    """A Focus from a Focus or a ``--focus`` text (a submitter, or ``none``)."""
    return focus if isinstance(focus, Focus) else focus_of(focus)


def focus_results(results: pd.DataFrame, *, benchmark: str, submitter: Focus | str) -> dict[str, pd.DataFrame]:
    """The focus's scored results per division, fastest first (a submitter's, or every system on an
    accelerator; none for ``--focus none``)."""
    df = scored(results, benchmark=benchmark)
    mine = df[comparisons.focus_mask(df, as_focus(submitter))] if len(df) else df
    return {division: mine[mine["division"] == division].reset_index(drop=True) for division in DIVISIONS}


def choose_baseline(results: pd.DataFrame, *, benchmark: str, baseline: Baseline, focus: Focus | None = None,
                    round_id: str | None = None, system_id: str | None = None) -> tuple[pd.Series | None, dict]:
    """The comparison system's scored result and how it was chosen (``comparisons.choose_baseline``):
    ``system_id`` or the configuration's pin for the round when this round has it, else the fastest
    closed, available result on a competitor's accelerator at the focus system's accelerator count
    (pinned systems are round-specific: v1.1 calls v1.0's ``dgxa100_ngc21.05_mxnet`` ``..21.09..``)."""
    df = scored(results, benchmark=benchmark, division=baseline.division)
    closed = scored(results, benchmark=benchmark, division="closed")
    focus_rows = closed[comparisons.focus_mask(closed, focus)] if focus is not None and len(closed) else closed.iloc[0:0]
    pin = system_id or baseline.system_for(benchmark, round_id)
    return comparisons.choose_baseline(df, baseline=baseline, focus_rows=focus_rows, pin=pin)


def resolve_baseline(results: pd.DataFrame, *, benchmark: str, baseline: Baseline, focus: Focus | None = None,
                     round_id: str | None = None, system_id: str | None = None) -> pd.Series | None:
    """The baseline row of ``choose_baseline`` alone."""
    return choose_baseline(results, benchmark=benchmark, baseline=baseline, focus=focus, round_id=round_id,
                           system_id=system_id)[0]


def with_prices(results: pd.DataFrame, catalogue: Catalogue, round_id: str | None = None) -> pd.DataFrame:
    """Adds the catalogue price (``price_*`` columns, empty when the system has none)."""
    df = results.copy()
    prices = [catalogue.price(row["submitter"], row["system_id"], round_id) for _, row in df.iterrows()]
    df["price_amount"] = pd.array([p.amount if p else None for p in prices], dtype="Float64")
    df["price_currency"] = pd.array([p.currency if p else None for p in prices], dtype="string")
    df["price_source"] = pd.array([p.source if p else None for p in prices], dtype="string")
    df["price_date"] = pd.array([p.date if p else None for p in prices], dtype="string")
    df["price_source_by_lang"] = [dict(p.source_by_lang) if p and p.source_by_lang else None for p in prices]
    return df


def perf_per_dollar(results: pd.DataFrame, *, benchmark: str, baseline_row: pd.Series | None,
                    catalogue: Catalogue, round_id: str | None = None) -> pd.DataFrame:
    """Scored results of the baseline's division with perf/$ = (1 / minutes) / price and the ratio
    to the baseline's perf/$ (NaN without a price, a baseline price, or with another currency).

    Systems without a price stay in the frame (``price_amount`` empty) so the report can list them.
    Sorted by ratio, best first, then unpriced systems by score.
    """
    division = baseline_row["division"] if baseline_row is not None else "closed"
    df = with_prices(scored(results, benchmark=benchmark, division=division), catalogue, round_id)
    df["perf_per_dollar"] = (1.0 / df["score_min"]) / df["price_amount"]
    df["is_baseline"] = False
    df["ratio"] = pd.array([None] * len(df), dtype="Float64")
    if baseline_row is not None:
        is_base = (df["submitter"] == baseline_row["submitter"]) & (df["system_id"] == baseline_row["system_id"])
        df["is_baseline"] = is_base.astype(bool)
        base = df[is_base]
        if len(base) and pd.notna(base["perf_per_dollar"].iloc[0]):
            same_currency = df["price_currency"] == base["price_currency"].iloc[0]
            df["ratio"] = (df["perf_per_dollar"] / base["perf_per_dollar"].iloc[0]).where(same_currency)
    df["_has_ratio"] = df["ratio"].notna()
    df = df.sort_values(["_has_ratio", "ratio", "score_min", "submitter", "system_id"],
                        ascending=[False, False, True, True, True], kind="mergesort", na_position="last")
    return df.drop(columns="_has_ratio").reset_index(drop=True)


def scaling_points(results: pd.DataFrame, *, benchmark: str, division: str = "closed") -> pd.DataFrame:
    """Scored results with a known accelerator count, for time-to-train vs accelerators."""
    df = scored(results, benchmark=benchmark, division=division)
    df = df[df["accelerators"].notna() & (df["accelerators"] > 0)]
    return df.sort_values(["submitter", "accelerators", "score_min", "system_id"], kind="mergesort").reset_index(drop=True)


def ideal_scaling(points: pd.DataFrame) -> pd.DataFrame:
    """Per submitter, the ideal-scaling line through its smallest system: minutes × accelerators constant."""
    rows = []
    for submitter, group in points.groupby("submitter", sort=True):
        if group["accelerators"].nunique() < 2:
            continue
        smallest = group.sort_values(["accelerators", "score_min"], kind="mergesort").iloc[0]
        work = float(smallest["score_min"]) * int(smallest["accelerators"])
        for count in (int(group["accelerators"].min()), int(group["accelerators"].max())):
            rows.append({"submitter": submitter, "accelerators": count, "minutes": work / count})
    return pd.DataFrame(rows, columns=["submitter", "accelerators", "minutes"])


def run_times(runs: pd.DataFrame, *, benchmark: str, systems: pd.DataFrame) -> pd.DataFrame:
    """Every run of the given systems (rows with division, submitter, system_id, display_name)."""
    runs = runs.assign(**{c: runs[c].astype("string").fillna("") for c in _KEY_COLUMNS if c in runs})
    df = runs[runs["benchmark"] == benchmark].copy()
    df["time_to_train_min"] = pd.to_numeric(df["time_to_train_min"], errors="coerce")
    df["converged"] = df["converged"].astype(str).str.lower().isin(["true", "1", "yes"])
    keys = systems[["division", "submitter", "system_id", "display_name"]].drop_duplicates()
    df = df.merge(keys, on=["division", "submitter", "system_id"], how="inner")
    df = df[df["time_to_train_min"].notna()]
    return df.sort_values(["division", "submitter", "system_id", "run", "file"], kind="mergesort").reset_index(drop=True)


def round_bests(results_by_round: Mapping[str, pd.DataFrame], *, benchmark: str, division: str = "closed") -> pd.DataFrame:
    """Best scored result per submitter in each round, rounds in order."""
    frames = []
    for round_id in sorted(results_by_round, key=parse_round_id):
        df = scored(results_by_round[round_id], benchmark=benchmark, division=division)
        best = df.drop_duplicates("submitter", keep="first").copy()
        best["round"] = round_id
        frames.append(best)
    if not frames:
        return pd.DataFrame(columns=["round", "submitter", "system_id", "score_min"])
    out = pd.concat(frames, ignore_index=True)
    out["_round"] = out["round"].map(lambda r: (parse_round_id(r).major, parse_round_id(r).minor))
    return out.sort_values(["_round", "score_min", "submitter"], kind="mergesort").drop(columns="_round").reset_index(drop=True)


def best_of(results: pd.DataFrame, *, benchmark: str, submitter: Focus | str | None, division: str = "closed") -> pd.Series | None:
    """The focus's fastest scored result of one benchmark and division; the fastest of all with no focus."""
    df = scored(results, benchmark=benchmark, division=division)
    focus = as_focus(submitter)
    if focus.kind != "none" and len(df):
        df = df[comparisons.focus_mask(df, focus)]
    return df.iloc[0] if len(df) else None


def speedup(before: pd.Series | None, after: pd.Series | None) -> float | None:
    """How many times faster ``after`` trains than ``before`` (None when either is missing)."""
    if before is None or after is None:
        return None
    return float(before["score_min"]) / float(after["score_min"])


# --- the round at a glance (summary notebook) ---------------------------------------------------

def submissions(results: pd.DataFrame) -> pd.DataFrame:
    """Submitter × benchmark: number of scored systems (0 where only unscored entries exist)."""
    df = results.assign(scored=(results["status"] == "ok").astype(int))
    table = df.pivot_table(index="submitter", columns="benchmark", values="scored", aggfunc="sum", fill_value=0)
    return table.sort_index(key=lambda s: s.str.lower()).reindex(sorted(table.columns), axis=1)


def focus_positions(results: pd.DataFrame, *, submitter: Focus | str, division: str = "closed") -> pd.DataFrame:
    """Per benchmark: the focus's best, its position among the systems with the same accelerator count
    (its scale class) and among all, and the fastest result overall and in that class."""
    focus = as_focus(submitter)
    rows = []
    for benchmark in sorted(results["benchmark"].dropna().unique()):
        df = scored(results, benchmark=benchmark, division=division)
        if df.empty:
            continue
        by_submitter = df.drop_duplicates("submitter", keep="first").reset_index(drop=True)
        mine = df[comparisons.focus_mask(df, focus)]
        row = {"benchmark": benchmark, "division": division, "systems": len(df), "submitters": len(by_submitter),
               "fastest_submitter": df.iloc[0]["submitter"], "fastest_system_id": df.iloc[0]["system_id"],
               "fastest_minutes": float(df.iloc[0]["score_min"]),
               "focus_system_id": None, "focus_minutes": None, "system_position": None, "submitter_position": None,
               "accelerators": None, "class_position": None, "class_systems": None}
        if len(mine):
            best = mine.iloc[0]
            in_class = comparisons.position_in_class(df, best)
            row.update(focus_system_id=best["system_id"], focus_minutes=float(best["score_min"]),
                       system_position=int(mine.index[0]) + 1,
                       submitter_position=int(by_submitter.index[by_submitter["submitter"] == best["submitter"]][0]) + 1,
                       accelerators=None if pd.isna(best["accelerators"]) else int(best["accelerators"]),
                       class_position=in_class[0] if in_class else None, class_systems=in_class[1] if in_class else None)
        rows.append(row)
    out = pd.DataFrame(rows, columns=["benchmark", "division", "systems", "submitters", "fastest_submitter",
                                      "fastest_system_id", "fastest_minutes", "focus_system_id", "focus_minutes",
                                      "system_position", "submitter_position", "accelerators", "class_position",
                                      "class_systems"])
    for column in ("system_position", "submitter_position", "accelerators", "class_position", "class_systems"):
        out[column] = out[column].astype("Int64")
    return out
