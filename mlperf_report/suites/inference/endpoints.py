"""Results run with MLCommons' endpoints harness (from v6.1) instead of LoadGen: the result folder holds
``performance/result_summary.json``, ``accuracy/accuracy_results.json`` and the run's ``config.yaml``.

The submission checker's endpoints parser translates these into the LoadGen keys its rules already use,
so this module does the same and hands back a ``loadgen.Summary``: queries per second (``qps``, else
completed samples over the duration) for the samples and queries fields, tokens per second (``tps``,
else output tokens over the duration) for the token fields, the mean latency, the token latencies'
99th percentiles and the configured minimum duration. A run is valid when the harness says it
completed and no sample failed. The harness runs its own audit, so no ``TEST*`` folder is asked of it.
"""

from __future__ import annotations

from mlperf_report.core import limits
from mlperf_report.suites.inference.loadgen import Summary, SummaryError

NS_PER_S = 1_000_000_000


class EndpointsError(SummaryError):
    """An endpoints-harness file that cannot be read; the message says what is wrong."""


def _json(text: str, what: str) -> dict:
    try:
        data = limits.loads(text, what)
    except limits.LimitError as error:
        raise EndpointsError(str(error)) from None
    except ValueError as error:
        raise EndpointsError(f"{what} is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise EndpointsError(f"{what} is not a JSON object")
    return data


def _number(value: object) -> float | None:
    return float(value) if limits.finite(value) else None


def _per_second(count: object, duration_ns: float | None) -> float | None:
    """``count`` over the duration, per second; a rate too large to be a number (a count near the
    float's limit over a duration near zero) is an error of the file, never an infinite score."""
    count = _number(count)
    if count is None or not duration_ns:
        return None
    rate = count / (duration_ns / NS_PER_S)
    if not limits.finite(rate):
        raise EndpointsError(f"result_summary.json: {count:g} over {duration_ns:g} ns is not a finite rate; "
                             "check duration_ns and the counts")
    return rate


def _p99(block: object) -> float | None:
    percentiles = block.get("percentiles", {}) if isinstance(block, dict) else {}
    return _number(percentiles.get("99.0", percentiles.get("99"))) if isinstance(percentiles, dict) else None


def _min_duration_ms(config_text: str | None) -> float | None:
    """``settings.runtime.min_duration_ms`` of the run's config.yaml, None when absent or unreadable."""
    if not config_text:
        return None
    import yaml

    try:
        config = yaml.safe_load(config_text)
    except yaml.YAMLError:
        return None
    for key in ("settings", "runtime"):  # any level may be missing or not a mapping
        config = config.get(key) if isinstance(config, dict) else None
    return _number(config.get("min_duration_ms")) if isinstance(config, dict) else None


def parse_result_summary(text: str, scenario: str, config_text: str | None = None) -> Summary:
    """``result_summary.json`` (and the folder's ``config.yaml``) as a Summary of LoadGen ``scenario``."""
    data = _json(text, "result_summary.json")
    duration = _number(data.get("duration_ns"))
    failed = _number(data.get("n_samples_failed")) or 0
    osl = data.get("output_sequence_lengths")
    qps = _number(data.get("qps")) or _per_second(data.get("n_samples_completed"), duration)
    tps = _number(data.get("tps")) or _per_second(osl.get("total") if isinstance(osl, dict) else None, duration)
    latency = data.get("latency") if isinstance(data.get("latency"), dict) else {}
    logged = {
        "result_samples_per_second": qps, "result_completed_samples_per_sec": qps,
        "result_tokens_per_second": tps, "result_completed_tokens_per_second": tps,
        "result_mean_latency_ns": _number(latency.get("avg")),
        "result_first_token_99.00_percentile_latency_ns": _p99(data.get("ttft")),
        "result_time_per_output_token_99.00_percentile_ns": _p99(data.get("tpot")),
        "effective_min_duration_ms": _min_duration_ms(config_text),
    }
    unmet = []
    if data.get("complete") is not True and data.get("state") != "complete":
        unmet.append(f"run complete (state {data.get('state')!r})")
    if failed:
        unmet.append(f"no failed samples ({failed:g} failed)")
    return Summary(scenario, "PerformanceOnly", not unmet, {}, unmet,
                   {key: value for key, value in logged.items() if value is not None}, harness="endpoints harness")


def accuracy_values(text: str, metrics: list[str]) -> dict[str, list[float]]:
    """``accuracy_results.json`` as accuracy values: its first accuracy score stands for the first target
    metric (as the checker's parser reads it), its mean output length for ``TOKENS_PER_SAMPLE``."""
    data = _json(text, "accuracy_results.json")
    listed = data.get("accuracy_scores")
    scores = [s for s in listed if isinstance(s, dict)] if isinstance(listed, list) else []
    found: dict[str, list[float]] = {}
    first = _number(scores[0].get("score")) if scores else _number(data.get("average_accuracy"))
    if first is not None and metrics:
        found[metrics[0]] = [first]
    osl = scores[0].get("output_sequence_lengths") if scores else None
    mean_length = _number(osl.get("avg")) if isinstance(osl, dict) else None
    if mean_length is not None and "TOKENS_PER_SAMPLE" in metrics[1:]:
        found["TOKENS_PER_SAMPLE"] = [mean_length]
    return found
