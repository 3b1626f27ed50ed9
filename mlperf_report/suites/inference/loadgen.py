"""LoadGen's ``mlperf_log_summary.txt``: the ``name : value`` lines, the verdict and its reason.

The summary prints LoadGen's result fields under readable names; the checker reads the same values
from the detail log by key. ``SUMMARY_FIELDS`` ties the two. Where a copy keeps the detail log its values
win: the summary rounds some of them (``Completed tokens per second: 288.60`` for the log's 288.601).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_LINE = re.compile(r"^\s*\*?\s*(?P<name>[A-Za-z0-9][^:]*?)\s*:\s*(?P<value>\S.*?)\s*$")

#: The checker's detail-log key -> the summary lines carrying the same value (first found wins).
SUMMARY_FIELDS = {
    "result_samples_per_second": ("Samples per second",),
    "result_tokens_per_second": ("Tokens per second",),
    "result_inferred_tokens_per_second": ("Tokens per second (inferred)",),
    "result_scheduled_samples_per_sec": ("Scheduled samples per second",),
    "result_completed_samples_per_sec": ("Completed samples per second",),
    "result_completed_tokens_per_second": ("Completed tokens per second",),
    "result_inferred_completed_tokens_per_second": ("Completed tokens per second (inferred)",),
    "early_stopping_latency_ss": ("Early stopping 90th percentile estimate",),
    "early_stopping_latency_ms": ("Early stopping 99th percentile estimate",),
    "result_90.00_percentile_latency_ns": ("90.00 percentile latency (ns)", "90th percentile latency (ns)"),
    "result_99.00_percentile_per_query_latency_ns": ("99th percentile latency (ns)",),
    "result_qps_without_loadgen_overhead": ("QPS w/o loadgen overhead",),
    "result_mean_query_latency_ns": ("Mean latency (ns)",),
    "result_mean_latency_ns": ("Mean latency (ns)",),
    "effective_samples_per_query": ("samples_per_query",),
    "result_first_token_99.00_percentile_latency_ns": ("99.00 percentile first token latency (ns)",),
    "result_time_per_output_token_99.00_percentile_ns": ("99.00 percentile time to output token (ns)",
                                                         "99.00 percentile time per output token (ns)"),
    "effective_min_duration_ms": ("min_duration (ms)",),
    "effective_qsl_rng_seed": ("qsl_rng_seed",),
    "effective_sample_index_rng_seed": ("sample_index_rng_seed",),
    "effective_schedule_rng_seed": ("schedule_rng_seed",),
}

#: Newer LoadGen prints percentiles with a decimal ("90.0th"); names are kept in the older spelling.
_DECIMAL_PERCENTILE = re.compile(r"(\d+)\.0th\b")


class SummaryError(ValueError):
    """A summary that cannot be read; the message says what is wrong."""


@dataclass
class Summary:
    scenario: str
    mode: str
    valid: bool
    fields: dict[str, str] = field(default_factory=dict)
    unmet: list[str] = field(default_factory=list)  # the constraints LoadGen reports as not satisfied
    logged: dict[str, object] = field(default_factory=dict)  # checker key -> value in mlperf_log_detail.txt
    harness: str = "LoadGen"  # what ran the test (and gave the verdict)

    def text(self, key: str) -> str | None:
        """The value of a checker key (the detail log's where known, else as the summary prints it), None
        when absent."""
        if self.logged.get(key) is not None:
            return str(self.logged[key])
        names = SUMMARY_FIELDS.get(key, (key,))
        return next((self.fields[n] for n in names if n in self.fields), None)

    def number(self, key: str) -> float | None:
        """The value of a checker key (``result_samples_per_second``) as a float, None when absent."""
        text = self.text(key)
        try:
            return float(text) if text is not None else None
        except ValueError:
            return None


def parse_summary(text: str) -> Summary:
    """Parse a summary's text (first value wins when a name repeats, as in the LLM summaries)."""
    fields: dict[str, str] = {}
    unmet = []
    for line in text.splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        name, value = _DECIMAL_PERCENTILE.sub(r"\1th", match.group("name")), match.group("value")
        fields.setdefault(name, value)
        if name.endswith("satisfied") and value.strip().lower() != "yes":
            unmet.append(name)
    if "Scenario" not in fields or "Result is" not in fields:
        raise SummaryError("not a LoadGen summary (no 'Scenario :' or 'Result is :' line)")
    scenario = fields["Scenario"].replace(" ", "")
    return Summary(scenario, fields.get("Mode", ""), fields["Result is"].strip().upper() == "VALID", fields, unmet)
