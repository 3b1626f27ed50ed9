"""Tables of the report as DataFrames with translated headings, and their deterministic HTML.

The results table lists every entry of a benchmark, scored or not: an incomplete or unconverged
result is shown with the reason (``status_detail``) instead of being dropped.
"""

from __future__ import annotations


import pandas as pd

from mlperf_report.core import languages
from mlperf_report.i18n import formatting
from mlperf_report.suites.training import rounds
from mlperf_report.i18n.labels import label


def _count(value) -> str:
    return "" if pd.isna(value) else str(int(value))


def _runs(row) -> str:
    return f"{_count(row['runs_converged'])} / {_count(row['runs_found'])} / {_count(row['runs_required'])}"


def _minutes(value) -> str:
    return "" if pd.isna(value) else formatting.minutes(float(value), places=formatting.TABLE_PLACES)


#: Statuses whose reason is said from the counts in the report's language (``status.<word>`` in the
#: catalogue); English reports show the sentence ingest wrote, which says the same with more detail.
_STATUS_WORDS = ("incomplete", "not_converged", "invalid", "no_system_json", "unknown_benchmark")


def _energy(value, lang: str) -> str:
    return "" if pd.isna(value) else formatting.fixed(float(value) / 1e6, 2, lang)


def status_text(row, lang: str) -> str:
    """The status cell: "scored" (and which runs the score excludes for failing MLCommons' compliance
    checker), else why not, in ``lang``."""
    if row["status"] == "ok":
        excluded = row.get("runs_noncompliant")
        if not pd.isna(excluded) and int(excluded or 0) > 0:
            if lang == languages.SOURCE:
                return str(row.get("status_detail") or label("status.ok", lang))
            return label("status.ok_noncompliant", lang, noncompliant=int(excluded))
        return label("status.ok", lang)
    if lang == languages.SOURCE or row["status"] not in _STATUS_WORDS:
        return str(row.get("status_detail") or row["status"])
    found, required, converged = (int(row[c]) if not pd.isna(row.get(c)) else 0
                                  for c in ("runs_found", "runs_required", "runs_converged"))
    text = label(f"status.{row['status']}", lang, found=found, required=required, failed=found - converged,
                 drop=rounds.dropped_each_side(str(row["benchmark"])))
    absent = row.get("runs_absent")
    if row["status"] == "incomplete" and not pd.isna(absent) and int(absent) > 0:
        text += label("status.absent", lang, absent=int(absent))
    return text


def results_table(results: pd.DataFrame, *, lang: str = "en") -> pd.DataFrame:
    """Every entry of one benchmark: scored ones fastest first per division, then the unscored."""
    df = results.assign(_ok=(results["status"] == "ok"))
    df = df.sort_values(["division", "_ok", "score_min", "submitter", "system_id"],
                        ascending=[True, False, True, True, True], kind="mergesort", na_position="last")
    table = {
        label("col.division", lang): [label(f"division.{d}", lang) if d in ("closed", "open") else d for d in df["division"]],
        label("col.submitter", lang): df["submitter"].astype(str),
        label("col.system", lang): df["display_name"].astype(str),
        label("col.accelerators", lang): [_count(v) for v in df["accelerators"]],
        label("col.framework", lang): df["framework"].fillna("").astype(str),
        label("col.minutes", lang): [_minutes(v) for v in df["score_min"]],
    }
    if "energy_j" in df.columns and df["energy_j"].notna().any():  # MLPerf Training Power results
        table[label("col.energy", lang)] = [_energy(v, lang) for v in df["energy_j"]]
    table[label("col.runs", lang)] = [_runs(row) for _, row in df.iterrows()]
    table[label("col.status", lang)] = [status_text(row, lang) for _, row in df.iterrows()]
    return pd.DataFrame(table)


def _role(row, focus, baseline, lang: str) -> str:
    key = (str(row["submitter"]), str(row["system_id"]))
    if baseline and key == tuple(baseline):
        return label("legend.baseline", lang)
    focused = focus and (str(row["submitter"]).lower() == focus.lower() if isinstance(focus, str) else key in focus)
    return label("role.focus", lang) if focused else ""


def equal_scale_table(data: pd.DataFrame, *, focus=None, baseline: tuple[str, str] | None = None,
                      lang: str = "en") -> pd.DataFrame:
    """Closed results of one scale class (same accelerator count), fastest first, the focus and the
    baseline marked (a column left out when neither is in the class): the like-for-like comparison,
    with or without prices."""
    roles = [_role(row, focus, baseline, lang) for _, row in data.iterrows()]
    table = pd.DataFrame({
        label("col.rank", lang): ([str(int(r)) for r in data["rank"]] if "rank" in data  # a cut class keeps its ranks
                                  else [str(i + 1) for i in range(len(data))]),
        label("col.submitter", lang): data["submitter"].astype(str),
        label("col.system", lang): data["display_name"].astype(str),
        label("col.accelerators", lang): [_count(v) for v in data["accelerators"]],
        label("col.minutes", lang): [_minutes(v) for v in data["score_min"]],
    })
    if any(roles):
        table[label("col.role", lang)] = roles
    return table


def equal_scale_sentence(data: pd.DataFrame, *, no_price: bool, shown: int | None = None, lang: str = "en") -> str:
    """The sentence above the equal-scale table: what it compares, (``no_price``: a baseline but no
    performance per dollar) that no price is on file, and (``shown`` fewer than all) which it lists."""
    if data.empty:
        return ""
    count = formatting.count(int(data["accelerators"].iloc[0]))
    key = "equal_scale.no_price" if no_price else "equal_scale.priced"
    text = label(key, lang, count=count, systems=formatting.count(len(data)))
    if shown is not None and shown < len(data):
        text += label("equal_scale.cut", lang, shown=formatting.count(shown))
    return text


