"""Official MLPerf Training scoring of one system × benchmark result set.

The rules, as MLCommons' ``result_summarizer`` applies them: each converged run's time to train is
``(run_stop - run_start) / 60 / 1000`` minutes; the score is the olympic average (sort, drop the
fastest and the slowest — 4 each for unet3d — and average the rest); runs that did not converge count
as the dropped slowest; more of them than may be dropped means no score. ``scaling.json``'s factor
multiplies the score from Training v2.0 on only. A result set with fewer result files than the
benchmark requires is never scored.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from mlperf_report.suites.training import rounds

RESULT_KEY = ["round", "division", "submitter", "system_id", "benchmark"]


@dataclass(frozen=True)
class Score:
    """The outcome for one result set: a score, or the status word and sentence saying why not."""

    score_min: float | None
    status: str
    status_detail: str
    runs_found: int
    runs_required: int | None
    runs_converged: int
    scaling_factor: float


def olympic_average(minutes: list[float], failed: int, drop: int) -> float | None:
    """MLCommons' olympic average: ``failed`` runs already count as dropped slowest ones."""
    scores = sorted(minutes)
    countable = scores[drop:len(scores) - (drop - failed)]
    if not countable:
        return None
    return sum(countable) * 1.0 / len(countable)


def score_result_set(benchmark: str, round_: rounds.Round, converged_minutes: list[float],
                     runs_found: int, unreadable: int, scaling_factor: float | None,
                     in_round: bool = True) -> Score:
    """Score one result set: ``converged_minutes`` of its converged runs, out of ``runs_found`` files,
    ``unreadable`` of which are not MLLOG logs at all."""
    required = rounds.required_runs(benchmark)
    converged = len(converged_minutes)
    failed = runs_found - converged
    factor = float(scaling_factor) if scaling_factor is not None and round_.applies_scaling else 1.0

    def no_score(status: str, detail: str) -> Score:
        return Score(None, status, detail, runs_found, required, converged, factor)

    if required is None:
        return no_score("unknown_benchmark",
                        f"unknown_benchmark: '{benchmark}' is not an MLPerf Training benchmark known to mlperf-logging; not scored")
    if runs_found < required:
        return no_score("incomplete", f"incomplete: {runs_found} of {required} runs present")
    if factor != factor:  # NaN: the round applies scaling and this set's scaling.json is unusable
        return no_score("invalid", "invalid: its scaling.json is unusable (see the manifest's problems), so the "
                                   "scaled score cannot be computed")
    drop = rounds.dropped_each_side(benchmark)
    if failed > drop:
        word = "invalid" if unreadable else "not_converged"
        why = f"{unreadable} unreadable, {failed - unreadable} not converged" if unreadable else f"{failed} did not converge"
        return no_score(word, f"{word}: {failed} of {runs_found} runs failed ({why}); olympic scoring drops at most {drop}")
    average = olympic_average(converged_minutes, failed, drop)
    if average is None:
        return no_score("invalid", f"invalid: too few runs to average after dropping {drop} at each end")
    detail = "ok"
    if not in_round:
        detail = f"ok: '{benchmark}' is not a {round_.id} benchmark; scored with the round's rules"
    elif runs_found > required:
        detail = f"ok: {runs_found} result files, {required} required; all were scored, as MLCommons' summarizer does"
    return Score(average * factor, "ok", detail, runs_found, required, converged, factor)


def counted_runs(group: pd.DataFrame) -> tuple[pd.Series, list[str]]:
    """Which runs count as converged (as the summarizer sees them: converged and compliant, where a
    verdict exists), and the words of each converged run the compliance checker failed."""
    converged = group["converged"].astype(bool)
    if "compliant" not in group.columns:
        return converged, []
    failed = group["compliant"].map(lambda v: v is not None and v == v and not bool(v))  # None/NaN: unchecked
    words = group.loc[converged & failed].apply(
        lambda r: f"{r['run']}: {r.get('failed_check') or 'failed a compliance check'}", axis=1)
    return converged & ~failed, list(words)


def score_runs(runs: pd.DataFrame, sets: pd.DataFrame, round_: rounds.Round,
               scaling: dict[tuple[str, str, str], float]) -> pd.DataFrame:
    """One row per result set in ``sets`` (RESULT_KEY + ``absent`` and ``misnamed`` file counts),
    scored from its runs."""
    rows = []
    allowed = set(round_.benchmarks)
    groups = {key: group for key, group in runs.groupby(RESULT_KEY, sort=False, dropna=False)}
    for record in sets.to_dict("records"):
        key = tuple(record[k] for k in RESULT_KEY)
        group = groups.get(key, runs.iloc[0:0])
        benchmark = record["benchmark"]
        valid, noncompliant = counted_runs(group)
        converged = group.loc[valid, "time_to_train_min"].tolist()
        score = score_result_set(
            benchmark, round_, converged, runs_found=len(group),
            unreadable=int((group["run_start_ms"].isna() & group["run_stop_ms"].isna()).sum()),
            scaling_factor=scaling.get((record["submitter"], record["system_id"], benchmark)),
            in_round=not allowed or benchmark in allowed,
        )
        row = {**{k: record[k] for k in RESULT_KEY}, **score.__dict__, "runs_absent": int(record.get("absent") or 0),
               "runs_noncompliant": len(noncompliant)}
        if noncompliant:
            row["status_detail"] += (f" ({len(noncompliant)} converged run(s) failed MLCommons' compliance checker and "
                                     f"count as not converged; {noncompliant[0]})")
        if record.get("absent"):
            row["status_detail"] += f" ({record['absent']} listed as absent from this copy of the tree)"
        if record.get("misnamed") and score.status != "ok":
            row["status_detail"] += f" ({record['misnamed']} other files in the folder are not named result_*.txt)"
        rows.append(row)
    return pd.DataFrame(rows)
