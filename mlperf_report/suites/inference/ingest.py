"""Ingest of an Inference results tree: one row per result folder in ``results.csv``, the systems in
``systems.csv``, and ``manifest.json`` (counts, problems, and the checker rules this copy cannot apply).

As in MLCommons' results table, a row's submitter is its results folder's name (``<division>/<submitter>/``;
a systems JSON may spell the company otherwise, and ``systems.csv`` keeps that spelling), ``model`` is the
model folder as submitted and ``benchmark`` the checker's name for it (``resnet50`` -> ``resnet``, an open
submitter's ``model_mapping.json``, ``bert-large-pruned80_quant-none-vnni-bert-99`` -> ``bert-99``).

The files are small (a few KB each), so they are read in one pass in this process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pandas as pd

from mlperf_report import __version__
from mlperf_report.ingest import reader, tables
from mlperf_report.core.errors import InputError
from mlperf_report.core.sources import Source
from mlperf_report.ingest.systems import SystemJsonError, parse_system, use_folder_submitter
from mlperf_report.core import limits
from mlperf_report.suites.inference import accuracy, endpoints, official, power, validity
from mlperf_report.suites.inference.checker_rules import POWER_UNITS, mlperf_model, required_tests
from mlperf_report.suites.inference.loadgen import SUMMARY_FIELDS, SummaryError, parse_summary
from mlperf_report.suites.inference.metrics import effective_scenario, primary_metric
from mlperf_report.suites.inference.rounds import Round
from mlperf_report.suites.inference.tree import ResultFolder, Tree, classify

RESULT_COLUMNS = ["round", "division", "category", "availability", "submitter", "system_id", "system_name",
                  "model", "benchmark", "scenario", "metric", "result", "unit", "valid", "status_detail", "accuracy",
                  "accuracy_target_met", "compliance_passed", "power_result", "power_unit",
                  "power_detail", "accelerator_model", "accelerators", "host_processor_model", "host_processors", "nodes",
                  "framework", "mlcommons_id"]
INT_COLUMNS = ("accelerators", "host_processors", "nodes")

#: Checker rules this tool cannot apply to a cut tree, and why (recorded in every manifest).
NOT_CHECKED = [
    "power results need performance/run_1/mlperf_log_detail.txt (LoadGen's power_begin, power_end, "
    "result_query_count) and performance/run_1/spl.txt (the analyzer's samples); where a copy lacks them "
    "power_result is left empty and power_detail says which file is missing",
    "the power directory's own audit (power_checker.py: PTDaemon source hashes, uncertainty, ranging vs "
    "testing) is not re-run",
    "TEST01 accuracy fallback: a failed deterministic-mode accuracy check is settled by baseline_accuracy.txt "
    "vs compliance_accuracy.txt, absent from the cut tree; such results are not marked invalid",
    "sample counts, query counts, equal-issue mode and detail-log errors are read from mlperf_log_detail.txt by "
    "the checker; here LoadGen's own verdict in the summary stands for them. Seeds, the minimum duration and "
    "the LLM TTFT/TPOT limits are checked on the values the summary prints, where it prints them",
    "required scenarios per category, benchmark names the round does not list, and file-presence checks "
    "(mlperf_log_accuracy.json, the accuracy.txt hash line, measurements) are not re-checked",
    "results of MLCommons' endpoints harness (v6.1+, performance/result_summary.json) are read as the checker's "
    "endpoints parser reads them; the harness's own audit (its compliance step, dropped agentic turns in "
    "scores.json, dataset sample counts) is not re-run, and a copy with only final_snapshot.json has no result",
]


@dataclass
class IngestResult:
    round: Round
    results: pd.DataFrame
    systems: pd.DataFrame
    manifest: dict
    problems: list[dict] = field(default_factory=list)
    tables: dict = field(default_factory=dict)  # official_check.csv where the tree holds summary_results.json


def _text(source: Source, name: str | None) -> str | None:
    return source.read_bytes(name).decode("utf-8", errors="replace") if name else None


def category(system_type: str) -> str:
    """systems JSON ``system_type`` -> ``datacenter``, ``edge`` or ``datacenter,edge``."""
    kinds = {k.strip().lower() for k in str(system_type or "").split(",") if k.strip()}
    return ",".join(k for k in ("datacenter", "edge") if k in kinds)


def read_systems(source: Source, tree: Tree, problems: list[dict]) -> dict[tuple, dict]:
    systems, told = {}, set()
    for (division, submitter, stem), entry in sorted(tree.systems.items()):
        try:
            row, issues = parse_system(source.read_bytes(entry.name), stem)
        except SystemJsonError as error:
            problems.append({"file": entry.name, "problem": str(error)})
            continue
        problems.extend({"file": entry.name, "problem": issue} for issue in issues)
        use_folder_submitter(row, submitter, entry.name, problems, told)
        row["category"] = category(row.get("raw_system_type", ""))
        row["division"] = division
        systems[(division, submitter, stem.lower())] = row
    return systems


def read_model_mappings(source: Source, tree: Tree, problems: list[dict]) -> dict[tuple[str, str], dict]:
    """Each open submitter's ``model_mapping.json`` (its model folder names -> the benchmarks they run),
    which the checker reads for the open division only."""
    mappings = {}
    for (division, submitter), entry in sorted(tree.model_mappings.items()):
        if division != "open":
            continue
        try:
            data = limits.loads(source.read_bytes(entry.name), "model_mapping.json")
        except ValueError as error:  # LimitError is a ValueError
            problems.append({"file": entry.name, "problem": f"not read: {error}"})
            continue
        if not isinstance(data, dict):
            problems.append({"file": entry.name, "problem": "not read: not a JSON object of folder -> benchmark"})
            continue
        mappings[(division, submitter)] = {k: v for k, v in data.items() if isinstance(v, str)}
    return mappings


def _detail(source: Source, folder: ResultFolder) -> dict[str, object]:
    """The values the ingest needs from ``mlperf_log_detail.txt`` (result fields and the power window),
    read once; empty when the copy does not keep the file."""
    if not folder.detail:
        return {}
    return power.detail_values(_lines(source, folder.detail), power.DETAIL_KEYS + tuple(SUMMARY_FIELDS))


def _performance(round_: Round, source: Source, folder: ResultFolder, model: str, detail: dict,
                 problems: list[dict]) -> dict:
    empty = {"valid_lg": None, "unmet": [], "harness": "LoadGen", "metric": "", "result": None, "unit": "",
             "run_problems": []}
    if folder.performance_file is None:
        return {**empty, "why": "mlperf_log_summary.txt missing"}
    try:
        if folder.summary:
            summary = parse_summary(_text(source, folder.summary))
        else:
            summary = endpoints.parse_result_summary(_text(source, folder.endpoints),
                                                     effective_scenario(folder.scenario), _text(source, folder.config))
    except SummaryError as error:
        problems.append({"file": folder.performance_file, "problem": str(error)})
        return {**empty, "why": str(error)}
    if folder.summary:
        summary.logged = {key: value for key, value in detail.items() if key in SUMMARY_FIELDS}
    rules = round_.rules
    metric = primary_metric(rules, model, folder.scenario, summary, folder.model)
    if summary.scenario != effective_scenario(folder.scenario) and not metric.inferred:
        problems.append({"file": folder.performance_file, "problem": f"summary says scenario {summary.scenario}, "
                                                           f"folder says {folder.scenario}"})
    return {"valid_lg": summary.valid, "unmet": summary.unmet, "harness": summary.harness,
            "metric": metric.key, "result": metric.value,
            "unit": metric.unit, "why": metric.why_missing,
            "run_problems": validity.run_problems(rules, model, folder.scenario, summary,
                                                  enforce=not round_.rules_carried_over)}


def _accuracy(round_: Round, source: Source, folder: ResultFolder, model: str,
              problems: list[dict]) -> accuracy.Accuracy:
    if folder.accuracy or not folder.endpoints_accuracy:
        text = _text(source, folder.accuracy)
        return (accuracy.judge(text, model, round_.rules) if text is not None
                else accuracy.Accuracy(None, False, "accuracy/accuracy.txt missing"))
    try:
        return accuracy.judge_endpoints(_text(source, folder.endpoints_accuracy), model, round_.rules)
    except endpoints.EndpointsError as error:
        problems.append({"file": folder.endpoints_accuracy, "problem": str(error)})
        return accuracy.Accuracy(None, False, str(error))


def _lines(source: Source, name: str):
    """A text file of the tree line by line (bounded memory: an endless line comes in pieces)."""
    with source.open(name) as handle:
        for raw in iter(lambda: handle.readline(limits.MAX_LINE_BYTES), b""):
            yield raw.decode("utf-8", errors="replace")


def _power(source: Source, folder: ResultFolder, detail: dict, problems: list[dict]) -> tuple[power.Power, str]:
    """The power result of a folder measured with power, and why the result is invalid ('' when not)."""
    unit = POWER_UNITS.get(folder.scenario, "")
    missing = [n for n, have in (("mlperf_log_detail.txt", folder.detail), ("spl.txt", folder.spl)) if not have]
    if missing:
        return power.Power(None, unit, "not computed: performance/run_1/ lacks " + " and ".join(missing)
                           + " (the checker's inputs)"), ""
    try:
        found = power.power_result(folder.scenario, detail, _lines(source, folder.spl))
    except power.PowerLogError as error:
        problems.append({"file": folder.detail, "problem": str(error)})
        return power.Power(None, unit, f"not computed: {error}"), f"power: {error}"
    return found, (f"power: {found.why_missing}" if found.value is None else "")


def result_row(round_: Round, source: Source, folder: ResultFolder, system: dict | None,
               problems: list[dict], audited_copy: bool = True, model_mapping: dict | None = None) -> dict:
    """One results.csv row. ``audited_copy`` False: the copy holds no audit verdict of this submitter at
    all (a cut that dropped them), so missing tests are reported, not held against the result."""
    model = mlperf_model(folder.model, round_.rules, model_mapping)
    detail = _detail(source, folder)
    perf = _performance(round_, source, folder, model, detail, problems)
    acc = _accuracy(round_, source, folder, model, problems)
    # the endpoints harness audits its own runs: no TEST* folder is asked of them
    required = () if folder.endpoints and not folder.summary else (
        required_tests(round_.rules, model) if audited_copy else None)
    comp = validity.judge_compliance({test: {n.rsplit("/", 1)[-1]: _text(source, n) for n in names}
                                      for test, names in folder.compliance.items()}, required)
    valid, reasons = validity.verdict(folder.division, perf["valid_lg"], perf["unmet"], acc.met, acc.detail, comp,
                                      enforce=not round_.rules_carried_over, harness=perf["harness"])
    if perf["run_problems"] and round_.rules_carried_over:
        reasons += [f"{r} {validity.NOT_ENFORCED}" for r in perf["run_problems"]]
    elif perf["run_problems"]:
        valid, reasons = False, [*reasons, *perf["run_problems"]]
    measured = folder.power or folder.spl  # a cut copy may keep run_1/spl.txt without performance/power/
    watts, power_invalid = _power(source, folder, detail, problems) if measured else (power.Power(None, ""), "")
    if power_invalid:
        valid, reasons = False, [*reasons, power_invalid]
    if perf["result"] is None:
        valid, reasons = False, [f"no result: {perf['why']}", *reasons]
    s = system or {}
    return {"round": round_.id, "division": folder.division, "category": s.get("category", ""),
            "availability": s.get("availability", ""), "submitter": folder.submitter,
            "system_id": folder.system, "system_name": s.get("system_name", ""), "model": folder.model,
            "benchmark": model, "scenario": folder.scenario, "metric": perf["metric"], "result": perf["result"], "unit": perf["unit"],
            "valid": valid, "status_detail": "; ".join(reasons), "accuracy": acc.value,
            "accuracy_target_met": acc.met,
            "compliance_passed": comp.passed if required or comp.passed is False or folder.compliance else None,
            "power_result": watts.value, "power_unit": watts.unit, "power_detail": watts.why_missing,
            **{k: s.get(k) for k in ("accelerator_model", "accelerators", "host_processor_model",
                                     "host_processors", "nodes", "framework")}}


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    for column in INT_COLUMNS:
        frame[column] = pd.to_numeric(frame[column], errors="coerce").astype("Int64")
    for column in ("accuracy_target_met", "compliance_passed"):
        frame[column] = frame[column].astype("boolean")
    return frame


def _strip(top: str) -> Callable[[str], str]:
    prefix = top + "/" if top else ""
    return lambda name: name[len(prefix):] if prefix and name.startswith(prefix) else name


def _manifest(round_: Round, source_facts: dict, tree: Tree, results: pd.DataFrame, systems: pd.DataFrame,
              problems: list[dict]) -> dict:
    status = results["valid"].map({True: "valid", False: "invalid"}).value_counts().sort_index()
    rules = "v{}.{}".format(*round_.rules_version)
    return {
        "tool": "mlperf-report", "tool_version": __version__, "suite": "inference",
        "round": round_.id, "source": {**source_facts, "tree_top": tree.top},
        "rules": {"checker_rules_of": rules, "carried_over": round_.rules_carried_over,
                  "not_checked": NOT_CHECKED},
        "counts": {
            "result_files": int(sum(1 for f in tree.results.values() if f.performance_file)),
            "result_sets": len(results), "systems": len(systems),
            "scored": int(results["result"].notna().sum()),
            "by_status": {k: int(v) for k, v in status.items()},
            "with_power": int((results["power_unit"] != "").sum()),
            "power_results": int(results["power_result"].notna().sum()),
            "problems": len(problems), "ignored": len(tree.ignored),
        },
        "problems": problems,
        "ignored": [{"file": name, "reason": reason} for name, reason in tree.ignored],
    }


def ingest(source: Source, source_facts: dict, round_: Round, jobs: int | None = None,
           progress: Callable[[int, int], None] | None = None, absent: list[str] = (),
           compliance: bool = True) -> IngestResult:
    """Read and judge a whole Inference results tree (no output written). ``jobs``, ``absent`` and
    ``compliance`` are accepted for the common ingest interface: the summaries are small and read in one
    pass, and the audit tests' verdicts are files of the tree, always read (Training's ``--no-compliance``
    skips a checker run that Inference does not need)."""
    listing = source.list()
    problems = [{"file": name, "problem": reason} for name, reason in listing.refused]
    tree = classify(listing.entries)
    if not tree.results:
        raise InputError(f"{source.label}: no result folders found (expected <division>/<submitter>/results/"
                         "<system>/<model>/<scenario>/performance/run_1/mlperf_log_summary.txt); is this an "
                         "MLPerf Inference results tree? Nothing was written.")
    systems = read_systems(source, tree, problems)
    mappings = read_model_mappings(source, tree, problems)
    rows = []
    sizes = {entry.name: entry.size for entry in listing.entries}
    folders, over = reader.within_round_limit([tree.results[k] for k in sorted(tree.results)],
                                              lambda folder: sum(sizes.get(name, 0) for name in _files_of(folder)))
    problems += [{"file": folder.performance_file or "/".join(folder.key), "problem": reader.OVER_ROUND_LIMIT}
                 for folder in over]
    audited = {f.key[:2] for f in folders if f.compliance}
    needing = {f.key[:2] for f in folders
               if required_tests(round_.rules, mlperf_model(f.model, round_.rules, mappings.get(f.key[:2])))}
    for division, org in sorted(needing - audited):
        if division in validity.AUDITED_DIVISIONS:
            problems.append({"file": f"{division}/{org}/", "problem": "no audit-test verdicts (TEST*/verify_*.txt) "
                             "in this copy: missing tests are not held against its results"})
    for done, folder in enumerate(folders, 1):
        system = systems.get((folder.division, folder.submitter, folder.system.lower()))
        rows.append(result_row(round_, source, folder, system, problems, folder.key[:2] in audited,
                               mappings.get(folder.key[:2])))
        if progress:
            progress(done, len(folders))
    strip = _strip(tree.top)
    results, extra_tables, official_keys = official.check_round(
        source, [e.name for e in listing.entries], tree.top, _typed(pd.DataFrame(rows, columns=RESULT_COLUMNS)),
        problems, strip)
    _missing_systems(tree, folders, problems)
    systems_df = pd.DataFrame(list(systems.values()))
    if not systems_df.empty:
        front = ["submitter", "system_id", "division", "category", "availability"]
        systems_df = systems_df[front + [c for c in systems_df.columns if c not in front]]
        systems_df = _typed_systems(systems_df)
    problems = sorted(({"file": strip(p["file"]), "problem": p["problem"]} for p in problems),
                      key=lambda p: (p["file"], p["problem"]))
    tree.ignored = [(strip(n), r) for n, r in tree.ignored if strip(n) != official.NAME]
    manifest = {**_manifest(round_, source_facts, tree, results, systems_df, problems), **official_keys}
    return IngestResult(round_, results, systems_df, manifest, problems, extra_tables)


def _missing_systems(tree: Tree, folders: list[ResultFolder], problems: list[dict]) -> None:
    known = {(d, o, stem.lower()) for d, o, stem in tree.systems}
    for division, org, system in sorted({f.key[:3] for f in folders}):
        if (division, org, system.lower()) not in known:
            problems.append({"file": f"{division}/{org}/systems/{system}.json",
                             "problem": "systems JSON missing; its results have no system facts"})


def _files_of(folder: ResultFolder) -> list[str]:
    """The files ingest reads for one result folder (what counts against the round limit)."""
    named = [folder.summary, folder.accuracy, folder.detail, folder.spl, folder.endpoints,
             folder.endpoints_accuracy, folder.config]
    return [name for name in named if name] + [name for files in folder.compliance.values() for name in files]


def _typed_systems(frame: pd.DataFrame) -> pd.DataFrame:
    for column in INT_COLUMNS:
        if column in frame.columns:
            frame[column] = pd.to_numeric(frame[column], errors="coerce").astype("Int64")
    return frame


def write_tables(result: IngestResult, out_dir: Path) -> list[Path]:
    """Write results.csv, systems.csv and manifest.json, renamed into place together."""
    return tables.write_tables({"results.csv": result.results, "systems.csv": result.systems, **result.tables},
                               result.manifest, out_dir)
