"""Whether a result is valid, as the submission checker decides it from the files a cut tree keeps:
LoadGen's verdict, the accuracy target (closed and network divisions; the open division may trade
accuracy), and the compliance tests' verdicts (closed and network divisions).

TEST01's accuracy check may fail in deterministic mode; the checker then compares the baseline and
compliance accuracies, whose files the cut trees lack, so a failed TEST01 accuracy verdict alone does
not make a result invalid (the manifest says so). Performance verdicts (``verify_performance.txt``)
must say ``TEST PASS``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Divisions whose results must meet the accuracy target and pass the compliance tests.
AUDITED_DIVISIONS = ("closed", "network")


_NO_TEST04 = ("rnnt", "bert", "dlrm-v2", "3d-unet", "retinanet")
_NO_TEST05 = ("stable-diffusion-xl",)
_TEST06 = ("llama2-70b", "llama2-70b-interactive", "llama3.1-405b", "mixtral-8x7b")


#: Models whose required audit tests were read from the checker (v4.0, v4.1).
_KNOWN_TESTS = ("resnet50", "retinanet", "rnnt", "bert", "dlrm-v2", "3d-unet", "stable-diffusion-xl", "gptj",
                "llama2-70b", "mixtral-8x7b")


def required_tests(base_model: str, llm: bool) -> tuple[str, ...] | None:
    """The audit tests the checker requires of a model (language models: only TEST06 where it exists);
    None for a model whose list the tool does not know (then only failed verdicts count)."""
    if base_model not in _KNOWN_TESTS:
        return None
    if llm:
        return ("TEST06",) if base_model in _TEST06 else ()
    tests = ["TEST01", "TEST04", "TEST05"]
    if base_model in _NO_TEST04:
        tests.remove("TEST04")
    if base_model in _NO_TEST05:
        tests.remove("TEST05")
    return tuple(tests)


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
    if failed:
        return Compliance(False, "compliance test failed: " + ", ".join(failed))
    if missing:
        return Compliance(None, "compliance test missing: " + ", ".join(missing))
    if required is None and not verdicts:
        return Compliance(None, "")
    return Compliance(True, "")


def verdict(division: str, loadgen_valid: bool | None, loadgen_unmet: list[str], accuracy_met: bool | None,
            accuracy_detail: str, compliance: Compliance, enforce: bool = True) -> tuple[bool, list[str]]:
    """Valid or not, and every reason a result is not. ``enforce=False`` (a round newer than the rules
    the tool knows): accuracy targets and missing tests are reported, not held against the result;
    LoadGen's verdict and failed audit tests still are."""
    reasons = []
    if loadgen_valid is None:
        reasons.append("no LoadGen summary")
    elif not loadgen_valid:
        unmet = f" ({', '.join(loadgen_unmet)}: no)" if loadgen_unmet else ""
        reasons.append(f"LoadGen: INVALID{unmet}")
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
        reasons = [f"{r} (rules of an earlier round, not enforced)" if r.startswith(soft) else r for r in reasons]
    hard = [r for r in reasons if not r.startswith(soft)]
    return not hard, reasons
