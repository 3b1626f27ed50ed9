"""The primary metric of a result, per scenario, as MLCommons' submission checker takes it.

- Offline: samples per second; language models: tokens per second (GPT-J: the inferred tokens).
- Server (and Interactive): completed queries per second from v4.1 (scheduled before); language models
  from v4.1: completed tokens per second (v4.0: Llama 2 in completed queries per second).
- SingleStream: LoadGen's early-stopping estimate of the 90th-percentile latency, in ms.
- MultiStream: the early-stopping estimate of the 99th-percentile per-query latency, in ms.
Units are those of the official results tables. Power: average watts (Offline, Server), energy per
query in millijoules (the streams).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlperf_report.suites.inference import models
from mlperf_report.suites.inference.loadgen import Summary
from mlperf_report.suites.inference.rounds import Round

LATENCY_SCENARIOS = ("SingleStream", "MultiStream")
THROUGHPUT_SCENARIOS = ("Offline", "Server", "Interactive")
SCENARIOS = ("Offline", "Server", "Interactive", "SingleStream", "MultiStream")
NS_PER_MS = 1_000_000

POWER_UNITS = {"Offline": "Watts", "Server": "Watts", "Interactive": "Watts",
               "SingleStream": "millijoules", "MultiStream": "millijoules"}


@dataclass(frozen=True)
class Metric:
    key: str      # the checker's key, e.g. result_samples_per_second
    unit: str     # as the official tables print it
    value: float | None
    why_missing: str = ""


def higher_is_better(scenario: str) -> bool:
    return scenario not in LATENCY_SCENARIOS


def _token_key(summary: Summary, server: bool) -> str:
    plain = "result_completed_tokens_per_second" if server else "result_tokens_per_second"
    inferred = "result_inferred_completed_tokens_per_second" if server else "result_inferred_tokens_per_second"
    return plain if summary.number(plain) is not None else inferred


def metric_key(round_: Round, model: str, scenario: str, summary: Summary) -> tuple[str, str]:
    """The checker key of the primary metric and its unit."""
    llm = models.is_llm(model) or summary.number("result_tokens_per_second") is not None
    base = models.split_variant(model)[0]
    if scenario == "SingleStream":
        return "early_stopping_latency_ss", "Latency (ms)"
    if scenario == "MultiStream":
        return "early_stopping_latency_ms", "Latency (ms)"
    if scenario == "Offline":
        tokens = llm and (round_.llm_tokens_in_server or base == "llama2-70b")
        return (_token_key(summary, False), "Tokens/s") if tokens else ("result_samples_per_second", "Samples/s")
    if llm and round_.llm_tokens_in_server:
        return _token_key(summary, True), "Tokens/s"
    if round_.server_completed or base == "llama2-70b":
        return "result_completed_samples_per_sec", "Queries/s"
    return "result_scheduled_samples_per_sec", "Queries/s"


def primary_metric(round_: Round, model: str, scenario: str, summary: Summary) -> Metric:
    """The result a results table prints for this summary, or why it cannot be read."""
    if scenario not in SCENARIOS:
        return Metric("", "", None, f"scenario '{scenario}' is not one the tool knows")
    key, unit = metric_key(round_, model, scenario, summary)
    value = summary.number(key)
    if value is None:
        return Metric(key, unit, None, f"the summary has no '{key}' value")
    if scenario in LATENCY_SCENARIOS:
        value = value / NS_PER_MS
    return Metric(key, unit, value)
