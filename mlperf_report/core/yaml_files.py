"""Reading the project's YAML files (report.yaml, prices.yaml, catalogues) with one-line errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mlperf_report.core.errors import InputError


def safe_load(text: str) -> Any:
    """``yaml.safe_load``, with libyaml's parser when PyYAML has it (the same data, ten times faster:
    data/benchmarks.yaml parses in 3 ms instead of 28, and every kernel reads it)."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def read_yaml(path: Path | str, *, what: str, fix: str) -> Any:
    """The parsed file (``{}`` when empty); a missing file says ``what`` it is and how to ``fix`` it,
    invalid YAML says where."""
    import yaml

    path = Path(path)
    try:
        return safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise InputError(f"{path}: {what} not found ({fix})") from None
    except yaml.YAMLError as error:
        raise InputError(f"{path}: not valid YAML: {error}") from None
