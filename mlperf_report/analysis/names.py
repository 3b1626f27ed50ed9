"""How a result's maker, chip and system are named in a sentence, as MLCommons prints them.

Official tables carry folder spellings (``Quanta_Cloud_Technology``, ``dgxa100_n8_ngc21.05_mxnet``),
blank system names (`` (72x GB300-288GB_aarch64, TensorRT)``) and, in this project's own tables, a
system id added to tell same-named systems apart. A sentence needs none of that: a maker with spaces,
a chip by its product name ("NVIDIA B200", from ``data/accelerators.yaml``), a system by its printed
name, its platform, or, when it has neither, by who built it and on what ("a Supermicro system with 8
NVIDIA B200"). The result's folder name stays in its citation.
"""

from __future__ import annotations

import re

from mlperf_report.analysis.vendors import vendor_of
from mlperf_report.core.accelerators import Generations, blank_model  # noqa: F401 - blank_model: names' word

#: A trailing configuration in parentheses, as Inference system names carry it.
_CONFIG = re.compile(r"\s*\([^()]*\)\s*$")
#: The first token of a system id that reads as a product: letters, then digits (``GB300-NVL72``).
_PLATFORM = re.compile(r"[A-Za-z]+\d[A-Za-z0-9]*(?:-[A-Za-z0-9]+)*")


def maker(submitter: object) -> str:
    """A submitter as a sentence prints it: ``Quanta_Cloud_Technology`` -> ``Quanta Cloud Technology``."""
    return re.sub(r"\s+", " ", str(submitter or "").replace("_", " ")).strip()


def chip(model: object, generations: Generations) -> str:
    """A chip by its product name: the catalogue's (``NVIDIA H100`` for ``NVIDIA H100-SXM5-80GB``), else
    (a chip the catalogue does not know, or several chips in one text) the systems JSON's text with
    spaces for underscores and its vendor in front when it lacks it."""
    found = generations.resolve(model)
    if found is not None:
        return found.name
    text = re.sub(r"\s+", " ", str(model or "").replace("_", " ")).strip()
    vendor = vendor_of(text)
    return f"{vendor} {text}" if vendor and vendor.lower() not in text.lower() else text


def _folder_like(name: str) -> bool:
    """A name spelled as a folder: a word with an underscore before any configuration in parentheses
    (``nd96amsr_a100_v4_ngc21.09_mxnet``, ``X660 G45_SXM4-80G-BPS_pytorch``; the configuration
    ``(1x GH200-96GB_aarch64, TensorRT)`` is how NVIDIA's own names print)."""
    return "_" in _CONFIG.sub("", name)


def platform(row: dict) -> str | None:
    """The platform a system id starts with, as a product name (``GB300-NVL72_GB300-288GB_aarch64x72_TRT``
    -> ``NVIDIA GB300 NVL72``), or None when the id does not start with one."""
    token = str(row.get("system_id") or "").split("_")[0]
    if not _PLATFORM.fullmatch(token) or len(token) < 4:
        return None
    words = token.replace("-", " ")
    vendor = vendor_of(row.get("accelerator_model")) or maker(row.get("submitter"))
    return f"{vendor} {words}" if vendor and vendor.lower() not in words.lower() else words


def system(row: dict) -> str | None:
    """A system's printed name: the official name without a system id this project added, its platform
    when the official name is blank, None when it has neither or is spelled as a folder (the sentence
    then says who built it and on what)."""
    name = str(row.get("system") or "").strip()
    system_id = str(row.get("system_id") or "").strip()
    if system_id and name.endswith(f"({system_id})") and name != f"({system_id})":
        name = name[: -len(system_id) - 2].strip()
    if not _CONFIG.sub("", name).strip():
        return platform(row)
    return None if _folder_like(name) else name


def uses_an(word: str) -> bool:
    """Whether English writes "an" before ``word``: a vowel, or an initialism read as a letter name
    that starts with a vowel sound (``an NVIDIA``, ``an HPE``; ``a SUPERMICRO``)."""
    if not word:
        return False
    first = word[0]
    if first.upper() in "AEIOU":
        return True
    initialism = word.isupper() and (len(word) <= 4 or word == "NVIDIA")   # HPE, NTT; not SUPERMICRO
    return initialism and first in "FHLMNRSX"
