"""The reading of ``accuracy.txt`` as the submission checker reads it, against a round's targets
(``checker_rules``): every line is matched against the pattern of each target metric; every value found
must meet its lower bound (and upper limit, where the benchmark has one) and every metric must be found.
The accuracy a table prints is the first metric of the target list (its last value in the file, as the
checker keeps it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from mlperf_report.suites.inference import endpoints
from mlperf_report.suites.inference.checker_rules import Rules, accuracy_bounds


@dataclass(frozen=True)
class Accuracy:
    value: float | None        # the first metric of the target list
    met: bool | None           # None: no target known for this model
    detail: str = ""


@lru_cache(maxsize=None)
def _compiled(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def _number(text: str) -> float | None:
    try:
        return float(text.rstrip("."))
    except ValueError:
        return None


def read_values(text: str, patterns: dict[str, str], metrics: list[str] | None = None) -> dict[str, list[float]]:
    """Every value of each metric found in an accuracy.txt, in file order."""
    found: dict[str, list[float]] = {}
    names = metrics if metrics is not None else list(patterns)
    for line in text.splitlines():
        for name in names:
            match = _compiled(patterns[name]).match(line) if name in patterns else None
            if match and (value := _number(match.group(1))) is not None:
                found.setdefault(name, []).append(value)
    return found


def _problems(values: dict[str, list[float]], bounds, file: str = "accuracy.txt") -> list[str]:
    problems = []
    for metric, low, high in bounds:
        seen = values.get(metric, [])
        if not seen and low is not None:
            problems.append(f"{metric} not found in {file}")
        if low is not None:
            problems += [f"{metric} {v:g} below target {low:.6g}" for v in seen if v < low][:1]
        if high is not None:
            problems += [f"{metric} {v:g} above upper limit {high:.6g}" for v in seen if v > high][:1]
    return problems


def judge(text: str, model: str, rules: Rules) -> Accuracy:
    """The accuracy of a result and whether it meets its benchmark's target in that round's rules."""
    bounds = accuracy_bounds(rules, model)
    if not bounds:
        values = read_values(text, rules.patterns)
        first = next((v[-1] for v in values.values()), None)
        return Accuracy(first, None, f"no accuracy target known for '{model}'")
    readable = [b for b in bounds if b[0] in rules.patterns]  # a target with no known accuracy.txt line
    if not readable:                                           # (endpoints-harness benchmarks) is not guessed
        return Accuracy(None, None, f"accuracy.txt has no line the tool knows for '{model}'")
    values = read_values(text, rules.patterns, [metric for metric, _, _ in readable])
    return _verdict(values, readable, "accuracy.txt")


def _verdict(values: dict[str, list[float]], bounds, file: str) -> Accuracy:
    problems = _problems(values, bounds, file)
    shown = values.get(bounds[0][0])
    return Accuracy(shown[-1] if shown else None, not problems, "; ".join(problems))


def judge_endpoints(text: str, model: str, rules: Rules) -> Accuracy:
    """The accuracy of an endpoints-harness result (``accuracy_results.json``) against the same targets."""
    bounds = accuracy_bounds(rules, model)
    values = endpoints.accuracy_values(text, [metric for metric, _, _ in bounds or []] or ["score"])
    if not bounds:
        first = next((v[-1] for v in values.values()), None)
        return Accuracy(first, None, f"no accuracy target known for '{model}'")
    return _verdict(values, bounds, "accuracy_results.json")
