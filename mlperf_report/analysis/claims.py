"""The story engine's data: the comparable frame's columns, a claim, a story, the focus, and the few
helpers every angle uses (best result, relative gap, rows with an accelerator count).

``story_angles`` finds the claims, ``story`` ranks them; this module is what both share.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Callable

import pandas as pd

from mlperf_report.core.config import STORY_ANGLES

#: The suite-free columns of a comparable frame. ``value`` is the primary metric, ``higher_is_better``
#: its direction, ``measure`` one of ``time`` (time to train), ``throughput`` or ``latency``; ``energy``
#: and ``energy_unit`` are the round's power or energy result where it has one.
COLUMNS = ("round", "benchmark", "scenario", "division", "availability", "submitter", "system_id", "system",
           "accelerator_model", "accelerators", "value", "unit", "higher_is_better", "measure", "energy",
           "energy_unit", "result_id")

#: Run-to-run noise: a gap smaller than this is worded "on par", never "faster" or "ahead".
NOISE = 0.02

ANGLES = STORY_ANGLES

#: Claims in the highlights at most (after the headline), and at most this many of one angle there.
HIGHLIGHTS = 6
PER_ANGLE = 2

GROUP = ["benchmark", "scenario", "division"]


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

    def as_dict(self) -> dict:
        return {"focus_kind": self.focus_kind, "focus_name": self.focus_name,
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


def prepare(frame: pd.DataFrame, focus: Focus) -> pd.DataFrame:
    """The comparable frame with ``perf`` and ``mine`` columns, rows without a usable value dropped."""
    df = frame.loc[:, list(COLUMNS)].copy()
    df = df[pd.to_numeric(df["value"], errors="coerce").gt(0)].copy()
    df["value"] = df["value"].astype(float)
    df["accelerators"] = pd.to_numeric(df["accelerators"], errors="coerce")
    df["perf"] = _perf(df)
    df["mine"] = [bool(focus.is_focus(s, m)) for s, m in zip(df["submitter"], df["accelerator_model"])]
    return df.sort_values(["benchmark", "scenario", "division", "result_id"], kind="stable").reset_index(drop=True)


def row_facts(row: pd.Series) -> dict:
    """A result as plain values for the claim's facts (JSON-safe)."""
    out = {}
    for key in ("round", "benchmark", "scenario", "division", "availability", "submitter", "system_id", "system",
                "accelerator_model", "unit", "measure", "energy_unit", "result_id"):
        value = row.get(key)
        out[key] = "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)
    out["value"] = float(row["value"])
    out["higher_is_better"] = bool(row["higher_is_better"])
    acc = row.get("accelerators")
    out["accelerators"] = int(acc) if acc is not None and not pd.isna(acc) else None
    energy = row.get("energy")
    out["energy"] = float(energy) if energy is not None and not pd.isna(energy) else None
    return out


def best_row(frame: pd.DataFrame) -> pd.Series:
    """The best row (highest perf; ties by result id, so the choice is deterministic)."""
    return frame.sort_values(["perf", "result_id"], ascending=[False, True], kind="stable").iloc[0]


def relative_gap(mine: float, other: float) -> float:
    """How much better ``mine`` is than ``other`` (0.05 = 5 % better; negative: worse)."""
    return mine / other - 1.0


def sized(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["accelerators"].notna() & df["accelerators"].gt(0)]
