"""Accelerator and processor families and their generations (``data/accelerators.yaml``): which chip
succeeds which, how a chip is named in a sentence, and in which round of a suite a generation made
its MLPerf debut.

The story engine's generation-over-generation claims need to know that Trillium follows TPU v5p or
that the MI325X follows the MI300X, and its debut claims that Blackwell Ultra first appeared in MLPerf
Training v5.1. Those are facts of the market, not of the code, so they are data with a public source
per family (and per debut); a chip no pattern matches has no predecessor and gets no claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from mlperf_report.core import paths
from mlperf_report.core.errors import InputError
from mlperf_report.core.yaml_files import read_yaml

CATALOGUE = paths.DATA / "accelerators.yaml"
#: Files this module reads at run time: a notebook or report that imports it is stale when they change.
DATA_INPUTS = (CATALOGUE,)
_VERSION = re.compile(r"^v\d+\.\d+$")


@dataclass(frozen=True)
class Generation:
    family: str
    vendor: str
    name: str
    index: int            # position in its family, oldest first
    pattern: re.Pattern
    source: str
    chip: str = ""        # how a chip of this generation is named in a sentence ("NVIDIA H100")
    chips: tuple[tuple[str, re.Pattern], ...] = ()   # several chips: (name, pattern), first match wins
    debut: dict = field(default_factory=dict, compare=False)   # suite -> "vX.Y", its first MLPerf round
    debut_source: str = ""

    def chip_name(self, model: object) -> str:
        """The chip of ``model`` as a sentence names it: a listed chip, else the generation's chip."""
        text = str(model or "")
        return next((name for name, pattern in self.chips if pattern.search(text)), None) or self.chip or self.name


@dataclass(frozen=True)
class Generations:
    """Every generation of every family, in file order."""

    items: tuple[Generation, ...] = ()

    def of(self, accelerator_model: object) -> Generation | None:
        """The generation an accelerator (or processor) model name belongs to (first match in file order)."""
        text = str(accelerator_model or "")
        return next((g for g in self.items if g.pattern.search(text)), None)

    def predecessor(self, generation: Generation) -> Generation | None:
        """The generation listed just before ``generation`` in its family, if any."""
        if generation.index == 0:
            return None
        return next((g for g in self.items if g.family == generation.family and g.index == generation.index - 1), None)

    def earlier(self, generation: Generation) -> tuple[Generation, ...]:
        """Every generation listed before ``generation`` in its family, the nearest first."""
        return tuple(sorted((g for g in self.items if g.family == generation.family and g.index < generation.index),
                            key=lambda g: -g.index))


def _compiled(text: str, name: str, origin: str) -> re.Pattern:
    try:
        return re.compile(text, re.IGNORECASE)
    except re.error as error:
        raise InputError(f"{origin}: '{name}': match is not a regular expression ({error})") from None


def _generation(gen: object, family: dict, i: int, origin: str) -> Generation:
    """One generation entry checked: name and match, optional chip / chips, a debut only with its source."""
    if not isinstance(gen, dict) or not isinstance(gen.get("name"), str) or not isinstance(gen.get("match"), str):
        raise InputError(f"{origin}: family '{family['family']}', generation {i + 1} needs 'name' and 'match'")
    name = gen["name"]
    chips = gen.get("chips") or {}
    if not isinstance(chips, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in chips.items()):
        raise InputError(f"{origin}: '{name}': chips must map a chip's name to its match")
    debut = gen.get("debut") or {}
    if not isinstance(debut, dict) or not all(isinstance(v, str) and _VERSION.match(v) for v in debut.values()):
        raise InputError(f"{origin}: '{name}': debut must map a suite to its first round, e.g. {{training: v5.1}}")
    if debut and not isinstance(gen.get("debut_source"), str):
        raise InputError(f"{origin}: '{name}': a debut needs its public source in 'debut_source'")
    return Generation(family["family"], family["vendor"], name, i, _compiled(gen["match"], name, origin), family["source"],
                      str(gen.get("chip") or ""), tuple((k, _compiled(v, k, origin)) for k, v in chips.items()),
                      {str(k): v for k, v in debut.items()}, str(gen.get("debut_source") or ""))


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
        items.extend(_generation(gen, family, i, origin) for i, gen in enumerate(generations))
    return Generations(tuple(items))


@lru_cache(maxsize=4)
def load(path: Path | str = CATALOGUE) -> Generations:
    """The catalogue, read once per process."""
    return parse(read_yaml(path, what="the accelerator generations catalogue",
                           fix="restore data/accelerators.yaml from the repository"), str(path))
