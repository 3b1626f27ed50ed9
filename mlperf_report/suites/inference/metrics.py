"""The primary metric of a result as MLCommons' submission checker takes it: the round's LoadGen field
for the scenario LoadGen ran (``checker_rules``), overridden per benchmark (the language models' tokens
per second), latencies from ns to ms (seconds for the video benchmark), in the unit the official table
prints.

An ``Interactive`` folder holds a LoadGen Server run with tighter latency targets: its metric is the
Server field, its unit the Interactive one. Edge systems may report a scenario inferred from another
run (MultiStream from SingleStream, Offline from SingleStream), as the checker allows.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlperf_report.suites.inference.checker_rules import POWER_UNITS, Rules, unit
from mlperf_report.suites.inference.loadgen import Summary

LATENCY_SCENARIOS = ("SingleStream", "MultiStream")
SCENARIOS = ("Offline", "Server", "Interactive", "SingleStream", "MultiStream")
NS_PER_MS = 1_000_000
MS_PER_S = 1_000
SECONDS_UNIT_MODELS = ("wan-2.2-t2v-a14b",)
MULTISTREAM_SAMPLES_PER_QUERY = 8

__all__ = ["Metric", "POWER_UNITS", "primary_metric", "higher_is_better", "effective_scenario"]


@dataclass(frozen=True)
class Metric:
    key: str      # the checker's key, e.g. result_samples_per_second
    unit: str     # as the official tables print it
    value: float | None
    why_missing: str = ""
    inferred: bool = False


def higher_is_better(scenario: str) -> bool:
    return scenario not in LATENCY_SCENARIOS


def effective_scenario(folder_scenario: str) -> str:
    """The LoadGen scenario a folder's run uses (Interactive runs are Server runs)."""
    return "Server" if folder_scenario == "Interactive" else folder_scenario


def metric_key(rules: Rules, model: str, scenario: str) -> str:
    """The checker key of the primary metric of a run in LoadGen scenario ``scenario``."""
    return rules.overwrite.get(model, {}).get(scenario) or rules.fields.get(scenario, "")


def _fallback_key(rules: Rules, model: str, scenario: str, summary: Summary) -> str:
    """A benchmark newer than the known rules: its tokens per second where LoadGen printed them."""
    key = metric_key(rules, model, scenario)
    if model in rules.models:
        return key
    tokens = {"Offline": "result_tokens_per_second", "Server": "result_completed_tokens_per_second"}.get(scenario)
    return tokens if tokens and summary.number(tokens) is not None else key


def _scaled(value: float, scenario: str, model: str) -> float:
    if scenario in LATENCY_SCENARIOS:
        value = value / NS_PER_MS
        if model in SECONDS_UNIT_MODELS:
            value = value / MS_PER_S
    return value


def _inferred(named: str, folder: str, summary: Summary, rules: Rules) -> Metric:
    """A scenario inferred from another run (edge systems), as the checker computes it: MultiStream from
    SingleStream is eight times the run's 99th-percentile early-stopping estimate; Offline from
    SingleStream is its QPS without LoadGen overhead; Offline from MultiStream is samples per query over
    the mean query latency."""
    run = summary.scenario
    shown_unit = unit(rules, named, folder)
    if (run, folder) == ("SingleStream", "MultiStream"):
        key = "early_stopping_latency_ms"
        estimate = summary.number(key)
        value = estimate * MULTISTREAM_SAMPLES_PER_QUERY / NS_PER_MS if estimate else None
    elif (run, folder) == ("SingleStream", "Offline"):
        key = "result_qps_without_loadgen_overhead"
        value = summary.number(key)
    elif (run, folder) == ("MultiStream", "Offline"):
        key = "result_mean_query_latency_ns"
        mean, per_query = summary.number(key), summary.number("effective_samples_per_query")
        value = per_query * MS_PER_S / (mean / NS_PER_MS) if mean and per_query else None
    else:
        return Metric("", shown_unit, None,
                      f"folder {folder} holds a {run} run; the checker infers only MultiStream from "
                      "SingleStream and Offline from SingleStream or MultiStream")
    why = "" if value else f"the {run} summary has no '{key}' value"
    return Metric(key, shown_unit, value or None, why, inferred=True)


def unit_model(rules: Rules, model: str, folder_model: str) -> str:
    """The name the round's checker looks its unit table up by: up to v5.1 the model folder's own name
    (so v5.0's ``llama3_1-405b`` folders print Queries/s and Samples/s over tokens per second, as the
    official table does), from v6.0 the benchmark name."""
    return folder_model.strip() if rules.version < (6, 0) else model


def primary_metric(rules: Rules, model: str, folder_scenario: str, summary: Summary,
                   folder_model: str | None = None) -> Metric:
    """The result a results table prints for this summary, or why it cannot be read."""
    named = unit_model(rules, model, folder_model or model)
    if folder_scenario not in rules.scenarios and folder_scenario not in SCENARIOS:
        return Metric("", "", None, f"scenario '{folder_scenario}' is not one the tool knows")
    run = summary.scenario
    if run != effective_scenario(folder_scenario):
        return _inferred(named, folder_scenario, summary, rules)
    key = _fallback_key(rules, model, run, summary)
    shown_unit = unit(rules, named, folder_scenario)
    if key != metric_key(rules, model, run):
        shown_unit = "Tokens/s"
    value = summary.number(key)
    if value is None:
        return Metric(key, shown_unit, None, f"the summary has no '{key}' value")
    return Metric(key, shown_unit, _scaled(value, run, model))
