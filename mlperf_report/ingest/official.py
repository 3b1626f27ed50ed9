"""MLCommons' own summary beside the tool's scores, whatever the suite.

A results tree may carry MLCommons' own numbers (Training: each submitter's ``summary.json``, the
result summarizer's detailed output, from v6.0 on; Inference: ``summary_results.json`` at the root).
Ingest compares every scored result with them, so a difference is found by the tool, not by a
reader: here the summary files are read within the limits, values compared at the precision the
summary carries, each comparison kept, and the one line ``build.py ingest`` prints is made. The
suites read their own layouts and say what matches what (``suites/<suite>/official.py``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from mlperf_report.core import limits

OUTCOMES = ("equal", "differ", "only_here", "only_there")
#: Why a result may differ from MLCommons' summary (the ``cause`` column of official_check.csv).
CAUSES = ("rcp_scaling_factor", "compliance_verdict", "runs_missing", "unknown")
#: Relative slack on top of the summary's own rounding: the same olympic average summed in another
#: order differs in the last bits (1e-15 relative); a real difference is many orders larger.
RELATIVE_SLACK = 1e-12


class OfficialError(ValueError):
    """A summary or results table that cannot be used; the message says what is wrong with it."""


def read_capped(source, name: str) -> bytes:
    """A summary file of the tree, read only up to MAX_SUMMARY_BYTES."""
    with source.open(name) as handle:
        return limits.read_capped(handle, limits.MAX_SUMMARY_BYTES, "the file", "MAX_SUMMARY_BYTES")


def json_list(data: bytes, required: tuple[str, ...]) -> list[dict]:
    """A JSON list of objects each holding ``required`` keys, else OfficialError saying what is wrong."""
    try:
        document = limits.loads(data, "the file")
    except limits.LimitError as error:
        raise OfficialError(str(error)) from None
    except (ValueError, UnicodeDecodeError) as error:
        raise OfficialError(f"not JSON ({error})") from None
    if not isinstance(document, list):
        raise OfficialError(f"not a JSON list of entries (a {type(document).__name__})")
    for number, entry in enumerate(document, 1):
        if not isinstance(entry, dict):
            raise OfficialError(f"entry {number} is not an object (a {type(entry).__name__})")
        missing = [key for key in required if key not in entry]
        if missing:
            raise OfficialError(f"entry {number} lacks {', '.join(repr(k) for k in missing)}")
    return document


def number(value) -> float | None:
    """A summary's value as a finite float (a JSON number or a numeric string), else None."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        found = float(str(value).replace(",", "")) if isinstance(value, str) else float(value)
    except (TypeError, ValueError):
        return None
    return found if math.isfinite(found) else None


def decimals_carried(value) -> int:
    """Decimal places the summary wrote a value with (``100328.0`` -> 1, ``12.123456789`` -> 9)."""
    text = value.strip() if isinstance(value, str) else repr(float(value))
    if "e" in text.lower():
        mantissa, exponent = text.lower().split("e")
        return max(0, decimals_carried(mantissa) - int(exponent))
    return len(text.split(".", 1)[1]) if "." in text else 0


def same(here: float, official, decimals: int | None = None) -> bool:
    """Whether ``here`` equals the summary's value at the precision the summary carries: within half a
    unit of its last decimal place (``decimals``: the places its writer rounds to, when known, else
    those it was written with), plus RELATIVE_SLACK of the value."""
    value = number(official)
    if value is None or here is None or not math.isfinite(here):
        return False
    places = decimals if decimals is not None else decimals_carried(official)
    return abs(here - value) <= 0.5 * 10.0 ** -places + RELATIVE_SLACK * abs(value)


@dataclass
class Check:
    """Every comparison of one round with MLCommons' summary; official_check.csv holds the others
    than ``equal``."""
    key_columns: list[str]
    files: list[str] = field(default_factory=list)
    rows: list[dict] = field(default_factory=list)

    def add(self, key: dict, here, official, outcome: str, cause: str = "", detail: str = "",
            file: str = "") -> None:
        assert outcome in OUTCOMES and (not cause or cause in CAUSES)
        self.rows.append({**{c: key.get(c, "") for c in self.key_columns}, "here": here,
                          "official": number(official), "outcome": outcome, "cause": cause,
                          "cause_detail": detail, "summary_file": file})

    def counts(self) -> dict[str, int]:
        found = {outcome: sum(1 for row in self.rows if row["outcome"] == outcome) for outcome in OUTCOMES}
        return {"compared": found["equal"] + found["differ"], **found}

    def frame(self) -> pd.DataFrame:
        columns = [*self.key_columns, "here", "official", "outcome", "cause", "cause_detail", "summary_file"]
        rows = sorted((r for r in self.rows if r["outcome"] != "equal"),
                      key=lambda r: tuple(str(r[c]) for c in columns))
        import pandas as pd  # here, not at import: `build.py ingest --help` reaches this module

        return pd.DataFrame(rows, columns=columns)

    def manifest(self, tolerance: str, **extra) -> dict:
        return {"files": sorted(self.files), **self.counts(), "tolerance": tolerance, **extra}


def official_line(manifest: dict) -> str | None:
    """``official summary: N compared, N equal, K differ, M only here, L only there``, or None for a
    round whose tree holds no usable summary."""
    found = manifest.get("official_summary")
    if not found:
        return None
    return (f"official summary: {found['compared']} compared, {found['equal']} equal, {found['differ']} differ, "
            f"{found['only_here']} only here, {found['only_there']} only there")


def official_tables(check: Check | None) -> dict[str, pd.DataFrame]:
    """``official_check.csv`` for a round with a summary, nothing for one without."""
    return {"official_check.csv": check.frame()} if check is not None and check.files else {}

