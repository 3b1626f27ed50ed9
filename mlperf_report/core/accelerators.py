"""Accelerator and processor families and their generations (``data/accelerators.yaml``): which chip
succeeds which, how a chip is named in a sentence, and in which round of a suite a generation made
its MLPerf debut.

The story engine's generation-over-generation claims need to know that Trillium follows TPU v5p or
that the MI325X follows the MI300X, and its debut claims that Blackwell Ultra first appeared in MLPerf
Training v5.1. Those are facts of the market, not of the code, so they are data with a public source
per family (and per debut).

A chip is identified by its most specific token: a model number (B300, GB200, MI355X) the catalogue
lists, before any family word ("Blackwell Ultra"). One round spells one chip four ways ("NVIDIA
Blackwell GPU (B300-SXM-270GB)", "NVIDIA B300 SXM6 PC", ...), and a family word also sits beside model
numbers the catalogue does not know ("RTX PRO 6000 Blackwell"), so a family word names a generation
only when the text carries no other model number at all. A text that matches no chip, or two (a
mixed system), resolves to nothing: it is named as written and gets no claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from mlperf_report.core import paths
from mlperf_report.core.errors import InputError
from mlperf_report.core.yaml_files import read_yaml

CATALOGUE = paths.DATA / "accelerators.yaml"
#: Files this module reads at run time: a notebook or report that imports it is stale when they change.
DATA_INPUTS = (CATALOGUE,)
_VERSION = re.compile(r"^v\d+\.\d+$")
#: Accelerator model texts that mean "no accelerator" (a CPU-only result).
_NO_MODEL = {"", "nan", "none", "n/a", "na", "-"}


def blank_model(model: object) -> bool:
    return str(model if model is not None else "").strip().lower() in _NO_MODEL


def _count(value: object) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def unknown(rows: Iterable[tuple[object, object, object]], generations: Generations) -> list[str]:
    """The chip texts of ``rows`` (accelerator model, count, host processor model) that the catalogue
    does not resolve, each once, sorted: what a result ran on is its accelerator, or with none its host
    processor (as the story engine reads it)."""
    texts = set()
    for model, count, host in rows:
        bare = blank_model(model) or not _count(count) > 0
        text = str(host if bare else model).strip()
        if not blank_model(text) and generations.resolve(text) is None:
            texts.add(text)
    return sorted(texts)


@dataclass(frozen=True)
class Generation:
    family: str
    vendor: str
    name: str
    index: int            # position in its family, oldest first
    source: str
    chip: str = ""        # how a chip of this generation is named in a sentence ("NVIDIA H100")
    chips: tuple[tuple[str, re.Pattern], ...] = ()   # its chips' model numbers: (chip name, pattern)
    words: re.Pattern | None = None   # family words naming it in a text with no model number
    debut: dict = field(default_factory=dict, compare=False)   # suite -> "vX.Y", its first MLPerf round
    debut_source: str = ""

    @property
    def default_chip(self) -> str:
        return self.chip or self.name


@dataclass(frozen=True)
class Chip:
    """What a text resolves to: the generation and the chip's name; ``by`` is ``model`` or ``word``."""

    generation: Generation
    name: str
    by: str = "model"


@dataclass(frozen=True)
class Generations:
    """Every generation of every family, in file order, and the parts of a text that are no model number."""

    items: tuple[Generation, ...] = ()
    not_model_numbers: tuple[re.Pattern, ...] = ()
    _seen: dict = field(default_factory=dict, compare=False, repr=False)   # text -> its resolution

    def resolve(self, text: object) -> Chip | None:
        """The one chip ``text`` names: by the model numbers it carries (all of one chip), else by a
        family word when nothing else in it is a model number; None when it names none or several."""
        text = str(text or "")
        if text not in self._seen:
            self._seen[text] = _resolve(self, text) if text.strip() else None
        return self._seen[text]

    def of(self, accelerator_model: object) -> Generation | None:
        """The generation an accelerator (or processor) model name belongs to (None: unknown or mixed)."""
        found = self.resolve(accelerator_model)
        return found.generation if found else None

    def mixed(self, text: object) -> bool:
        """Whether ``text`` carries the model numbers of two chips or more (a system of mixed chips)."""
        return len(_models(self, str(text or ""))) > 1

    def named(self, text: object) -> Generation | Chip | None:
        """What a user's word names: a generation by its name ("Blackwell Ultra (B300 / GB300)"), a chip
        by its model number ("B200", "NVIDIA B200"), a generation by its family word; else None, also
        for a word that several chips' names hold ("Gaudi", "NVIDIA": a family, matched as text)."""
        key = ("named", str(text or ""))
        if key not in self._seen:
            self._seen[key] = self._named(str(text or ""))
        return self._seen[key]

    def _named(self, text: str) -> Generation | Chip | None:
        wanted = text.strip().lower()
        whole = re.compile(rf"(?<!\w){re.escape(wanted)}(?!\w)", re.IGNORECASE)
        found = self.resolve(text)
        if found is not None and found.name.lower() == wanted:
            return found  # a chip's own name ("Intel Gaudi"), though longer names hold it ("Intel Gaudi 2")
        if not wanted or sum(1 for g in self.items for name, _ in g.chips if whole.search(name)) > 1:
            return None
        if found is not None and found.by == "model":
            return found
        generation = next((g for g in self.items if g.name.lower() == wanted), None)
        return generation or (found.generation if found is not None else None)

    def selects(self, text: object, accelerator_model: object) -> bool | None:
        """Whether ``accelerator_model`` is of the chip or generation ``text`` names; None when ``text``
        names nothing in the catalogue (the caller then matches text)."""
        wanted = self.named(text)
        if wanted is None:
            return None
        found = self.resolve(accelerator_model)
        if found is None:
            return False
        return found.generation == wanted if isinstance(wanted, Generation) else found == wanted

    def predecessor(self, generation: Generation) -> Generation | None:
        """The generation listed just before ``generation`` in its family, if any."""
        if generation.index == 0:
            return None
        return next((g for g in self.items if g.family == generation.family and g.index == generation.index - 1), None)

    def earlier(self, generation: Generation) -> tuple[Generation, ...]:
        """Every generation listed before ``generation`` in its family, the nearest first."""
        return tuple(sorted((g for g in self.items if g.family == generation.family and g.index < generation.index),
                            key=lambda g: -g.index))


def _models(generations: Generations, text: str) -> set[tuple[Generation, str]]:
    """Every chip whose model numbers ``text`` carries."""
    return {(g, name) for g in generations.items for name, pattern in g.chips if pattern.search(text)}


def _resolve(generations: Generations, text: str) -> Chip | None:
    found = _models(generations, text)
    if found:
        return Chip(*found.pop()) if len(found) == 1 else None
    worded = {g for g in generations.items if g.words is not None and g.words.search(text)}
    if len(worded) != 1:
        return None
    (generation,) = worded
    rest = generation.words.sub(" ", text)
    for pattern in generations.not_model_numbers:
        rest = pattern.sub(" ", rest)
    return None if re.search(r"\d", rest) else Chip(generation, generation.default_chip, "word")


def _compiled(text: object, name: str, origin: str, what: str = "match") -> re.Pattern:
    if not isinstance(text, str) or not text:
        raise InputError(f"{origin}: '{name}': {what} must be a regular expression")
    try:
        return re.compile(text, re.IGNORECASE)
    except re.error as error:
        raise InputError(f"{origin}: '{name}': {what} is not a regular expression ({error})") from None


def _chips(gen: dict, name: str, origin: str) -> tuple[tuple[str, re.Pattern], ...]:
    """A generation's model numbers: ``models`` (its one chip's) and ``chips`` (several chips')."""
    chips = gen.get("chips") or {}
    if not isinstance(chips, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in chips.items()):
        raise InputError(f"{origin}: '{name}': chips must map a chip's name to its model numbers")
    listed = [(k, _compiled(v, k, origin, "a chip's model numbers")) for k, v in chips.items()]
    if gen.get("models") is not None:
        listed.append((str(gen.get("chip") or name), _compiled(gen["models"], name, origin, "models")))
    if not listed:
        was = " ('match' was split into 'models' and 'words')" if "match" in gen else ""
        raise InputError(f"{origin}: '{name}': needs 'models' (its model numbers) or 'chips'{was}")
    return tuple(listed)


def _generation(gen: object, family: dict, i: int, origin: str) -> Generation:
    """One generation entry checked: name, model numbers, optional chip / words, a debut only with its source."""
    if not isinstance(gen, dict) or not isinstance(gen.get("name"), str):
        raise InputError(f"{origin}: family '{family['family']}', generation {i + 1} needs a 'name'")
    name = gen["name"]
    debut = gen.get("debut") or {}
    if not isinstance(debut, dict) or not all(isinstance(v, str) and _VERSION.match(v) for v in debut.values()):
        raise InputError(f"{origin}: '{name}': debut must map a suite to its first round, e.g. {{training: v5.1}}")
    if debut and not isinstance(gen.get("debut_source"), str):
        raise InputError(f"{origin}: '{name}': a debut needs its public source in 'debut_source'")
    words = _compiled(gen["words"], name, origin, "words") if gen.get("words") is not None else None
    return Generation(family["family"], family["vendor"], name, i, family["source"], str(gen.get("chip") or ""),
                      _chips(gen, name, origin), words, {str(k): v for k, v in debut.items()},
                      str(gen.get("debut_source") or ""))


def parse(data: object, origin: str = "accelerators.yaml") -> Generations:
    """Check and compile the catalogue; every problem names the file and the entry."""
    families = data.get("families") if isinstance(data, dict) else None
    if not isinstance(families, list):
        raise InputError(f"{origin}: needs a list 'families'")
    ignore = data.get("not_model_numbers") or []
    if not isinstance(ignore, list):
        raise InputError(f"{origin}: not_model_numbers must be a list of regular expressions")
    items: list[Generation] = []
    for n, family in enumerate(families):
        if not isinstance(family, dict) or not all(isinstance(family.get(k), str) for k in ("family", "vendor", "source")):
            raise InputError(f"{origin}: family {n + 1} needs the texts 'family', 'vendor' and 'source'")
        generations = family.get("generations")
        if not isinstance(generations, list) or not generations:
            raise InputError(f"{origin}: family '{family['family']}' needs a list 'generations'")
        items.extend(_generation(gen, family, i, origin) for i, gen in enumerate(generations))
    return Generations(tuple(items), tuple(_compiled(p, "not_model_numbers", origin, "each entry") for p in ignore))


@lru_cache(maxsize=4)
def load(path: Path | str = CATALOGUE) -> Generations:
    """The catalogue, read once per process."""
    return parse(read_yaml(path, what="the accelerator generations catalogue",
                           fix="restore data/accelerators.yaml from the repository"), str(path))
