"""The story engine's data: the comparable frame's columns, a claim, a story, the focus, and the few
helpers every angle uses (best result, relative gap, rows with an accelerator count).

``story_angles``, ``story_chips`` and ``story_ecosystem`` find the claims, ``story`` ranks them; this
module is what they share, including the like-for-like key: open-division results may each run a
different model, so an open result is compared only with the same submitter's results of the same
model (``like``), never with another submitter's.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    import pandas as pd  # imported by the functions that use it: see story

from mlperf_report.analysis.names import blank_model
from mlperf_report.core.config import STORY_ANGLES

#: The suite-free columns of a comparable frame. ``value`` is the primary metric, ``higher_is_better``
#: its direction, ``measure`` one of ``time`` (time to train), ``throughput`` or ``latency``; ``energy``
#: and ``energy_unit`` are the round's power or energy result where it has one; ``model`` the model as
#: submitted (open division; empty where every result runs the reference model), the host processor
#: and its count say what a result with no accelerator ran on.
COLUMNS = ("round", "benchmark", "scenario", "division", "availability", "submitter", "system_id", "system",
           "accelerator_model", "accelerators", "value", "unit", "higher_is_better", "measure", "energy",
           "energy_unit", "result_id", "model", "host_processor_model", "host_processors")

#: Run-to-run noise: a gap smaller than this is worded "on par", never "faster" or "ahead".
NOISE = 0.02

#: Scaling claims lead (headline, highlights) only from this efficiency on (``story.scaling_efficiency``
#: in report.yaml): gain ÷ growth in accelerators.
SCALING_EFFICIENCY = 0.70

ANGLES = STORY_ANGLES

#: Claims in the highlights at most (after the headline), and at most this many of one angle there.
HIGHLIGHTS = 6
PER_ANGLE = 2

#: Like for like: same benchmark, scenario, division and (open division) submitter and model.
GROUP = ["benchmark", "scenario", "division", "like"]


@dataclass(frozen=True)
class Claim:
    """One true statement about the focus, with the results it rests on."""

    angle: str
    kind: str
    strength: float
    facts: dict
    cites: tuple[str, ...] = ()
    derived: bool = False

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Story:
    """The ranked claims: ``headline`` and ``highlights`` lead; ``body`` holds every other claim."""

    headline: Claim | None
    highlights: tuple[Claim, ...]
    body: tuple[Claim, ...]
    focus_kind: str = "submitter"
    focus_name: str = ""
    scaling_efficiency: float = SCALING_EFFICIENCY   # from which efficiency a scaling claim may lead

    def as_dict(self) -> dict:
        return {"focus_kind": self.focus_kind, "focus_name": self.focus_name, "scaling_efficiency": self.scaling_efficiency,
                "headline": self.headline.as_dict() if self.headline else None,
                "highlights": [c.as_dict() for c in self.highlights], "body": [c.as_dict() for c in self.body]}


@dataclass(frozen=True)
class Focus:
    """Whose story: ``is_focus(submitter, accelerator_model)``; ``kind`` submitter, accelerator or none."""

    kind: str
    name: str
    is_focus: Callable[[object, object], bool] = field(compare=False)


# --- helpers -------------------------------------------------------------------------------------

def _perf(frame: pd.DataFrame) -> pd.Series:
    """Bigger is better for every row: the value, or its inverse where lower is better."""
    values = frame["value"].astype(float)
    return values.where(frame["higher_is_better"].astype(bool), 1.0 / values)


def _text(series: pd.Series) -> pd.Series:
    return series.map(lambda v: "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v))


def _chips(df: pd.DataFrame) -> pd.DataFrame:
    """What each result ran on: its accelerator and their count, or, with none (CPU-only), its host
    processor and their count (``chip``, ``chips``, ``chip_kind``)."""
    import pandas as pd

    bare = df["accelerator_model"].map(blank_model) | ~df["accelerators"].fillna(0).gt(0)
    hosts = pd.to_numeric(df["host_processors"], errors="coerce")
    return df.assign(chip=df["accelerator_model"].where(~bare, df["host_processor_model"]),
                     chips=df["accelerators"].where(~bare, hosts.where(hosts.gt(0))),
                     chip_kind=bare.map({True: "processor", False: "accelerator"}))


def prepare(frame: pd.DataFrame, focus: Focus) -> pd.DataFrame:
    """The comparable frame with ``perf``, ``mine``, ``like`` and the chip columns, rows without a usable
    value dropped."""
    import pandas as pd

    df = frame.reindex(columns=list(COLUMNS)).copy()
    df = df[pd.to_numeric(df["value"], errors="coerce").gt(0)].copy()
    for key in ("model", "host_processor_model", "accelerator_model"):
        df[key] = _text(df[key])
    df["value"] = df["value"].astype(float)
    df["accelerators"] = pd.to_numeric(df["accelerators"], errors="coerce")
    df["perf"] = _perf(df)
    df["mine"] = [bool(focus.is_focus(s, m)) for s, m in zip(df["submitter"], df["accelerator_model"])]
    open_ = df["division"].astype(str) == "open"
    df["like"] = (df["submitter"].astype(str) + "/" + df["model"]).where(open_, "")
    df = _chips(df)
    return df.sort_values(["benchmark", "scenario", "division", "result_id"], kind="stable").reset_index(drop=True)


def row_facts(row: pd.Series) -> dict:
    """A result as plain values for the claim's facts (JSON-safe)."""
    import pandas as pd

    out = {}
    for key in ("round", "benchmark", "scenario", "division", "availability", "submitter", "system_id", "system",
                "accelerator_model", "unit", "measure", "energy_unit", "result_id", "model", "host_processor_model"):
        value = row.get(key)
        out[key] = "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)
    out["value"] = float(row["value"])
    out["higher_is_better"] = bool(row["higher_is_better"])
    acc = row.get("accelerators")
    out["accelerators"] = int(acc) if acc is not None and not pd.isna(acc) else None
    energy = row.get("energy")
    out["energy"] = float(energy) if energy is not None and not pd.isna(energy) else None
    hosts = pd.to_numeric(row.get("host_processors"), errors="coerce")
    out["host_processors"] = int(hosts) if not pd.isna(hosts) else None
    return out


def best_row(frame: pd.DataFrame) -> pd.Series:
    """The best row (highest perf; ties by result id, so the choice is deterministic)."""
    perf, ids = frame["perf"].to_numpy(dtype=float), frame["result_id"].to_numpy()
    # the first of sort_values(["perf", "result_id"], ascending=[False, True], kind="stable"), NaN last,
    # found without sorting the frame (this runs thousands of times per story)
    def key(i: int) -> tuple:
        known = perf[i] == perf[i]
        return not known, -perf[i] if known else 0.0, not isinstance(ids[i], str), str(ids[i]), i

    first = min(range(len(perf)), key=key)
    return frame.iloc[first]


def relative_gap(mine: float, other: float) -> float:
    """How much better ``mine`` is than ``other`` (0.05 = 5 % better; negative: worse)."""
    return mine / other - 1.0


def sized(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["accelerators"].notna() & df["accelerators"].gt(0)]
