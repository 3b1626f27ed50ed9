"""Reading the ingest tables of a round (``data/<round>/*.csv``): the analysis side's only file access.

Identifiers are read as text (a system called ``1.0`` or ``NA`` stays a name), everything else is
typed later by ``metrics.prepare_results``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlperf_report.core.errors import InputError

TABLES = ("results.csv", "runs.csv", "systems.csv")
_TEXT = {c: "string" for c in ("round", "division", "availability", "submitter", "system_id", "system_name",
                               "benchmark", "status", "status_detail", "accelerator_model",
                               "host_processor_model", "framework", "file", "run", "mlcommons_id")}


def read_table(data_dir: Path | str, round_id: str, name: str) -> pd.DataFrame:
    """One table of a round; a clear error naming the file and the command that makes it."""
    path = Path(data_dir) / round_id / name
    if not path.is_file():
        raise InputError(f"{path}: not found; run `python build.py ingest` for {round_id} first")
    return pd.read_csv(path, dtype=_TEXT, keep_default_na=False, na_values=[""])
