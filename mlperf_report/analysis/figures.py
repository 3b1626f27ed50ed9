"""Figures files: the numbers a notebook hands the narrative, as byte-stable JSON at
``output/<round>/figures/<name>.json``. Every suite's notebooks write them through here.
"""

from __future__ import annotations

import json
from pathlib import Path


def path(output_dir: Path | str, round_id: str, name: str) -> Path:
    """output/<round>/figures/<name>.json"""
    return Path(output_dir) / round_id / "figures" / f"{name}.json"


def record_path(output_dir: Path | str, round_id: str, name: str) -> Path:
    """output/<round>/notebooks/<name>.json: what a notebook that feeds no narrative (the closing
    exhibits) showed, kept beside the executed notebooks so it is never read as a benchmark's figures."""
    return Path(output_dir) / round_id / "notebooks" / f"{name}.json"


def to_json(figures: dict) -> str:
    """Byte-stable JSON text (fixed key order, UTF-8, no NaN)."""
    return json.dumps(figures, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write(path: Path | str, figures: dict) -> Path:
    """Write a figures file atomically."""
    from mlperf_report.core.atomic import write_text

    return write_text(path, to_json(figures))
