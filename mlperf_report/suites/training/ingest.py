"""Ingest: an official results tree in, the round's tidy tables out (runs, results, systems, manifest).

Plan (list and classify the tree), scan every result file in parallel worker processes (each reads
straight from the folder or the archive), score, then write all four files atomically. Problems with
single files are collected, never fatal: the rest of the round is still scored, and the manifest says
what was wrong where.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

from mlperf_report import __version__
from mlperf_report.suites.training import rounds
from mlperf_report.ingest import reader, tables
from mlperf_report.core import limits
from mlperf_report.core.errors import InputError
from mlperf_report.suites.training.power import round_has_power
from mlperf_report.suites.training import official as checks, scan
from mlperf_report.suites.training.mllog import RunFacts
from mlperf_report.suites.training.scoring import RESULT_KEY, score_runs
from mlperf_report.core.sources import Source, TarSource
from mlperf_report.ingest.systems import DERIVED_COLUMNS, parse_system, use_folder_submitter
from mlperf_report.suites.training.tree import Tree, classify

RUN_COLUMNS = RESULT_KEY + ["run", "time_to_train_min", "converged", "run_start_ms", "run_stop_ms",
                            "stop_status", "compliant", "failed_check", "amendment", "checker_warning",
                            "global_batch_size", "seed", "train_samples", "file"]
RESULT_COLUMNS = ["round", "division", "availability", "submitter", "system_id", "system_name",
                  "benchmark", "score_min", "runs_found", "runs_required", "runs_converged",
                  "runs_noncompliant", "runs_absent", "energy_j", "scaling_factor", "status", "status_detail", "accelerator_model", "accelerators",
                  "host_processor_model", "host_processors", "nodes", "framework", "mlcommons_id"]
INT_COLUMNS = ("run_start_ms", "run_stop_ms", "runs_found", "runs_required", "runs_converged", "runs_noncompliant",
               "runs_absent",
               "accelerators", "host_processors", "nodes")


@dataclass
class IngestResult:
    round: rounds.Round
    runs: pd.DataFrame
    results: pd.DataFrame
    systems: pd.DataFrame
    manifest: dict
    problems: list[dict] = field(default_factory=list)
    verdicts_from_cache: int = 0  # not in the manifest, which must not depend on the cache's state
    tables: dict = field(default_factory=dict)  # official_check.csv where the tree holds MLCommons' summaries


# --- building the tables ------------------------------------------------------------------------

def _read_systems(source: Source, tree: Tree, problems: list[dict],
                  contents: dict[str, bytes]) -> dict[tuple[str, str], dict]:
    systems, told = {}, set()
    for (org, stem), entry in sorted(tree.systems.items()):
        try:
            row, issues = parse_system(_small_file(source, entry, contents), stem)
        except Exception as error:  # noqa: BLE001 - SystemJsonError, a limit, a corrupt member...
            problems.append({"file": entry.name, "problem": f"systems JSON unusable: {error}; its results are not scored"})
            continue
        for issue in issues:
            problems.append({"file": entry.name, "problem": f"systems JSON: {issue}"})
        use_folder_submitter(row, org, entry.name, problems, told)
        row["org"] = org
        systems[(org, stem)] = row
    return systems


def _small_file(source: Source, entry, contents: dict) -> bytes:
    """A systems JSON or scaling.json, read only up to MAX_JSON_BYTES (an exception from the tar pass
    is raised here, for this file only)."""
    if entry.name in contents:
        data = contents[entry.name]
        if isinstance(data, Exception):
            raise data
        return data
    if entry.size > limits.MAX_JSON_BYTES:
        raise limits.LimitError(f"larger than {limits.mib(limits.MAX_JSON_BYTES)} (limit MAX_JSON_BYTES)")
    with source.open(entry.name) as handle:
        return limits.read_capped(handle, limits.MAX_JSON_BYTES, entry.name)


def _read_tar_small(source: TarSource, names: set[str]) -> dict:
    """The small files of a tar in one pass: bytes, or the exception reading that one raised."""
    contents: dict = {}
    for name, handle in source.iter_members(names):
        try:
            contents[name] = limits.read_capped(handle, limits.MAX_JSON_BYTES, name)
        except Exception as error:  # noqa: BLE001 - reported against this file by its reader
            contents[name] = error
    for name in names - set(contents):
        contents[name] = OSError(source.stream_error or "listed in the archive but could not be read")
    return contents


def _match_system(systems: dict, org: str, system: str) -> tuple[dict | None, str | None]:
    """The systems JSON of a results folder: exact name, else the one whose name differs only in case."""
    if (org, system) in systems:
        return systems[(org, system)], None
    folded = [key for key in systems if key[0] == org and key[1].lower() == system.lower()]
    if len(folded) == 1:
        return systems[folded[0]], f"systems JSON name differs in case: {folded[0][1]}.json"
    return None, None


def _scaling_factors(source: Source, tree: Tree, problems: list[dict], contents: dict[str, bytes],
                     applies: bool) -> dict:
    """scaling_factor per result set; NaN for an unusable scaling.json, whose set then has no score
    where the round applies scaling (an unscaled number would pass for the official one)."""
    factors = {}
    for (org, system, bench), entry in sorted(tree.scaling.items()):
        try:
            data = _small_file(source, entry, contents)
            factor = float(limits.loads(data, "scaling.json")["scaling_factor"])
            if not limits.finite(factor) or factor <= 0:
                raise ValueError(f"scaling_factor {factor!r} is not a positive finite number")
            factors[(org, system, rounds.canonical_benchmark(bench))] = factor
        except Exception as error:  # noqa: BLE001 - whatever one file raises, the round goes on
            factors[(org, system, rounds.canonical_benchmark(bench))] = float("nan")
            outcome = "its result set is not scored" if applies else "ignored (this round does not apply scaling)"
            problems.append({"file": entry.name, "problem": f"scaling.json unusable ({error!r}); {outcome}"})
    return factors


def _run_key(run: str):
    digits = re.sub(r"\D", "", run)
    return (int(digits) if digits else -1, run)


def _set_identity(systems: dict, org: str, system_id: str, logged_division: str = "") -> tuple[dict | None, str, str]:
    """System row, submitter and division of a results folder (the systems JSON wins over the logs)."""
    system, _ = _match_system(systems, org, system_id)
    division = (system or {}).get("division") or logged_division
    return system, (system or {}).get("submitter") or org, division


def build_tables(round_: rounds.Round, tree: Tree, systems: dict, facts: dict[str, RunFacts],
                 scaling: dict, problems: list[dict], verdicts: dict | None = None,
                 ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Runs, results and systems tables from what was read (no file access here). ``verdicts``:
    file -> (hash, compliance verdict, cached?); without it, ``compliant`` stays empty (unchecked)."""
    runs, logged_division = _run_table(round_, tree, systems, facts, problems, verdicts or {})
    results = _result_table(round_, tree, systems, runs, logged_division, scaling, problems)
    systems_df = pd.DataFrame([{"round": round_.id, **{k: v for k, v in row.items() if k != "org"}}
                               for row in systems.values()])
    if len(systems_df):
        raw = sorted(c for c in systems_df.columns if c.startswith("raw_"))
        systems_df = systems_df[["round", *DERIVED_COLUMNS, *raw]].sort_values(["submitter", "system_id"])
    runs = runs[RUN_COLUMNS].reset_index(drop=True)
    return _typed(runs), _typed(results.sort_values(RESULT_KEY).reset_index(drop=True)), _typed(systems_df)


def _run_table(round_: rounds.Round, tree: Tree, systems: dict, facts: dict[str, RunFacts],
               problems: list[dict], verdicts: dict) -> tuple[pd.DataFrame, dict]:
    """One row per result file, and the division each result set's first log names."""
    run_rows = []
    logged_division: dict[tuple[str, str, str], str] = {}
    for result in tree.results:
        name = result.entry.name
        fact = facts[name]
        for problem in fact.problems:
            problems.append({"file": name, "problem": problem})
        verdict = verdicts[name][1] if name in verdicts else None
        if verdict is not None and verdict.problem:
            problems.append({"file": name, "problem": verdict.problem})
        set_key = (result.org, result.system, result.benchmark_folder)
        logged = str(fact.values.get("submission_division") or "").lower()
        logged_division.setdefault(set_key, logged)
        _, submitter, division = _set_identity(systems, result.org, result.system, logged_division[set_key])
        run_rows.append({
            "round": round_.id, "division": division, "submitter": submitter,
            "system_id": result.system, "benchmark": rounds.canonical_benchmark(result.benchmark_folder),
            "run": result.run, "time_to_train_min": fact.minutes, "converged": fact.converged,
            "run_start_ms": fact.run_start_ms, "run_stop_ms": fact.run_stop_ms,
            "stop_status": fact.stop_status or "",
            "compliant": None if verdict is None else verdict.compliant,
            "failed_check": "" if verdict is None else verdict.failed_check,
            "amendment": "" if verdict is None else verdict.amendment,
            "checker_warning": "" if verdict is None else verdict.warning,
            "global_batch_size": fact.values.get("global_batch_size"),
            "seed": fact.values.get("seed"), "train_samples": fact.values.get("train_samples"),
            "file": name,
        })
    runs = pd.DataFrame(run_rows, columns=RUN_COLUMNS)
    runs = runs.sort_values(RESULT_KEY + ["run"], key=lambda col: col.map(_run_key) if col.name == "run" else col)
    return runs, logged_division


def _result_table(round_: rounds.Round, tree: Tree, systems: dict, runs: pd.DataFrame, logged_division: dict,
                  scaling: dict, problems: list[dict]) -> pd.DataFrame:
    """One scored row per result set, with the system's derived columns."""
    set_rows, set_systems, owners = [], {}, {}
    for (org, system_id, folder), path in sorted(tree.result_sets.items()):
        system, submitter, division = _set_identity(systems, org, system_id,
                                                    logged_division.get((org, system_id, folder), ""))
        _, case_note = _match_system(systems, org, system_id)
        if case_note:
            problems.append({"file": path, "problem": case_note + "; matched without case"})
        key = (round_.id, division, submitter, system_id, rounds.canonical_benchmark(folder))
        set_rows.append(dict(zip(RESULT_KEY, key), absent=len(tree.absent.get((org, system_id, folder), [])),
                             misnamed=tree.misnamed.get((org, system_id, folder), 0)))
        set_systems[key] = system
        owners[(org, system_id)] = submitter
    sets = pd.DataFrame(set_rows, columns=RESULT_KEY + ["absent", "misnamed"])
    scaling_by_key = {(owners.get((org, sid), org), sid, bench): f for (org, sid, bench), f in scaling.items()}
    rows = []
    for record in score_runs(runs, sets, round_, scaling_by_key).to_dict("records"):
        system = set_systems[tuple(record[k] for k in RESULT_KEY)]
        if system is None and record["status"] == "ok":
            record.update(score_min=None, status="no_system_json",
                          status_detail=f"no_system_json: no usable systems/{record['system_id']}.json; not scored")
        for column in DERIVED_COLUMNS:
            if column not in ("submitter", "system_id", "division"):
                record[column] = (system or {}).get(column)
        if round_.benchmarks and record["benchmark"] not in round_.benchmarks:
            problems.append({"file": f"{record['submitter']}/results/{record['system_id']}/{record['benchmark']}",
                             "problem": f"benchmark '{record['benchmark']}' is not part of {round_.id}: {record['status_detail']}"})
        rows.append(record)
    return pd.DataFrame(rows).reindex(columns=RESULT_COLUMNS)


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    """Whole numbers as nullable integers, so the CSV says ``8`` rather than ``8.0`` (columns with
    fractional values, such as some v0.7 ``time_ms``, stay floats)."""
    for column in INT_COLUMNS:
        if column in frame.columns:
            values = pd.to_numeric(frame[column], errors="coerce")
            if ((values.dropna() % 1) == 0).all():
                frame[column] = values.astype("Int64")
    return frame


def absent_in_tree(lines: list[str], top: str) -> list[str]:
    """Of a list of files known to be missing (``training_results_v1.0/<org>/...`` lines, several
    rounds mixed), the ones of this tree, as paths from its root."""
    prefix = top.rstrip("/") + "/"
    return [line.strip()[len(prefix):] for line in lines if line.strip().startswith(prefix)]


def _tree_relative(top: str) -> Callable[[str], str]:
    """Names relative to the tree root, so a folder and an archive of it give identical tables."""
    prefix = top.rstrip("/") + "/" if top else ""
    return lambda name: name[len(prefix):] if prefix and name.startswith(prefix) else name


def ingest(source: Source, source_facts: dict, round_: rounds.Round, jobs: int | None = None,
           progress: Callable[[int, int], None] | None = None, absent: list[str] = (),
           compliance: bool = True, cache_dir: Path | None = None, amendments_file: Path | None = None,
           official: Path | None = None) -> IngestResult:
    """Read, scan and score a whole results tree (no output written). ``absent``: lines naming result
    files known to be missing from this copy (e.g. ABSENT.txt), so their result sets say so.
    ``compliance``: judge every result file with MLCommons' checker (verdicts cached in ``cache_dir``,
    default ``.cache/``; rules changed after the round amended from ``amendments_file``, default
    ``data/checker_amendments.yaml``); without it the scores are unchecked and the manifest says so.
    ``official``: MLCommons' results table, for the result IDs; the submitters' ``summary.json`` files are
    compared with the scores whenever the tree holds them (``training.official``)."""
    listing = source.list()
    problems = [{"file": name, "problem": reason} for name, reason in listing.refused]
    tree = classify(listing.entries, listing.folders)
    if absent:
        tree = classify(listing.entries, listing.folders, absent_in_tree(absent, tree.top or source.label))
    if not tree.results:
        raise InputError(f"{source.label}: no result files found (expected <org>/results/<system>/<benchmark>/"
                         "result_*.txt); is this an MLPerf Training results tree? Nothing was written.")
    contents: dict = {}
    summaries = checks.summary_files([entry.name for entry in listing.entries], tree.top)
    if isinstance(source, TarSource):  # one pass for the small files too
        contents = _read_tar_small(source, {e.name for e in [*tree.systems.values(), *tree.scaling.values()]}
                                   | set(summaries.values()))
    systems = _read_systems(source, tree, problems, contents)
    scaling = _scaling_factors(source, tree, problems, contents, round_.applies_scaling)
    to_scan, over = reader.within_round_limit(tree.results, lambda result: result.entry.size)
    facts = {result.entry.name: RunFacts(problems=[reader.OVER_ROUND_LIMIT]) for result in over}
    check = scan.check_setup(round_, cache_dir, amendments_file) if compliance else None
    verdicts: dict = {}
    facts.update(scan.scan_results(source, to_scan, jobs or os.cpu_count() or 1, progress, check, verdicts))
    if check is not None:
        scan.save_verdicts(round_, cache_dir, check, verdicts)
    runs, results, systems_df = build_tables(round_, tree, systems, facts, scaling, problems, verdicts)
    results, power_files = _energy(round_, source, listing.entries, runs, results)
    strip = _tree_relative(tree.top)
    results, extra_tables, official_keys = checks.check_round(
        source, summaries, results, tree.result_sets,
        lambda org, sid: _set_identity(systems, org, sid)[1], contents, problems, strip, official)
    ignored = [(name, reason) for name, reason in tree.ignored
               if name not in power_files and name not in summaries.values()]
    _orphan_systems(tree, problems)
    problems = sorted(({"file": strip(p["file"]), "problem": p["problem"]} for p in problems),
                      key=lambda p: (p["file"], p["problem"]))
    runs["file"] = runs["file"].map(strip)
    manifest = {
        "tool": "mlperf-report", "tool_version": __version__,
        "round": round_.id, "source": {**source_facts, "tree_top": tree.top},
        "counts": _counts(tree, facts, systems_df, results, len(problems), len(ignored), len(power_files)),
        "compliance": scan.compliance_manifest(round_, check, verdicts, runs),
        **official_keys,
        "problems": problems,
        "ignored": [{"file": strip(name), "reason": reason} for name, reason in ignored],
    }
    return IngestResult(round_, runs, results, systems_df, manifest, problems,
                        sum(1 for outcome in verdicts.values() if outcome[2]), extra_tables)


def _orphan_systems(tree: Tree, problems: list[dict]) -> None:
    with_results = {(org, system.lower()) for org, system, _ in tree.result_sets}
    for (org, stem), entry in sorted(tree.systems.items()):
        if (org, stem.lower()) not in with_results:
            problems.append({"file": entry.name, "problem": "systems JSON with no results folder; listed in systems.csv only"})


def _counts(tree: Tree, facts: dict, systems_df: pd.DataFrame, results: pd.DataFrame, problems: int,
            ignored: int, power_files: int) -> dict:
    status_counts = results["status"].value_counts().sort_index().to_dict()
    return {
        "result_files": len(tree.results), "absent_result_files": sum(map(len, tree.absent.values())),
        "bytes_scanned": int(sum(f.bytes_read for f in facts.values())),
        "systems": len(systems_df), "result_sets": len(results),
        "scored": int(status_counts.get("ok", 0)),
        "by_status": {k: int(v) for k, v in status_counts.items()},
        "problems": problems, "ignored": ignored, "power_files": power_files,
    }


def _energy(round_: rounds.Round, source: Source, entries, runs: pd.DataFrame,
            results: pd.DataFrame) -> tuple[pd.DataFrame, set[str]]:
    """Energy to train for the sets with power logs (Training v4.0 on), and the power files used."""
    if not round_has_power(round_):
        return results, set()
    from mlperf_report.suites.training import power

    logs = power.find_power_logs([entry.name for entry in entries])
    if not logs:
        return results, set()
    scored = power.add_energy(results, runs, logs, source.read_bytes, round_.ruleset)
    used = {name for group in logs.values() for names in [*group.nodes.values(), *group.switches.values()]
            for name in names}
    return scored.reindex(columns=RESULT_COLUMNS), used


def write_tables(result: IngestResult, out_dir: Path) -> list[Path]:
    """Write runs, results, systems and the manifest, renamed into place together."""
    return tables.write_tables({"runs.csv": result.runs, "results.csv": result.results, "systems.csv": result.systems,
                                **result.tables}, result.manifest, out_dir)
