"""Energy to train (MLPerf Training Power, from Training v4.0 on), scored as MLCommons' summarizer does.

A result set with power results has a ``power/`` folder beside its result files: for each run
``power/result_N/node_*.txt`` (readings of each node) and optionally ``sw_*.txt`` (an interconnect
estimate). A run's energy is the summarizer's: every node's readings integrated over the measurement
window and scaled to the run's time to train, times the conversion efficiency, plus each switch's
estimate times the time to train, in joules. The set's energy is the olympic average of its runs'
energies, the runs ordered by time to train (so the runs the time score drops are dropped), times the
scaling factor. The arithmetic is MLCommons' own (``mlperf_logging.result_summarizer``); this module
only finds the files, reads them from any source and says when a set's power logs are incomplete.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pandas as pd

from mlperf_report.suites.training import rounds

_POWER_FILE = re.compile(r"^(?P<set>.+)/power/(?P<run>result_[^/]+)/(?P<kind>node|sw)_[^/]*\.txt$")
FIRST_POWER_VERSION = (4, 0)


@dataclass
class PowerLogs:
    """The power files of one result set (by the set's folder path), per run stem (``result_3``)."""

    nodes: dict[str, list[str]] = field(default_factory=dict)
    switches: dict[str, list[str]] = field(default_factory=dict)


def find_power_logs(names: list[str]) -> dict[str, PowerLogs]:
    """Power files among a source's entry names, grouped by result-set folder (sorted, deterministic)."""
    found: dict[str, PowerLogs] = {}
    for name in sorted(names):
        match = _POWER_FILE.match(name)
        if match:
            logs = found.setdefault(match["set"], PowerLogs())
            target = logs.nodes if match["kind"] == "node" else logs.switches
            target.setdefault(match["run"], []).append(name)
    return found


def round_has_power(round_: rounds.Round) -> bool:
    return tuple(int(p) for p in round_.version.split(".")[:2]) >= FIRST_POWER_VERSION


def _loglines(data: bytes, ruleset: str) -> list:
    from mlperf_report.suites.training.compliance import _parser

    loglines, _ = _parser(ruleset).parse_generator(data.decode("latin-1").splitlines(keepends=True))
    return loglines


def summarizer_arithmetic():
    """The summarizer's energy functions (private to it: on the mlperf-logging versions they were
    checked with, ``core.compat``), else their transcription (``power_arith``): node, switch, average."""
    from mlperf_report.core import compat

    if compat.private_ok("mlperf-logging"):
        from mlperf_logging.result_summarizer import result_summarizer as summarizer

        return summarizer._compute_power_node, summarizer._compute_power_sw, summarizer._index_olympic_average
    from mlperf_report.suites.training import power_arith

    return power_arith.power_node, power_arith.power_switch, power_arith.index_olympic_average


def run_energy(read, logs: PowerLogs, stem: str, time_to_train_ms: float, ruleset: str) -> float:
    """Joules of one run, by the summarizer's own functions; ``read(name) -> bytes``. Raises
    ValueError when the run's power logs cannot give an energy."""
    node_energy, switch_energy, _ = summarizer_arithmetic()

    nodes = logs.nodes.get(stem, [])
    if not nodes:
        raise ValueError(f"no power/{stem}/node_*.txt")
    total = 0.0
    for name in nodes:
        try:
            total += node_energy(_loglines(read(name), ruleset), time_to_train_ms)
        except (ValueError, ZeroDivisionError, KeyError, TypeError) as error:
            raise ValueError(f"{name.rsplit('/', 3)[-2]}/{name.rsplit('/', 1)[-1]}: {error or type(error).__name__}")
    for name in logs.switches.get(stem, []):
        total += switch_energy(_loglines(read(name), ruleset), time_to_train_ms)
    return total


def set_energy(read, logs: PowerLogs, runs: pd.DataFrame, counted: pd.Series, drop: int,
               scaling_factor: float, ruleset: str) -> tuple[float | None, str]:
    """(energy to train in joules or None, a note when the power logs are incomplete). ``runs``: the
    set's runs; ``counted``: which of them count as converged (the ones the time score uses)."""

    valid = runs[counted.to_numpy()]
    energies, times, missing = [], [], []
    for record in valid.to_dict("records"):
        stem = str(record["file"]).rsplit("/", 1)[-1].rsplit(".", 1)[0]
        ttt_ms = float(record["run_stop_ms"]) - float(record["run_start_ms"])
        try:
            energies.append(run_energy(read, logs, stem, ttt_ms, ruleset))
            times.append(ttt_ms)
        except (ValueError, OSError) as error:
            missing.append(f"{stem}: {error}")
    if missing:
        return None, f"power logs incomplete ({'; '.join(missing[:3])}); no energy result"
    dropped = len(runs) - len(valid)
    if dropped > drop or not energies:
        return None, ""
    order = [i for i, _ in sorted(enumerate(times), key=lambda pair: pair[1])]
    average = summarizer_arithmetic()[2](energies, order, dropped, drop)
    return (None if average is None else average * scaling_factor), ""


def add_energy(results: pd.DataFrame, runs: pd.DataFrame, power: dict[str, PowerLogs], read,
               ruleset: str) -> pd.DataFrame:
    """``results`` with ``energy_j`` filled for the scored sets that have power logs (``runs.file``:
    names in the source, as ``read(name) -> bytes`` takes them)."""
    from mlperf_report.suites.training.scoring import RESULT_KEY, counted_runs

    results = results.copy()
    results["energy_j"] = None
    groups = {key: group for key, group in runs.groupby(RESULT_KEY, sort=False, dropna=False)}
    for index, row in results.iterrows():
        key = tuple(row[k] for k in RESULT_KEY)
        group = groups.get(key)
        logs = None if group is None or not len(group) else power.get(str(group["file"].iloc[0]).rsplit("/", 1)[0])
        if logs is None:
            continue
        counted, _ = counted_runs(group)
        factor = row["scaling_factor"]  # iterrows turns a missing factor (None) into NaN, which `or` keeps
        energy, note = set_energy(read, logs, group, counted, rounds.dropped_each_side(row["benchmark"]),
                                  float(factor) if pd.notna(factor) and factor else 1.0, ruleset)
        if row["status"] == "ok" and energy is not None:
            results.at[index, "energy_j"] = energy
        if note:
            results.at[index, "status_detail"] = f"{row['status_detail']} ({note})"
    return results
