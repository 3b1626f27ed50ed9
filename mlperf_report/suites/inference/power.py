"""Power results as MLCommons' submission checker computes them.

The checker takes LoadGen's ``power_begin`` / ``power_end`` timestamps from the performance run's
``mlperf_log_detail.txt``, averages the analyzer's positive ``Watts`` samples in ``spl.txt`` (same
folder) that fall strictly inside that window, and reports:

- Offline, Server, Interactive: the average power in watts;
- SingleStream, MultiStream: the energy per query in millijoules, average power × window length ×
  1000 / ``result_query_count``; a MultiStream result inferred from a SingleStream run (the detail
  log's ``effective_scenario``) counts single-sample queries, so the checker multiplies by the 8
  samples of a MultiStream query.

Both files are in the official repositories; cut copies often leave them out. Then no number is made
up: the result says which file is missing (the PTDaemon's own averages in ``power/server.json`` cover
the whole testing phase, model loading included, and are not the published metric).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable

from mlperf_report.suites.inference.metrics import LATENCY_SCENARIOS, POWER_UNITS

#: The timestamp format of LoadGen's power marks and of the analyzer's samples.
TIME_FORMAT = "%m-%d-%Y %H:%M:%S.%f"
DETAIL_KEYS = ("power_begin", "power_end", "result_query_count", "effective_scenario")
_MLLOG = ":::MLLOG "


@dataclass(frozen=True)
class Power:
    value: float | None
    unit: str
    why_missing: str = ""
    samples: int = 0


class PowerLogError(ValueError):
    """A detail log or sample file that cannot be read as the checker reads it."""


def detail_values(lines: Iterable[str], keys: tuple[str, ...] = DETAIL_KEYS) -> dict[str, object]:
    """The first value of each wanted key among a detail log's ``:::MLLOG {json}`` lines."""
    found: dict[str, object] = {}
    for line in lines:
        at = line.find(_MLLOG)
        if at < 0 or not any(f'"{key}"' in line for key in keys):
            continue
        try:
            record = json.loads(line[at + len(_MLLOG):])
        except ValueError:
            continue
        key = record.get("key") if isinstance(record, dict) else None
        if key in keys and key not in found:
            found[key] = record.get("value")
    return found


def _time(text: object, what: str) -> datetime:
    try:
        return datetime.strptime(str(text).strip(), TIME_FORMAT)
    except ValueError:
        raise PowerLogError(f"{what} '{text}' is not a timestamp like 07-11-2024 23:35:41.123") from None


def average_watts(spl_lines: Iterable[str], begin: datetime, end: datetime) -> tuple[float | None, int]:
    """Mean of the positive ``Watts`` samples strictly between begin and end, and how many there were."""
    total, count = 0.0, 0
    for line in spl_lines:
        if not line.startswith("Time"):
            continue
        fields = line.split(",")
        if len(fields) < 4:
            continue
        try:
            stamp, watts = datetime.strptime(fields[1].strip(), TIME_FORMAT), float(fields[3])
        except ValueError:
            continue
        if begin < stamp < end and watts > 0:
            total, count = total + watts, count + 1
    return (total / count if count else None), count


def power_result(scenario: str, detail: dict[str, object], spl_lines: Iterable[str]) -> Power:
    """The published power metric of one performance run (``detail``: :func:`detail_values`)."""
    unit = POWER_UNITS.get(scenario, "")
    missing = [k for k in ("power_begin", "power_end") if k not in detail]
    if missing:
        return Power(None, unit, "mlperf_log_detail.txt has no " + " or ".join(missing))
    begin, end = _time(detail["power_begin"], "power_begin"), _time(detail["power_end"], "power_end")
    watts, samples = average_watts(spl_lines, begin, end)
    if watts is None:
        return Power(None, unit, f"spl.txt has no power samples between {begin} and {end}")
    if scenario not in LATENCY_SCENARIOS:
        return Power(watts, unit, samples=samples)
    try:
        queries = int(detail["result_query_count"])
    except (KeyError, TypeError, ValueError):
        return Power(None, unit, "mlperf_log_detail.txt has no result_query_count")
    if queries <= 0:
        return Power(None, unit, f"result_query_count is {queries}")
    seconds = (end - begin).total_seconds()
    return Power(watts * seconds * 1000 / queries * _inferred_factor(scenario, detail), unit, samples=samples)


#: Samples per query in the streams (MultiStream issues 8 samples per query).
SAMPLES_PER_QUERY = {"SingleStream": 1, "MultiStream": 8}
_PER_JOULE = {"Samples/s": "samples/J", "Tokens/s": "tokens/J", "Queries/s": "queries/J"}


def _inferred_factor(scenario: str, detail: dict[str, object]) -> int:
    """8 for a MultiStream folder whose run was SingleStream (the checker's ``scenario_fixed`` is
    MultiStream and the log's ``effective_scenario`` SingleStream), else 1."""
    ran = str(detail.get("effective_scenario") or scenario)
    return SAMPLES_PER_QUERY["MultiStream"] if scenario == "MultiStream" and ran == "SingleStream" else 1


def efficiency(scenario: str, result: float, power_value: float) -> float | None:
    """The checker's power efficiency: throughput per watt, or samples per joule for the streams
    (samples per query × 1000 / millijoules per query)."""
    if not power_value or power_value <= 0:
        return None
    if scenario in LATENCY_SCENARIOS:
        return SAMPLES_PER_QUERY[scenario] * 1000 / power_value
    return result / power_value


def efficiency_unit(scenario: str, unit: str) -> str:
    """``samples/J``, ``tokens/J`` or ``queries/J`` for a result unit."""
    return "samples/J" if scenario in LATENCY_SCENARIOS else _PER_JOULE.get(unit, f"{unit} per W")
