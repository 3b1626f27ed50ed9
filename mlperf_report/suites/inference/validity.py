"""Whether a result is valid, as the submission checker decides it from the files a cut tree keeps:
LoadGen's verdict, the accuracy target (closed and network divisions; the open division may trade
accuracy), and the compliance tests' verdicts (closed and network divisions).

The audit tests each benchmark needs come from ``checker_rules``; TEST07 and TEST08 (``verify_accuracy``)
and TEST09 (``verify_output_len``) must say ``TEST PASS``.

TEST01's accuracy check may fail in deterministic mode; the checker then compares the baseline and
compliance accuracies, whose files the cut trees lack, so a failed TEST01 accuracy verdict alone does
not make a result invalid (the manifest says so). Performance verdicts (``verify_performance.txt``)
must say ``TEST PASS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlperf_report.suites.inference.checker_rules import MIN_DURATION_MS, NO_MIN_DURATION, Rules
from mlperf_report.suites.inference.loadgen import Summary

#: Tests whose verdict is a ``TEST PASS`` line in a named file besides verify_performance.txt.
_PASS_FILES = {"TEST07": "verify_accuracy", "TEST08": "verify_accuracy", "TEST09": "verify_output_len"}

#: Said after a reason a round's own rules would hold against a result, when the tool applies another's.
NOT_ENFORCED = "(checker rules of another round, not enforced)"

#: Divisions whose results must meet the accuracy target and pass the compliance tests.
AUDITED_DIVISIONS = ("closed", "network")


@dataclass(frozen=True)
class Compliance:
    passed: bool | None   # None: no compliance folder for this result
    detail: str = ""


def _test06_passed(text: str) -> bool:
    checks = [line for line in text.splitlines() if "check pass:" in line]
    return bool(checks) and all(line.split(":", 1)[1].strip() in ("True", "Skipped") for line in checks)


def judge_compliance(verdicts: dict[str, dict[str, str]], required: tuple[str, ...] | None) -> Compliance:
    """``verdicts``: TEST* -> verify file name -> its text; ``required``: the tests the model needs."""
    missing = [t for t in required or () if t not in verdicts]
    failed = []
    for test, files in sorted(verdicts.items()):
        for name, text in sorted(files.items()):
            if "verify_performance" in name and "TEST PASS" not in text:
                failed.append(f"{test} performance")
            if test == "TEST06" and "verify_accuracy" in name and not _test06_passed(text):
                failed.append(f"{test} accuracy")
            if _PASS_FILES.get(test, "\0") in name and "TEST PASS" not in text:
                failed.append(f"{test} {name.removeprefix('verify_').removesuffix('.txt')}")
    if failed:
        return Compliance(False, "compliance test failed: " + ", ".join(failed))
    if missing:
        return Compliance(None, "compliance test missing: " + ", ".join(missing))
    if required is None and not verdicts:
        return Compliance(None, "")
    return Compliance(True, "")


def verdict(division: str, loadgen_valid: bool | None, loadgen_unmet: list[str], accuracy_met: bool | None,
            accuracy_detail: str, compliance: Compliance, enforce: bool = True,
            harness: str = "LoadGen") -> tuple[bool, list[str]]:
    """Valid or not, and every reason a result is not. ``enforce=False`` (a round whose own rules
    the tool does not know): accuracy targets and missing tests are reported, not held against the result;
    LoadGen's verdict and failed audit tests still are."""
    reasons = []
    if loadgen_valid is None:
        reasons.append("no LoadGen summary")
    elif not loadgen_valid:
        unmet = f" ({', '.join(loadgen_unmet)}: no)" if loadgen_unmet else ""
        reasons.append(f"{harness}: INVALID{unmet}")
    audited = division in AUDITED_DIVISIONS
    if audited and accuracy_met is False:
        reasons.append(f"accuracy target not met: {accuracy_detail}")
    if audited and accuracy_met is None and accuracy_detail:
        reasons.append(f"accuracy not checked: {accuracy_detail}")
    if audited and compliance.passed is False:
        reasons.append(compliance.detail)
    if audited and compliance.passed is None and compliance.detail:
        reasons.append(compliance.detail)
    soft = ("accuracy not checked",) if enforce else ("accuracy", "compliance test missing")
    if not enforce:
        reasons = [f"{r} {NOT_ENFORCED}" if r.startswith(soft) else r for r in reasons]
    hard = [r for r in reasons if not r.startswith(soft)]
    return not hard, reasons


def _llm_latency(rules: Rules, model: str, scenario: str, summary: Summary) -> list[str]:
    limits = rules.llm_limits.get(model, {}).get(scenario)
    if limits is None or (not rules.llm_any_scenario and scenario not in ("Server", "Interactive")):
        return []
    ttft = summary.number("result_first_token_99.00_percentile_latency_ns")
    tpot = summary.number("result_time_per_output_token_99.00_percentile_ns")
    if ttft is None or tpot is None:
        return []   # token latencies not printed: LoadGen's verdict stands (see NOT_CHECKED)
    if ttft < limits[0] and tpot < limits[1]:
        return []
    return [f"LLM latency limits not met: TTFT p99 {ttft / 1e6:g} ms (limit {limits[0] / 1e6:g}), "
            f"TPOT p99 {tpot / 1e6:g} ms (limit {limits[1] / 1e6:g})"]


def run_problems(rules: Rules, model: str, scenario: str, summary: Summary, enforce: bool) -> list[str]:
    """What the checker holds against a performance run, read from the summary's printed values: the
    LLM TTFT/TPOT limits, the minimum duration and (rules of this very round only) LoadGen's seeds."""
    problems = _llm_latency(rules, model, scenario, summary)
    duration = summary.number("effective_min_duration_ms")
    if duration is not None and duration < MIN_DURATION_MS and model not in NO_MIN_DURATION:
        problems.append(f"min_duration {duration:g} ms is below the rules' {MIN_DURATION_MS} ms")
    if enforce:
        wrong = [key.removeprefix("effective_") for key, seed in rules.seeds.items()
                 if summary.text(key) not in (None, seed)]
        if wrong:
            problems.append(f"LoadGen seeds are not the round's: {', '.join(wrong)}")
    return problems
