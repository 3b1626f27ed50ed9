"""Reading the project's YAML files (report.yaml, prices.yaml, catalogues) with one-line errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mlperf_report.core.errors import InputError


def read_yaml(path: Path | str, *, what: str, fix: str) -> Any:
    """The parsed file (``{}`` when empty); a missing file says ``what`` it is and how to ``fix`` it,
    invalid YAML says where."""
    import yaml

    path = Path(path)
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise InputError(f"{path}: {what} not found ({fix})") from None
    except yaml.YAMLError as error:
        raise InputError(f"{path}: not valid YAML: {error}") from None
