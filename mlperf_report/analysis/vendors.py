"""Who makes a chip or a host processor, from the name the systems JSON gives it.

Plain text in, a vendor's name out: no pandas, so the build's own process (which names the claims'
chips for the press kit, ``names``, ``bar_labels``) never imports it. ``comparisons`` counts and
matches results by these vendors.
"""

from __future__ import annotations

import re

#: Accelerator vendors, recognised in the systems JSON's accelerator model name (which does not
#: always say the vendor: "H100 NVL Tensor Core GPU (PCIe)", "TPU-v5p"). First match wins.
VENDORS = (
    ("Graphcore", r"\bipu\b|graphcore|gc200|\bbow\b"),
    ("Google", r"\btpu"),
    ("AMD", r"\bamd\b|\bmi\d{3}|radeon|instinct"),
    ("Intel", r"gaudi|habana|intel|xeon"),
    ("Huawei", r"ascend|huawei"),
    ("NVIDIA", r"nvidia|blackwell|hopper|[abhvl]100|\ba[34]0\b|\bl40|\bl4\b|\bt4\b|h200|b200|gb200|gh200|b300|rtx|geforce|tesla|quadro|dgx"),
)
_VENDOR_PATTERNS = tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in VENDORS)


def vendor_of(accelerator_model: object) -> str | None:
    """The vendor of an accelerator model name (None when no pattern knows it)."""
    text = str(accelerator_model or "")
    return next((name for name, pattern in _VENDOR_PATTERNS if pattern.search(text)), None)


#: Host processor families, recognised in the systems JSON's host processor model name, by their vendor:
#: NVIDIA Grace (Grace-hosted systems often write the core, "Neoverse-V2"), Intel Xeon, AMD EPYC (and
#: its codenames). Anything else ("ARM Cortex-A78AE", "Ampere Altra", "Neoverse-N1", "CPUName") is
#: "other", which no vendor's host share counts.
HOST_VENDORS = (("NVIDIA", r"\bgrace\b|neoverse[-_ ]?v2\b"),
                ("Intel", r"xeon|\bintel\b"),
                ("AMD", r"\bepyc|\beypc|\bamd\b|ryzen"))
_HOST_PATTERNS = tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in HOST_VENDORS)


def host_vendor_of(host_processor_model: object) -> str | None:
    """The vendor of a host processor model name (None, "other", when no family knows it:
    "ARM Cortex-A78AE", "Neoverse-N1")."""
    text = str(host_processor_model or "")
    return next((name for name, pattern in _HOST_PATTERNS if pattern.search(text)), None)
