"""A Training round against MLCommons' own numbers: each submitter's ``summary.json`` and the results
table given with ``--official``.

From Training v6.0 on, every submitter folder holds ``summary.json``: mlperf-logging's result
summarizer's detailed output for that submitter (``summarize_results``: one entry per system with
``division``, ``availability``, ``submitter``, ``system``, ..., ``private_id``, per benchmark
``<benchmark>:time_to_train``, ``:Energy``, ``:GBS``, ``:samples_to_converge``, ``:RCP``,
``:rcp_scaling_factor``, then ``details_url`` (``.../systems/<system_id>.json``, which names the
system folder) and ``code_url``). The summarizer writes it with pandas' ``to_json``, which rounds to
10 decimal places, so times are compared at that precision. Where the summary applies an RCP scaling
factor the tree holds no ``scaling.json`` for (the RCP checker computed it at review), the tree alone
cannot give the published time: the official one is used and the result says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pandas as pd

from mlperf_report.ingest import official, result_ids
from mlperf_report.suites.training import official_time, rounds

#: Decimal places of the summarizer's JSON (pandas ``to_json``'s default ``double_precision``).
DECIMALS = 10
TOLERANCE = ("times in minutes equal within half a unit of the 10th decimal place (the summarizer writes "
             "summary.json with pandas' to_json, double_precision=10), plus 1e-12 of the value")
KEY = ["round", "submitter", "system_id", "benchmark"]
_REQUIRED = ("system", "details_url")


def check_round(source, files: dict[str, str], results: pd.DataFrame, result_sets, owner: Callable,
                contents: dict, problems: list[dict], strip: Callable[[str], str], table: Path | None = None,
                ) -> tuple[pd.DataFrame, dict, dict]:
    """The round against its submitters' summaries (``files``: :func:`summary_files`, found once by
    the ingest, which also reads them ahead from a tar) and the results table: the results (IDs,
    official times where an RCP factor is missing from the tree), the extra tables and the manifest's keys."""
    results = results.assign(mlcommons_id="")
    extra: dict = {}
    if table is not None:
        results, extra["official_ids"] = attach_ids(results, table, problems)
    if not files:
        return results, {}, {k: v for k, v in extra.items() if v}
    rows = {key: index for index, key in enumerate(zip(results["submitter"], results["system_id"], results["benchmark"]))}
    sets = {(org, sid, bench): rows[(owner(org, sid), sid, bench)]
            for org, sid, folder in result_sets for bench in [rounds.canonical_benchmark(folder)]
            if (owner(org, sid), sid, bench) in rows}
    summaries = read_summaries(source, files, contents, problems)
    results, check, used = compare(results.reset_index(drop=True), sets, summaries, files, strip)
    if check.files:
        extra["official_summary"] = check.manifest(TOLERANCE, official_times_used=used)
    return results, official.official_tables(check), {k: v for k, v in extra.items() if v}


def summary_files(names: list[str], top: str) -> dict[str, str]:
    """``{org: <top>/<org>/summary.json}`` among the tree's entry names."""
    prefix = top.rstrip("/") + "/" if top else ""
    found = {}
    for name in names:
        rel = name[len(prefix):].split("/") if name.startswith(prefix) else []
        if len(rel) == 2 and rel[1] == "summary.json":
            found[rel[0]] = name
    return found


def read_summaries(source, files: dict[str, str], contents: dict, problems: list[dict]) -> dict[str, list]:
    """``{org: [(system_id, entry), ...]}`` of every usable summary; an unusable one is a problem."""
    summaries = {}
    for org, name in sorted(files.items()):
        try:
            data = contents.get(name)
            if isinstance(data, Exception):
                raise data
            entries = official.json_list(data if data is not None else official.read_capped(source, name), _REQUIRED)
            summaries[org] = [(_system_id(entry, number), entry) for number, entry in enumerate(entries, 1)]
        except Exception as error:  # noqa: BLE001 - OfficialError, a limit, a damaged member: this file only
            problems.append({"file": name, "problem": f"MLCommons summary not used: {error}"})
    return summaries


def _system_id(entry: dict, number: int) -> str:
    url = str(entry.get("details_url") or "")
    stem = url.rsplit("/systems/", 1)[-1] if "/systems/" in url else ""
    if not stem.endswith(".json") or "/" in stem or stem == ".json":
        raise official.OfficialError(f"entry {number}: details_url {url!r} names no .../systems/<system_id>.json")
    return stem[: -len(".json")]


def _official_times(entries: list) -> dict[tuple[str, str], dict]:
    """``{(system_id, benchmark): entry's time, factor, RCP}`` for every benchmark the entry carries."""
    times = {}
    for system_id, entry in entries:
        for key, value in entry.items():
            if isinstance(key, str) and key.endswith(":time_to_train"):
                bench = key[: -len(":time_to_train")]
                times[(system_id, rounds.canonical_benchmark(bench))] = {
                    "time": official.number(value), "raw": value,
                    "factor": official.number(entry.get(f"{bench}:rcp_scaling_factor")),
                    "rcp": entry.get(f"{bench}:RCP")}
    return times


def compare(results: pd.DataFrame, sets: dict[tuple[str, str, str], int], summaries: dict[str, list],
            files: dict[str, str], strip: Callable[[str], str]) -> tuple[pd.DataFrame, official.Check, list]:
    """Every result of a submitter with a summary compared with it; ``sets``: (org, system_id,
    benchmark) -> row of ``results``. Returns the results (official times used where the summary
    applies an RCP factor the tree lacks), the comparisons and those uses."""
    check = official.Check(KEY, files=[strip(files[org]) for org in summaries])
    results = results.copy()
    used = []
    for org, entries in sorted(summaries.items()):
        times = _official_times(entries)
        ours = {(sid, bench): index for (o, sid, bench), index in sets.items() if o == org}
        for sid, bench in sorted(set(ours) | {k for k, v in times.items() if v["time"] is not None}):
            index = ours.get((sid, bench))
            row = results.loc[index] if index is not None else None
            theirs = times.get((sid, bench)) or {"time": None, "raw": None, "factor": None, "rcp": None}
            outcome = _compare_one(check, row, theirs, {"round": results["round"].iloc[0], "submitter": org,
                                                       "system_id": sid, "benchmark": bench}, strip(files[org]))
            if outcome is not None:
                results.loc[index, ["score_min", "scaling_factor", "status_detail"]] = outcome
                used.append({"submitter": row["submitter"], "system_id": sid, "benchmark": bench,
                             "computed_min": float(row["score_min"]), "official_min": outcome[0],
                             "rcp_scaling_factor": outcome[1], "file": strip(files[org])})
    return results, check, used


def _compare_one(check: official.Check, row, theirs: dict, key: dict, file: str):
    """One result against the summary; returns (score, factor, detail) when the official time is used."""
    here = float(row["score_min"]) if row is not None and row["status"] == "ok" else None
    if row is not None:
        key = {**key, "submitter": row["submitter"]}
    if here is None and theirs["time"] is None:
        return None
    if theirs["time"] is None:
        why = f"the summary has no time for it (RCP: {theirs['rcp']})" if theirs["raw"] is None and theirs["rcp"] \
            else "no time for it in the summary"
        check.add(key, here, None, "only_here", "unknown", why, file)
        return None
    if here is None:
        cause, detail = _cause(row)
        check.add(key, None, theirs["time"], "only_there", cause, detail, file)
        return None
    if official.same(here, theirs["raw"], DECIMALS):
        check.add(key, here, theirs["time"], "equal", file=file)
        return None
    factor = theirs["factor"]
    lacks = factor is not None and factor != 1 and (pd.isna(row["scaling_factor"]) or row["scaling_factor"] == 1)
    if lacks and official.same(here * factor, theirs["raw"], DECIMALS):
        detail = (f"the summary applies RCP scaling factor {factor:g}, the tree holds no scaling.json: "
                  f"the official time is used")
        check.add(key, here, theirs["time"], "differ", "rcp_scaling_factor", detail, file)
        return (theirs["time"], factor, f"{row['status_detail']} (time to train: {theirs['time']:.4f} min, MLCommons' "
                f"summary {file}, with its RCP scaling factor {factor:g}; {official_time.MARK} {here:.4f} min)")
    cause, detail = _cause(row)
    if lacks:
        cause, detail = "rcp_scaling_factor", (f"the summary applies RCP scaling factor {factor:g}, the tree holds "
                                               "no scaling.json, and the time x factor still differs")
    check.add(key, here, theirs["time"], "differ", cause, detail, file)
    return None


def _cause(row) -> tuple[str, str]:
    """The likely cause of a difference, from the tool's own word on the result."""
    if row is None:
        return "runs_missing", "no results folder for it in this copy of the tree"
    detail = str(row["status_detail"])
    if int(row.get("runs_noncompliant") or 0) or row["status"] == "not_converged":
        return "compliance_verdict", detail
    if int(row.get("runs_absent") or 0) or row["status"] == "incomplete":
        return "runs_missing", detail
    return "unknown", (f"the tree's {int(row.get('runs_found') or 0)} runs score it by the round's rules "
                       f"(status {row['status']}); no known cause")


def attach_ids(results: pd.DataFrame, table: Path, problems: list[dict]) -> tuple[pd.DataFrame, dict | None]:
    """The ``mlcommons_id`` of every result whose system the results table names, and what was matched
    (a table that cannot be used is a problem; the IDs then stay empty)."""
    try:
        rows, sheet_problems = result_ids.read_table(table)
    except official.OfficialError as error:
        problems.append({"file": str(table), "problem": f"MLCommons results table not used: {error}"})
        return results, None
    problems.extend({"file": str(table), "problem": problem} for problem in sheet_problems)
    systems = results[["submitter", "system_name", "system_id"]].drop_duplicates()
    ids, unmatched = result_ids.match_ids(rows, list(systems.itertuples(index=False, name=None)))
    found = [ids.get((s, sid), "") for s, sid in zip(results["submitter"], results["system_id"])]
    return results.assign(mlcommons_id=found), {
        "file": str(table), "rows": len(rows), "matched": len(ids),
        "unmatched": [f"{row.where}: {row.id} {row.submitter} / {row.system}" for row in unmatched]}
