"""Every project path, built once from the project root, so no module guesses where things live."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
OUTPUT = ROOT / "output"
NOTEBOOKS = ROOT / "notebooks"
TEMPLATES = ROOT / "templates"
LOCALE = ROOT / "locale"
#: Caches (compliance verdicts, assembled PDFs, git clones, font subsets); MLPERF_REPORT_CACHE moves
#: them (the test suite points it at a temporary folder, so it never reads or writes the checkout's
#: .cache/; a server may want it on another disk).
CACHE = Path(os.environ.get("MLPERF_REPORT_CACHE") or ROOT / ".cache")
#: The real MLPerf archives the real-data tests read; MLPERF_SHARED overrides it (a git worktree
#: sits elsewhere than the checkout beside ../shared).
SHARED_MLPERF = Path(os.environ.get("MLPERF_SHARED") or ROOT.parent / "shared" / "mlperf")

PRICES = DATA / "prices.yaml"
REPORT_CONFIG = DATA / "report.yaml"


def round_data(round_id: str, data_dir: Path = DATA) -> Path:
    """Folder of the tidy tables of one round, e.g. data/training-v1.0/."""
    return data_dir / round_id


def round_output(round_id: str, output_dir: Path = OUTPUT) -> Path:
    """Folder of everything generated for one round, e.g. output/training-v1.0/."""
    return output_dir / round_id
