"""Refuse to mail a report the build did not finish: missing, empty, not a PDF, or older than its inputs.

Mailing is the one step that cannot be undone, so it checks the file itself rather than trusting that
the last ``build.py report`` succeeded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from mlperf_report.core.errors import UserError


def report_pdf(round_dir: Path, lang: str, languages: list[str]) -> Path:
    """The printed report in ``lang`` (``report.<lang>.pdf``, as its format names it); the first
    language's language-free copy (``report.pdf``) stands in for it when only that exists."""
    from mlperf_report.assemble import formats

    printed = formats.get(formats.PRINTED)
    path = Path(round_dir) / printed.file_name(lang)
    fallback = Path(round_dir) / printed.copies[0]
    if not path.exists() and languages and lang == languages[0] and fallback.exists():
        return fallback
    return path


def report_inputs(round_data: Path, config_files: Iterable[Path]) -> list[Path]:
    """The files a report is built from: every table under ``data/<round>/`` plus prices and config."""
    tables = sorted(p for p in Path(round_data).rglob("*") if p.is_file()) if Path(round_data).is_dir() else []
    return tables + [Path(p) for p in config_files if Path(p).is_file()]


def checked_pdf(pdf: Path, inputs: Iterable[Path], round_id: str) -> bytes:
    """The report's bytes, or a UserError that says what is wrong and how to rebuild it."""
    pdf = Path(pdf)
    fix = f"run `python build.py report --round {round_id}` first"
    if not pdf.is_file():
        raise UserError(f"report {pdf} does not exist; {fix}")
    data = pdf.read_bytes()
    if not data:
        raise UserError(f"report {pdf} is empty (a failed build?); {fix}")
    if not data.startswith(b"%PDF-") or b"%%EOF" not in data[-2048:]:
        raise UserError(f"report {pdf} is not a complete PDF (a failed build?); {fix}")
    built = pdf.stat().st_mtime
    newer = [p for p in inputs if Path(p).stat().st_mtime > built]
    if newer:
        newest = max(newer, key=lambda p: Path(p).stat().st_mtime)
        raise UserError(f"report {pdf} is older than its input {newest} (changed since the build); {fix}")
    return data
