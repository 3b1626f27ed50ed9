"""Accuracy targets per round (the reference accuracy times 99 % or 99.9 %, with the upper limits some
benchmarks have) and the reading of ``accuracy.txt`` as the submission checker reads it.

A model is within target when every metric of its target list is found and meets its bound; the
accuracy a table prints is the first metric of the list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: How each accuracy metric is spelled in accuracy.txt (format facts of the reference scripts).
PATTERNS = {
    "acc": r"^accuracy=([\d.]+)",
    "AUC": r"^AUC=([\d.]+)",
    "mAP": r"^mAP=([\d.]+)",
    "F1": r"^\{[\"']exact_match[\"']:\s*[\d.]+,\s*[\"']f1[\"']:\s*([\d.]+)\}",
    "WER": r"Word Error Rate:.*, accuracy=([\d.]+)%",
    "DICE": r"Accuracy:\s*mean\s*=\s*([\d.]+)",
    "ROUGE1": r".*'rouge1':\s([\d.]+)",
    "ROUGE2": r".*'rouge2':\s([\d.]+)",
    "ROUGEL": r".*'rougeL':\s([\d.]+)",
    "GEN_LEN": r".*'gen_len':\s([\d.]+)",
    "TOKENS_PER_SAMPLE": r".*'tokens_per_sample':\s([\d.]+)",
    "CLIP_SCORE": r".*'CLIP_SCORE':\s([\d.]+)",
    "FID_SCORE": r".*'FID_SCORE':\s([\d.]+)",
    "gsm8k_accuracy": r".*'gsm8k':\s([\d.]+)",
    "mbxp_accuracy": r".*'mbxp':\s([\d.]+)",
}
_COMPILED = {name: re.compile(p) for name, p in PATTERNS.items()}


def _llm(rouge1, rouge2, rougel, share, extra):
    return [("ROUGE1", rouge1 * share, None), ("ROUGE2", rouge2 * share, None),
            ("ROUGEL", rougel * share, None), *extra]


def _pairs(base: dict, model: str, reference: float, metric: str):
    base[f"{model}-99"] = [(metric, reference * 0.99, None)]
    base[f"{model}-99.9"] = [(metric, reference * 0.999, None)]


def _v40() -> dict:
    t = {"resnet50": [("acc", 76.46 * 0.99, None)], "retinanet": [("mAP", 37.55 * 0.99, None)],
         "rnnt": [("WER", (100 - 7.452) * 0.99, None)],
         "stable-diffusion-xl": [("CLIP_SCORE", 31.68631873, 31.81331801), ("FID_SCORE", 23.01085758, 23.95007626)]}
    _pairs(t, "bert", 90.874, "F1")
    _pairs(t, "dlrm-v2", 80.31, "AUC")
    _pairs(t, "3d-unet", 0.86170, "DICE")
    for share, suffix in ((0.99, "99"), (0.999, "99.9")):
        t[f"gptj-{suffix}"] = _llm(42.9865, 20.1235, 29.9881, share, [("GEN_LEN", 4016878 * 0.9, None)])
        t[f"llama2-70b-{suffix}"] = _llm(43.88, 21.7108, 28.2502, share, [("TOKENS_PER_SAMPLE", 293.3 * 0.9, None)])
    return t


def _v41() -> dict:
    t = {k: v for k, v in _v40().items() if k != "rnnt"}
    for share, suffix in ((0.99, "99"), (0.999, "99.9")):
        t[f"llama2-70b-{suffix}"] = _llm(44.4312, 22.0352, 28.6162, share,
                                         [("TOKENS_PER_SAMPLE", 294.45 * 0.9, 294.45 * 1.1)])
    t["mixtral-8x7b"] = _llm(45.4911, 23.2829, 30.3615, 0.99, [
        ("TOKENS_PER_SAMPLE", 145.9 * 0.9, 145.9 * 1.1), ("gsm8k_accuracy", 73.78 * 0.99, None),
        ("mbxp_accuracy", 60.12 * 0.99, None)])
    return t


#: rules version -> model -> [(metric, lower bound, upper bound or None)]
TARGETS = {(4, 0): _v40(), (4, 1): _v41()}


@dataclass(frozen=True)
class Accuracy:
    value: float | None        # the first metric of the target list
    met: bool | None           # None: no target known for this model
    detail: str = ""


def read_values(text: str) -> dict[str, float]:
    """Every accuracy metric found in an accuracy.txt (first occurrence wins)."""
    found: dict[str, float] = {}
    for line in text.splitlines():
        for name, pattern in _COMPILED.items():
            if name not in found and (match := pattern.match(line)):
                try:
                    found[name] = float(match.group(1).rstrip("."))
                except ValueError:
                    continue
    return found


def judge(text: str, model: str, rules_version: tuple[int, int]) -> Accuracy:
    """The accuracy of a result and whether it meets its model's target in that round's rules."""
    target = TARGETS.get(rules_version, {}).get(model)
    values = read_values(text)
    if not target:
        first = next(iter(values.values()), None)
        return Accuracy(first, None, f"no accuracy target known for '{model}'")
    problems = []
    for metric, low, high in target:
        value = values.get(metric)
        if value is None:
            problems.append(f"{metric} not found in accuracy.txt")
        elif value < low:
            problems.append(f"{metric} {value:g} below target {low:.6g}")
        elif high is not None and value > high:
            problems.append(f"{metric} {value:g} above upper limit {high:.6g}")
    return Accuracy(values.get(target[0][0]), not problems, "; ".join(problems))
