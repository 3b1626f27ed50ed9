"""MLCommons' submission-checker tables per Inference round, transcribed as data: the benchmarks of a
round, their accuracy targets, which LoadGen field is a result's primary metric and in which unit the
official table prints it, the audit tests each benchmark needs and the LLM latency limits.

The checker (``mlcommons/inference`` ``tools/submission``) is a script run on a full submission tree,
not a library, and it reads ``mlperf_log_detail.txt`` files that the cut trees lack; its tables are the
part that carries over, so they are kept here, one block per round. A new round is a new block (the
checker changes a few entries per round); a round newer than the last block takes the last block's
rules and the manifest says so. Numbers are written as the checker writes them (``76.46 * 0.99``) so
the bounds are the same floats.

Sources: ``submission_checker.py`` (v4.0, v4.1), the v5.x monolithic checker and the
``submission_checker/constants.py`` package (v5.0 to v6.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# --- accuracy.txt patterns -------------------------------------------------------------------------

_PATTERNS_V4 = {
    "acc": r"^accuracy=([\d\.]+).*",
    "AUC": r"^AUC=([\d\.]+).*",
    "mAP": r"^mAP=([\d\.]+).*",
    "bleu": r"^BLEU\:\s*([\d\.]+).*",
    "F1": r"^{[\"\']exact_match[\"\']\:\s*[\d\.]+,\s*[\"\']f1[\"\']\:\s*([\d\.]+)}",
    "WER": r"Word Error Rate\:.*, accuracy=([0-9\.]+)%",
    "DICE": r"Accuracy\:\s*mean\s*=\s*([\d\.]+).*",
    "ROUGE1": r".*'rouge1':\s([\d.]+).*",
    "ROUGE2": r".*'rouge2':\s([\d.]+).*",
    "ROUGEL": r".*'rougeL':\s([\d.]+).*",
    "ROUGELSUM": r".*'rougeLsum':\s([\d.]+).*",
    "GEN_LEN": r".*'gen_len':\s([\d.]+).*",
    "TOKENS_PER_SAMPLE": r".*'tokens_per_sample':\s([\d.]+).*",
    "CLIP_SCORE": r".*'CLIP_SCORE':\s([\d.]+).*",
    "FID_SCORE": r".*'FID_SCORE':\s([\d.]+).*",
    "gsm8k_accuracy": r".*'gsm8k':\s([\d.]+).*",
    "mbxp_accuracy": r".*'mbxp':\s([\d.]+).*",
}

_PATTERNS_V5 = {
    "acc": r"^(?:\{\"accuracy|accuracy)[\": ]*=?\s*([\d\.]+).*",
    "meanAcc": r".*'mean-accuracy':\s+'?([\d.]+)'?.*",
    "AUC": r"^AUC=([\d\.]+).*",
    "DLRM_NE": r".*metric/lifetime_ne/rating:\s*([\d\.]+).*",
    "DLRM_ACC": r".*metric/lifetime_accuracy/rating:\s*([\d\.]+).*",
    "DLRM_AUC": r".*metric/lifetime_gauc/rating:\s*([\d\.]+).*",
    "mAP": r".*(?:mAP=|'Total':)\s*([\d.]+)",
    "bleu": r"^BLEU\:\s*([\d\.]+).*",
    "F1": r"^{[\"\']exact_match[\"\']\:\s*[\d\.]+,\s*[\"\']f1[\"\']\:\s*([\d\.]+)}",
    "ACCURACY": r"Word Error Rate\:.*, accuracy=([0-9\.]+)%",
    "DICE": r"Accuracy\:\s*mean\s*=\s*([\d\.]+).*",
    "ROUGE1": r".*'rouge1':\s+'?([\d.]+)'?.*",
    "ROUGE2": r".*'rouge2':\s+'?([\d.]+)'?.*",
    "ROUGEL": r".*'rougeL':\s+'?([\d.]+)'?.*",
    "ROUGELSUM": r".*'rougeLsum':\s+'?([\d.]+)'?.*",
    "GEN_LEN": r".*'gen_len':\s([\d.]+).*",
    "TOKENS_PER_SAMPLE": r".*'tokens_per_sample':\s([\d.]+).*",
    "CLIP_SCORE": r".*'CLIP_SCORE':\s+'?([\d.]+).*",
    "FID_SCORE": r".*'FID_SCORE':\s+'?([\d.]+).*",
    "gsm8k_accuracy": r".*'gsm8k':\s([\d.]+).*",
    "mbxp_accuracy": r".*'mbxp':\s([\d.]+).*",
    "exact_match": r".*'exact_match':\s([\d.]+).*",
    "vbench_score": r".*'vbench_score':\s([\d.]+).*",
    "F1_HIERARCHICAL": r'\{.*"f1":\s*([\d\.]+).*\}',
    "E2E_ACCURACY": r"Accuracy:\s*([\d\.]+)",
}

# --- accuracy targets and upper limits (flat: metric, bound, metric, bound, ...) ---------------------

_TARGETS_V40 = {
    "resnet": ("acc", 76.46 * 0.99),
    "retinanet": ("mAP", 37.55 * 0.99),
    "rnnt": ("WER", (100 - 7.452) * 0.99),
    "bert-99": ("F1", 90.874 * 0.99),
    "bert-99.9": ("F1", 90.874 * 0.999),
    "dlrm-v2-99": ("AUC", 80.31 * 0.99),
    "dlrm-v2-99.9": ("AUC", 80.31 * 0.999),
    "3d-unet-99": ("DICE", 0.86170 * 0.99),
    "3d-unet-99.9": ("DICE", 0.86170 * 0.999),
    "gptj-99": ("ROUGE1", 42.9865 * 0.99, "ROUGE2", 20.1235 * 0.99, "ROUGEL", 29.9881 * 0.99,
                "GEN_LEN", 4016878 * 0.9),
    "gptj-99.9": ("ROUGE1", 42.9865 * 0.999, "ROUGE2", 20.1235 * 0.999, "ROUGEL", 29.9881 * 0.999,
                  "GEN_LEN", 4016878 * 0.9),
    "llama2-70b-99": ("ROUGE1", 44.4312 * 0.99, "ROUGE2", 22.0352 * 0.99, "ROUGEL", 28.6162 * 0.99,
                      "TOKENS_PER_SAMPLE", 294.45 * 0.9),
    "llama2-70b-99.9": ("ROUGE1", 44.4312 * 0.999, "ROUGE2", 22.0352 * 0.999, "ROUGEL", 28.6162 * 0.999,
                        "TOKENS_PER_SAMPLE", 294.45 * 0.9),
    "stable-diffusion-xl": ("CLIP_SCORE", 31.68631873, "FID_SCORE", 23.01085758),
}
_UPPER_V40 = {
    "stable-diffusion-xl": ("CLIP_SCORE", 31.81331801, "FID_SCORE", 23.95007626),
    "llama2-70b-99": ("TOKENS_PER_SAMPLE", 294.45 * 1.1),
    "llama2-70b-99.9": ("TOKENS_PER_SAMPLE", 294.45 * 1.1),
}

_TARGETS_V41 = {
    **{k: v for k, v in _TARGETS_V40.items() if k != "rnnt"},
    "mixtral-8x7b": ("ROUGE1", 45.4911 * 0.99, "ROUGE2", 23.2829 * 0.99, "ROUGEL", 30.3615 * 0.99,
                     "TOKENS_PER_SAMPLE", 145.9 * 0.9, "gsm8k_accuracy", 73.78 * 0.99,
                     "mbxp_accuracy", 60.12 * 0.99),
}
_UPPER_V41 = {**_UPPER_V40, "mixtral-8x7b": ("TOKENS_PER_SAMPLE", 145.9 * 1.1)}

#: From v5.0 a benchmark's target no longer changes between rounds; each round lists its benchmarks.
_TARGETS_V5 = {
    **{k: v for k, v in _TARGETS_V41.items() if k != "mixtral-8x7b"},
    "llama2-70b-interactive-99": _TARGETS_V41["llama2-70b-99"],
    "llama2-70b-interactive-99.9": _TARGETS_V41["llama2-70b-99.9"],
    "mixtral-8x7b": ("ROUGE1", 45.5989 * 0.99, "ROUGE2", 23.3526 * 0.99, "ROUGEL", 30.4608 * 0.99,
                     "TOKENS_PER_SAMPLE", 144.84 * 0.9, "gsm8k_accuracy", 73.66 * 0.99,
                     "mbxp_accuracy", 60.16 * 0.99),
    "llama3.1-405b": ("ROUGEL", 21.6666 * 0.99, "exact_match", 90.1335 * 0.99, "TOKENS_PER_SAMPLE", 684.68 * 0.9),
    "llama3.1-8b": ("ROUGE1", 38.7792 * 0.99, "ROUGE2", 15.9075 * 0.99, "ROUGEL", 24.4957 * 0.99,
                    "ROUGELSUM", 35.793 * 0.99, "GEN_LEN", 8167644 * 0.9),
    "llama3.1-8b-edge": ("ROUGE1", 39.06 * 0.99, "ROUGE2", 16.1147 * 0.99, "ROUGEL", 24.6375 * 0.99,
                         "ROUGELSUM", 36.124 * 0.99, "GEN_LEN", 3051113 * 0.9),
    "rgat": ("acc", 0.7286 * 0.99),
    "pointpainting": ("mAP", 0.5425 * 0.999),
    "deepseek-r1": ("exact_match", 0.99 * 81.3582, "TOKENS_PER_SAMPLE", 0.9 * 3886.2274),
    "whisper": ("ACCURACY", (100.0 - 2.0671) * 0.99),
    "gpt-oss-120b": ("exact_match", 83.13 * 0.99),
    "qwen3-vl-235b-a22b": ("F1_HIERARCHICAL", 0.7903 * 0.99),
    "dlrm-v3": ("DLRM_NE", 0.86687 * 0.999, "DLRM_ACC", 0.69651 * 0.999, "DLRM_AUC", 0.78663 * 0.999),
    "yolo-95": ("mAP", 53.4 * 0.95),
    "yolo-99": ("mAP", 53.4 * 0.99),
    "wan-2.2-t2v-a14b": ("vbench_score", 70.48 * 0.99),
    # v6.1's end-to-end RAG benchmarks: thresholds as the checker states them (mlcommons/inference PR #2645)
    "e2e-rag-db": ("E2E_ACCURACY", 98),
    "e2e-rag-qna": ("E2E_ACCURACY", 33.95),
    # v6.1's agentic edge benchmark (endpoints harness): BFCL v4 overall accuracy as the harness scores it
    # (a fraction), at least 97 % of the reference 86.23 % (mlcommons/endpoints' ruleset; the checker's
    # own v6.1 table is not public in the sources the tool was built from)
    "qwen3.6-27b": ("BFCL_ACCURACY", 0.97 * 0.8623),
}
_UPPER_V5 = {
    **_UPPER_V41,
    "llama2-70b-interactive-99": ("TOKENS_PER_SAMPLE", 294.45 * 1.1),
    "llama2-70b-interactive-99.9": ("TOKENS_PER_SAMPLE", 294.45 * 1.1),
    "llama3.1-405b": ("TOKENS_PER_SAMPLE", 684.68 * 1.1),
    "llama3.1-8b": ("GEN_LEN", 8167644 * 1.1),
    "llama3.1-8b-edge": ("GEN_LEN", 3051113 * 1.1),
    "deepseek-r1": ("TOKENS_PER_SAMPLE", 1.1 * 3886.2274),
    "gpt-oss-120b": ("TOKENS_PER_SAMPLE", 1.1 * 9999),
}

# --- primary metric: LoadGen key per (effective) scenario, overridden per benchmark --------------------

_FIELDS_V40 = {"Offline": "result_samples_per_second", "SingleStream": "early_stopping_latency_ss",
               "MultiStream": "early_stopping_latency_ms", "Server": "result_scheduled_samples_per_sec"}
_FIELDS = {**_FIELDS_V40, "Server": "result_completed_samples_per_sec"}

_TOKENS = {"Offline": "result_tokens_per_second", "Server": "result_completed_tokens_per_second"}
_INFERRED_TOKENS = {"Offline": "result_inferred_tokens_per_second",
                    "Server": "result_inferred_completed_tokens_per_second"}
_EDGE_LLM = {"Offline": "result_tokens_per_second", "SingleStream": "result_90.00_percentile_latency_ns"}

_OVERWRITE_V40 = {m: {"Offline": "result_tokens_per_second", "Server": "result_completed_samples_per_sec"}
                  for m in ("llama2-70b-99", "llama2-70b-99.9")}
_OVERWRITE_V41 = {"llama2-70b-99": _TOKENS, "llama2-70b-99.9": _TOKENS, "mixtral-8x7b": _TOKENS,
                  "gptj-99": _INFERRED_TOKENS, "gptj-99.9": _INFERRED_TOKENS}
_OVERWRITE_V50 = {**_OVERWRITE_V41, "llama2-70b-interactive-99": _TOKENS, "llama2-70b-interactive-99.9": _TOKENS,
                  "llama3.1-405b": _TOKENS}
_OVERWRITE_V51 = {"llama2-70b-99": _TOKENS, "llama2-70b-99.9": _TOKENS, "llama3.1-8b": _TOKENS,
                  "llama3.1-8b-edge": _EDGE_LLM, "mixtral-8x7b": _TOKENS, "llama3.1-405b": _TOKENS,
                  "deepseek-r1": _TOKENS, "whisper": {"Offline": "result_tokens_per_second"}}
_OVERWRITE_V60 = {**_OVERWRITE_V51, "gpt-oss-120b": _TOKENS}
#: v6.1's agentic benchmark reports the mean latency of its single-stream turns (official tables: ms)
_OVERWRITE_V61 = {**_OVERWRITE_V60, "qwen3.6-27b": {"SingleStream": "result_mean_latency_ns"}}

# --- units of the official table --------------------------------------------------------------------

UNITS = {"SingleStream": "Latency (ms)", "MultiStream": "Latency (ms)", "Offline": "Samples/s",
         "Server": "Queries/s", "Interactive": "Queries/s"}
POWER_UNITS = {"SingleStream": "millijoules", "MultiStream": "millijoules", "Offline": "Watts",
               "Server": "Watts", "Interactive": "Watts"}
_TOKENS_UNITS = {"Offline": "Tokens/s", "Server": "Tokens/s", "Interactive": "Tokens/s"}
_SPECIAL_UNITS_V41 = {m: _TOKENS_UNITS for m in ("gptj-99", "gptj-99.9", "llama2-70b-99", "llama2-70b-99.9",
                                                 "mixtral-8x7b")}
_SPECIAL_UNITS_V5 = {
    "llama3.1-8b": {"Offline": "Tokens/s", "Server": "Tokens/s"},
    "llama3.1-8b-edge": {"Offline": "Tokens/s"},
    **{m: _TOKENS_UNITS for m in ("llama2-70b-99", "llama2-70b-99.9", "mixtral-8x7b", "llama3.1-405b",
                                  "deepseek-r1")},
}
# v5.0's table (seen in its official summary.csv) still lists GPT-J and the interactive Llama 2 benchmark
_SPECIAL_UNITS_V50 = {**_SPECIAL_UNITS_V5, **{m: _TOKENS_UNITS for m in (
    "gptj-99", "gptj-99.9", "llama2-70b-interactive-99", "llama2-70b-interactive-99.9")}}
_SPECIAL_UNITS_V6 = {**_SPECIAL_UNITS_V5, "llama3.1-8b": _TOKENS_UNITS, "gpt-oss-120b": _TOKENS_UNITS,
                     "wan-2.2-t2v-a14b": {"SingleStream": "Latency (s)"}}
# v6.1: a question-answering task is one sample (as its official table prints it)
_SPECIAL_UNITS_V61 = {**_SPECIAL_UNITS_V6, "e2e-rag-qna": {"Offline": "Tasks/s"}}

# --- audit (compliance) tests -----------------------------------------------------------------------


def _tests_v4(model: str, version: tuple[int, int]) -> tuple[str, ...]:
    """The v4.x checker's list: TEST01/04/05 with exemptions, TEST06 for the LLMs."""
    tests = ["TEST01", "TEST04", "TEST05"]
    llms = ("gptj-99", "gptj-99.9", "llama2-70b-99", "llama2-70b-99.9", "mixtral-8x7b")
    if model in ("rnnt", "bert-99", "bert-99.9", "dlrm-v2-99", "dlrm-v2-99.9", "3d-unet-99", "3d-unet-99.9",
                 "retinanet", *llms):
        tests.remove("TEST04")
    if model in (*llms, "stable-diffusion-xl"):
        tests.remove("TEST05")
    if model in llms:
        tests.remove("TEST01")
    if model == "stable-diffusion-xl" and version == (4, 0):
        tests = [t for t in tests if t not in ("TEST01", "TEST04")]
    if model in ("llama2-70b-99", "llama2-70b-99.9", "mixtral-8x7b"):
        tests.append("TEST06")
    return tuple(tests)


_TEST01_V50 = ["resnet", "retinanet", "bert-99", "bert-99.9", "dlrm-v2-99", "dlrm-v2-99.9", "3d-unet-99",
               "3d-unet-99.9", "stable-diffusion-xl", "rgat", "pointpainting"]
_TEST06_V51 = ["llama2-70b-99", "llama2-70b-99.9", "llama2-70b-interactive-99", "llama2-70b-interactive-99.9",
               "llama3.1-405b", "llama3.1-8b", "mixtral-8x7b", "deepseek-r1"]
#: v5.0 onwards: test -> benchmarks that need it. v5.0 gptj is left out of TEST06: the round's own
#: checker and the later package disagree (TEST01+TEST04 vs TEST06), so neither is required of it.
_TESTS_V50 = {"TEST01": _TEST01_V50, "TEST04": ["resnet", "stable-diffusion-xl", "pointpainting"],
              "TEST06": ["llama2-70b-99", "llama2-70b-99.9", "llama2-70b-interactive-99",
                         "llama2-70b-interactive-99.9", "mixtral-8x7b"]}
_TESTS_V51 = {**_TESTS_V50, "TEST01": [*_TEST01_V50, "whisper"], "TEST06": _TEST06_V51}
_TESTS_V60 = {**_TESTS_V51, "TEST01": [*_TESTS_V51["TEST01"], "yolo-99", "yolo-95"],
              "TEST04": [*_TESTS_V51["TEST04"], "wan-2.2-t2v-a14b"],
              "TEST07": ["gpt-oss-120b"], "TEST08": ["dlrm-v3"], "TEST09": ["gpt-oss-120b"]}
_TESTS_V61 = {**_TESTS_V60,
              "TEST01": ["resnet", "bert-99", "bert-99.9", "3d-unet-99", "3d-unet-99.9", "stable-diffusion-xl",
                         "rgat", "whisper", "yolo-99", "yolo-95"],
              "TEST04": ["resnet", "stable-diffusion-xl", "wan-2.2-t2v-a14b"],
              "TEST06": ["llama2-70b-99", "llama2-70b-99.9", "llama2-70b-interactive-99",
                         "llama2-70b-interactive-99.9", "llama3.1-8b", "deepseek-r1"],
              "TEST09": [*_TESTS_V60["TEST09"], "e2e-rag-qna"]}

# --- LLM latency limits: benchmark -> scenario folder -> (TTFT p99, TPOT p99) in ns --------------------

_MS = 1_000_000
_CONVERSATIONAL = {s: (2000 * _MS, 200 * _MS) for s in ("Server", "SingleStream", "MultiStream")}
_LLM_LIMITS_V4 = {m: _CONVERSATIONAL for m in ("llama2-70b-99", "llama2-70b-99.9", "mixtral-8x7b")}
_LLM_LIMITS_V5 = {
    "llama2-70b-99": {"Server": (2000 * _MS, 200 * _MS), "Interactive": (450 * _MS, 40 * _MS)},
    "llama2-70b-99.9": {"Server": (2000 * _MS, 200 * _MS), "Interactive": (450 * _MS, 40 * _MS)},
    "llama2-70b-interactive-99": {"Server": (450 * _MS, 40 * _MS)},
    "llama2-70b-interactive-99.9": {"Server": (450 * _MS, 40 * _MS)},
    "mixtral-8x7b": {"Server": (2000 * _MS, 200 * _MS)},
    "llama3.1-405b": {"Server": (6000 * _MS, 175 * _MS), "Interactive": (4500 * _MS, 80 * _MS)},
    "llama3.1-8b": {"Server": (2000 * _MS, 100 * _MS), "Interactive": (500 * _MS, 30 * _MS)},
    "deepseek-r1": {"Server": (2000 * _MS, 80 * _MS), "Interactive": (1500 * _MS, 15 * _MS)},
    "gpt-oss-120b": {"Server": (3000 * _MS, 80 * _MS), "Interactive": (2000 * _MS, 15 * _MS)},
}

# --- LoadGen seeds of each round (qsl, sample index, schedule), as the run's summary prints them -----

_SEEDS = {
    (4, 0): ("13281865557512327830", "198141574272810017", "7575108116881280410"),
    (4, 1): ("3066443479025735752", "10688027786191513374", "14962580496156340209"),
    (5, 0): ("6023615788873153749", "15036839855038426416", "9933818062894767841"),
    (5, 1): ("1780908523862526354", "14771362308971278857", "18209322760996052031"),
    (6, 0): ("2465351861681999779", "14276810075590677512", "3936089224930324775"),
    (6, 1): ("2085463073848966840", "2747215439041700203", "16159082839903944936"),
}
SEED_KEYS = ("effective_qsl_rng_seed", "effective_sample_index_rng_seed", "effective_schedule_rng_seed")
#: The shortest performance run the rules allow (TEST_DURATION_MS), and the benchmarks exempt from it
#: (the end-to-end RAG runs issue their whole dataset once).
MIN_DURATION_MS = 600_000
NO_MIN_DURATION = ("e2e-rag-db", "e2e-rag-qna")

# --- the benchmarks of each round -------------------------------------------------------------------

_MODELS_V41 = ("resnet", "retinanet", "bert-99", "bert-99.9", "dlrm-v2-99", "dlrm-v2-99.9", "3d-unet-99",
               "3d-unet-99.9", "gptj-99", "gptj-99.9", "llama2-70b-99", "llama2-70b-99.9", "stable-diffusion-xl",
               "mixtral-8x7b")
_MODELS_V40 = tuple(m for m in _MODELS_V41 if m != "mixtral-8x7b") + ("rnnt",)
_MODELS_V50 = (*_MODELS_V41, "llama2-70b-interactive-99", "llama2-70b-interactive-99.9", "llama3.1-405b", "rgat",
               "pointpainting")
_MODELS_V51 = (*(m for m in _MODELS_V50 if not m.startswith(("gptj", "llama2-70b-interactive"))),
               "llama3.1-8b", "llama3.1-8b-edge", "deepseek-r1", "whisper")
_MODELS_V60 = (*(m for m in _MODELS_V51 if not m.startswith("dlrm-v2")), "gpt-oss-120b", "wan-2.2-t2v-a14b",
               "qwen3-vl-235b-a22b", "dlrm-v3", "yolo-95", "yolo-99")
_MODELS_V61 = (*(m for m in _MODELS_V60 if m not in ("retinanet", "mixtral-8x7b", "llama3.1-405b", "pointpainting")),
               "e2e-rag-qna", "e2e-rag-db", "qwen3.6-27b")

_MAPPING_V4 = {"ssd-resnet34": "retinanet", "mobilenet": "resnet", "resnet50": "resnet"}
_MAPPING_V50 = {**_MAPPING_V4, "llama3_1-405b": "llama3.1-405b"}
_MAPPING_V51 = {**_MAPPING_V50, "llama3_1-8b": "llama3.1-8b", "llama3_1-8b-edge": "llama3.1-8b-edge"}


@dataclass(frozen=True)
class Rules:
    """The checker's rules of one round."""

    version: tuple[int, int]
    models: tuple[str, ...]
    targets: dict
    upper: dict
    patterns: dict
    fields: dict
    overwrite: dict
    special_units: dict | None            # None: every benchmark in the plain units (v4.0)
    tests: dict | None                     # test -> benchmarks; None: the v4.x rule (_tests_v4)
    llm_limits: dict
    mapping: dict
    llm_any_scenario: bool = False        # v4.x: every scenario but Offline is held to the limits
    scenarios: tuple[str, ...] = field(default=("Offline", "Server", "SingleStream", "MultiStream"))

    @property
    def seeds(self) -> dict[str, str]:
        return dict(zip(SEED_KEYS, _SEEDS[self.version]))


def _v5(version, models, overwrite, tests, units, mapping, interactive=True) -> Rules:
    scenarios = ("Offline", "Server", "SingleStream", "MultiStream") + (("Interactive",) if interactive else ())
    return Rules(version, models, _TARGETS_V5, _UPPER_V5, _PATTERNS_V5, _FIELDS, overwrite, units, tests,
                 _LLM_LIMITS_V5, mapping, scenarios=scenarios)


RULES: dict[tuple[int, int], Rules] = {
    (4, 0): Rules((4, 0), _MODELS_V40, _TARGETS_V40, _UPPER_V40, _PATTERNS_V4, _FIELDS_V40, _OVERWRITE_V40,
                  None, None, _LLM_LIMITS_V4, _MAPPING_V4, llm_any_scenario=True),
    (4, 1): Rules((4, 1), _MODELS_V41, _TARGETS_V41, _UPPER_V41, _PATTERNS_V4, _FIELDS, _OVERWRITE_V41,
                  _SPECIAL_UNITS_V41, None, _LLM_LIMITS_V4, _MAPPING_V4, llm_any_scenario=True),
    (5, 0): _v5((5, 0), _MODELS_V50, _OVERWRITE_V50, _TESTS_V50, _SPECIAL_UNITS_V50, _MAPPING_V50, interactive=False),
    (5, 1): _v5((5, 1), _MODELS_V51, _OVERWRITE_V51, _TESTS_V51, _SPECIAL_UNITS_V5, _MAPPING_V51),
    (6, 0): _v5((6, 0), _MODELS_V60, _OVERWRITE_V60, _TESTS_V60, _SPECIAL_UNITS_V6, _MAPPING_V51),
    (6, 1): _v5((6, 1), _MODELS_V61, _OVERWRITE_V61, _TESTS_V61, _SPECIAL_UNITS_V61, _MAPPING_V51),
}


def rules_for(version: tuple[int, int]) -> Rules:
    """The rules of a round, or of the newest known round before it."""
    known = [v for v in RULES if v <= version]
    return RULES[max(known)] if known else RULES[min(RULES)]


def mlperf_model(folder: str, rules: Rules, submitter_mapping: dict[str, str] | None = None) -> str:
    """The checker's benchmark name for a model folder: as is, the round's mapping, the submitter's own
    ``model_mapping.json`` (open division), then the checker's name heuristics (``resnet50``-like names
    are ResNet, ``bert-99.9`` before ``bert-99``)."""
    name = folder.strip()
    if name in rules.models:
        return name
    if name in rules.mapping:
        return rules.mapping[name]
    if submitter_mapping and isinstance(submitter_mapping.get(name), str):
        return submitter_mapping[name]
    lowered = name.lower()
    if any(k in lowered for k in ("mobilenet", "efficientnet", "resnet50")):
        return "resnet"
    for bench in ("bert-99.9", "bert-99"):
        if bench in lowered:
            return bench
    if "llama3_1-405b" in lowered:
        return "llama3.1-405b"
    return name


def required_tests(rules: Rules, model: str) -> tuple[str, ...] | None:
    """The audit tests the checker requires of a benchmark; None for a name the round does not list."""
    if model not in rules.models:
        return None
    if rules.tests is None:
        return _tests_v4(model, rules.version)
    return tuple(test for test, members in sorted(rules.tests.items()) if model in members)


def unit(rules: Rules, model: str, scenario: str) -> str:
    """The unit the official table prints for a result (scenario: the folder's, e.g. Interactive)."""
    if rules.special_units is None:
        return UNITS.get(scenario, "")
    return rules.special_units.get(model, UNITS).get(scenario, UNITS.get(scenario, ""))


def accuracy_bounds(rules: Rules, model: str) -> list[tuple[str, float, float | None]] | None:
    """[(metric, lower bound or None, upper bound or None)]: the targets in the checker's order, then the
    upper limits of metrics without a target (held only where found); None: no target known."""
    target = rules.targets.get(model)
    if not target:
        return None
    upper = dict(zip(rules.upper.get(model, ())[::2], rules.upper.get(model, ())[1::2]))
    bounds = [(metric, bound, upper.get(metric)) for metric, bound in zip(target[::2], target[1::2])]
    return bounds + [(metric, None, high) for metric, high in upper.items() if metric not in target[::2]]
