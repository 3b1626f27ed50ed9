"""An Inference round against MLCommons' own summary: ``summary_results.json`` at the tree's root.

Recent ``inference_results_vX.Y`` repositories hold it: a JSON list with one entry per system, model and
scenario (``ID`` such as ``5.1-0061``, ``Submitter``, ``Category``, ``System``, ``Platform``, ``Model``,
``Scenario``, ``Location`` = ``closed/Lenovo/results/<system>/<model>/<scenario>``,
``Performance_Result``, ``Performance_Units``, ``Power_Result``, ...). Each entry is matched to its
result folder by ``Location``: the row gets the MLPerf result ID (``mlcommons_id``), and every valid
result is compared with ``Performance_Result`` at the precision the summary writes it with.
"""

from __future__ import annotations

from typing import Callable

import pandas as pd

from mlperf_report.ingest import official

NAME = "summary_results.json"
TOLERANCE = ("Performance_Result equal within half a unit of the last decimal place it is written with, "
             "plus 1e-12 of the value")
KEY = ["round", "division", "submitter", "system_id", "model", "scenario"]
_REQUIRED = ("ID", "Location", "Performance_Result")


def check_round(source, names: list[str], top: str, results: pd.DataFrame, problems: list[dict],
                strip: Callable[[str], str]) -> tuple[pd.DataFrame, dict, dict]:
    """The results with their MLPerf result IDs, official_check.csv and the manifest's
    ``official_summary``, for a tree whose root holds ``summary_results.json`` (else unchanged)."""
    results = results.assign(mlcommons_id="")
    name = f"{top}/{NAME}" if top else NAME
    if name not in names:
        return results, {}, {}
    try:
        entries = official.json_list(official.read_capped(source, name), _REQUIRED)
        located = _by_location(entries)
    except Exception as error:  # noqa: BLE001 - OfficialError, a limit, a damaged member: this file only
        problems.append({"file": name, "problem": f"MLCommons summary not used: {error}"})
        return results, {}, {}
    check = official.Check(KEY, files=[strip(name)])
    rows = {_key(r.division, r.submitter, r.system_id, r.model, r.scenario): i
            for i, r in enumerate(results.itertuples(index=False))}
    results = results.reset_index(drop=True)
    ids = [""] * len(results)
    # the rows as plain dicts, made once: ``results.iloc[i]`` built a Series per row (2.6 s of 17k rows)
    records = results[["scenario", "valid", "result", "status_detail", "unit"]].to_dict("records")
    round_id = str(results["round"].iloc[0]) if len(results) else ""
    for key in sorted(set(rows) | set(located)):
        index, entry = rows.get(key), located.get(key)
        row = records[index] if index is not None else None
        if entry is not None and index is not None:
            ids[index] = str(entry["ID"])
        _compare_one(check, row, entry, key, strip(name), round_id)
    return results.assign(mlcommons_id=ids), official.official_tables(check), {
        "official_summary": check.manifest(TOLERANCE)}


def _key(division, submitter, system, model, scenario) -> tuple:
    return (str(division), str(submitter), str(system), str(model), str(scenario).lower())


def _by_location(entries: list[dict]) -> dict[tuple, dict]:
    """Entries by their result folder; a Location that names none, or one named twice with two IDs, is
    an OfficialError."""
    located: dict[tuple, dict] = {}
    for number, entry in enumerate(entries, 1):
        parts = str(entry["Location"]).strip("/").split("/")
        if len(parts) != 6 or parts[2] != "results":
            raise official.OfficialError(f"entry {number}: Location {entry['Location']!r} is not "
                                         "<division>/<submitter>/results/<system>/<model>/<scenario>")
        key = _key(parts[0], parts[1], parts[3], parts[4], parts[5])
        if key in located and str(located[key]["ID"]) != str(entry["ID"]):
            raise official.OfficialError(f"entry {number}: Location {entry['Location']!r} is also entry "
                                         f"with ID {located[key]['ID']}")
        located.setdefault(key, entry)
    return located


def _compare_one(check: official.Check, row, entry: dict | None, key: tuple, file: str, round_id: str) -> None:
    scenario = row["scenario"] if row is not None else str(entry.get("Scenario") or key[4])
    names = dict(zip(KEY, (round_id, *key[:4], scenario)))
    valid = row is not None and bool(row["valid"]) and pd.notna(row["result"])
    here = float(row["result"]) if valid else None
    theirs = None if entry is None else official.number(entry["Performance_Result"])
    if here is None and theirs is None:
        return
    if theirs is None:
        check.add(names, here, None, "only_here", "unknown", f"no Performance_Result for it in {file}", file)
    elif here is None and row is None:
        check.add(names, None, theirs, "only_there", "runs_missing", "no result folder for it in this copy", file)
    elif here is None:
        cause = "compliance_verdict" if pd.notna(row["result"]) else "runs_missing"
        check.add(names, None, theirs, "only_there", cause, str(row["status_detail"]), file)
    elif official.same(here, entry["Performance_Result"]):
        check.add(names, here, theirs, "equal", file=file)
    else:
        check.add(names, here, theirs, "differ", "unknown", f"{row['unit']} here, "
                  f"{entry.get('Performance_Units', '')} in the summary", file)
