"""The Inference model catalogue: names in English and Traditional Chinese for every model of the
rounds v4.0 onwards, and which of them are language models (scored in tokens).

Folder names are MLCommons' benchmark ids (``llama2-70b-99``); a ``-99`` / ``-99.9`` suffix is the
accuracy variant (95 %, 99 % or 99.9 % of the reference model's accuracy). Names not in the catalogue are
shown as they are spelled in the tree.
"""

from __future__ import annotations

import re

#: benchmark id (without the accuracy suffix) -> (English, Traditional Chinese, language model?)
_MODELS: dict[str, tuple[str, str, bool]] = {
    "resnet50": ("ResNet-50", "ResNet-50", False),
    "retinanet": ("RetinaNet", "RetinaNet", False),
    "rnnt": ("RNN-T", "RNN-T", False),
    "bert": ("BERT-Large", "BERT-Large", False),
    "dlrm-v2": ("DLRM v2", "DLRM v2", False),
    "3d-unet": ("3D U-Net", "3D U-Net", False),
    "gptj": ("GPT-J 6B", "GPT-J 6B", True),
    "llama2-70b": ("Llama 2 70B", "Llama 2 70B", True),
    "llama2-70b-interactive": ("Llama 2 70B (interactive)", "Llama 2 70B（互動式）", True),
    "llama3.1-405b": ("Llama 3.1 405B", "Llama 3.1 405B", True),
    "mixtral-8x7b": ("Mixtral 8x7B", "Mixtral 8x7B", True),
    "stable-diffusion-xl": ("Stable Diffusion XL", "Stable Diffusion XL", False),
    "rgat": ("R-GAT", "R-GAT", False),
    "pointpainting": ("PointPainting", "PointPainting", False),
    "llama3.1-8b": ("Llama 3.1 8B", "Llama 3.1 8B", True),
    "llama3.1-8b-edge": ("Llama 3.1 8B (edge)", "Llama 3.1 8B（邊緣）", True),
    "deepseek-r1": ("DeepSeek-R1", "DeepSeek-R1", True),
    "whisper": ("Whisper", "Whisper", False),
    "gpt-oss-120b": ("gpt-oss-120b", "gpt-oss-120b", True),
    "qwen3-vl-235b-a22b": ("Qwen3-VL 235B A22B", "Qwen3-VL 235B A22B", False),
    "dlrm-v3": ("DLRM v3", "DLRM v3", False),
    "wan-2.2-t2v-a14b": ("Wan 2.2 T2V A14B", "Wan 2.2 T2V A14B", False),
    "yolo": ("YOLO", "YOLO", False),
    "e2e-rag-qna": ("End-to-end RAG question answering", "端到端 RAG 問答", True),
    "e2e-rag-db": ("End-to-end RAG vector database", "端到端 RAG 向量資料庫", False),
    "qwen3.6-27b": ("Qwen3.6 27B (agentic, edge)", "Qwen3.6 27B（代理式，邊緣）", True),
}

#: Spellings of the same benchmark seen in trees (the checker's model mapping).
_ALIASES = {"resnet": "resnet50", "ssd-resnet34": "retinanet", "mobilenet": "resnet50",
            "llama3_1-405b": "llama3.1-405b", "llama3_1-8b": "llama3.1-8b", "llama3_1-8b-edge": "llama3.1-8b-edge"}

_VARIANT = re.compile(r"^(?P<base>.+?)-(?P<variant>95|99(?:\.9)?)$")


def split_variant(model: str) -> tuple[str, str]:
    """``llama2-70b-99.9`` -> (``llama2-70b``, ``99.9``); ``resnet50`` -> (``resnet50``, ``""``)."""
    match = _VARIANT.match(model)
    base, variant = (match.group("base"), match.group("variant")) if match else (model, "")
    return _ALIASES.get(base, base), variant


def canonical(model: str) -> str:
    """The checker's spelling of a model folder name (aliases resolved, variant kept)."""
    base, variant = split_variant(model.strip())
    return f"{base}-{variant}" if variant else base


def is_known(model: str) -> bool:
    return split_variant(model)[0] in _MODELS


def title(model: str, language: str = "en") -> str:
    """``llama2-70b-99`` -> "Llama 2 70B (99 % of reference accuracy)" (en) or its zh-Hant form."""
    base, variant = split_variant(model)
    entry = _MODELS.get(base)
    if entry is None:  # open-division model names are shown as the tree spells them
        return model
    name = entry[1] if language.startswith("zh") else entry[0]
    if not variant:
        return name
    if language.startswith("zh"):
        return f"{name}（參考模型準確度的 {variant}%）"
    return f"{name} ({variant} % of reference accuracy)"


def catalogue() -> list[str]:
    """Every benchmark id of the catalogue (base names), sorted."""
    return sorted(_MODELS)
