"""Accelerator families and generations (``data/accelerators.yaml``): which accelerator succeeds which.

The story engine's generation-over-generation claims need to know that Trillium follows TPU v5p or
that the MI325X follows the MI300X. That is a fact of the market, not of the code, so it is data with
a public source per family; an accelerator no pattern matches has no predecessor and gets no claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from mlperf_report.core import paths
from mlperf_report.core.errors import InputError
from mlperf_report.core.yaml_files import read_yaml

CATALOGUE = paths.DATA / "accelerators.yaml"
#: Files this module reads at run time: a notebook or report that imports it is stale when they change.
DATA_INPUTS = (CATALOGUE,)


@dataclass(frozen=True)
class Generation:
    family: str
    vendor: str
    name: str
    index: int            # position in its family, oldest first
    pattern: re.Pattern
    source: str


@dataclass(frozen=True)
class Generations:
    """Every generation of every family, in file order."""

    items: tuple[Generation, ...] = ()

    def of(self, accelerator_model: object) -> Generation | None:
        """The generation an accelerator model name belongs to (first match in file order)."""
        text = str(accelerator_model or "")
        return next((g for g in self.items if g.pattern.search(text)), None)

    def predecessor(self, generation: Generation) -> Generation | None:
        """The generation listed just before ``generation`` in its family, if any."""
        if generation.index == 0:
            return None
        return next((g for g in self.items if g.family == generation.family and g.index == generation.index - 1), None)


def parse(data: object, origin: str = "accelerators.yaml") -> Generations:
    """Check and compile the catalogue; every problem names the file and the entry."""
    families = data.get("families") if isinstance(data, dict) else None
    if not isinstance(families, list):
        raise InputError(f"{origin}: needs a list 'families'")
    items: list[Generation] = []
    for n, family in enumerate(families):
        if not isinstance(family, dict) or not all(isinstance(family.get(k), str) for k in ("family", "vendor", "source")):
            raise InputError(f"{origin}: family {n + 1} needs the texts 'family', 'vendor' and 'source'")
        generations = family.get("generations")
        if not isinstance(generations, list) or not generations:
            raise InputError(f"{origin}: family '{family['family']}' needs a list 'generations'")
        for i, gen in enumerate(generations):
            if not isinstance(gen, dict) or not isinstance(gen.get("name"), str) or not isinstance(gen.get("match"), str):
                raise InputError(f"{origin}: family '{family['family']}', generation {i + 1} needs 'name' and 'match'")
            try:
                pattern = re.compile(gen["match"], re.IGNORECASE)
            except re.error as error:
                raise InputError(f"{origin}: '{gen['name']}': match is not a regular expression ({error})") from None
            items.append(Generation(family["family"], family["vendor"], gen["name"], i, pattern, family["source"]))
    return Generations(tuple(items))


@lru_cache(maxsize=4)
def load(path: Path | str = CATALOGUE) -> Generations:
    """The catalogue, read once per process."""
    return parse(read_yaml(path, what="the accelerator generations catalogue",
                           fix="restore data/accelerators.yaml from the repository"), str(path))
