"""What every suite's report plan shares: the request from the command line, and the checks that
stop a build before any kernel starts (an output folder that cannot be written, a focus with no
result in the round)."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from mlperf_report.core import paths, rounds
from mlperf_report.core.accelerators import load as load_generations
from mlperf_report.core.errors import UserError


@dataclass(frozen=True)
class PlanRequest:
    """The options of ``build.py report`` a suite's plan reads (the configuration carries the rest)."""

    items: tuple[str, ...] = ()          # --benchmarks: the items asked for, or all
    data_dir: Path = paths.DATA
    output_dir: Path = paths.OUTPUT
    prices_file: Path = paths.PRICES
    config_file: Path = paths.REPORT_CONFIG
    division: str = "closed"
    workers: int = 1
    force: bool = False
    fresh_kernels: bool = False


def check_writable(folder: Path) -> None:
    """``<output>/<round>/notebooks`` and ``figures`` exist and can be written, or a UserError."""
    try:
        (folder / "notebooks").mkdir(parents=True, exist_ok=True)
        (folder / "figures").mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"{folder}: cannot create the output folders ({error.strerror}); pass --output-dir") from None
    if not os.access(folder / "notebooks", os.W_OK):
        raise UserError(f"{folder / 'notebooks'}: not writable; pass --output-dir")


def tally(values) -> str:
    """``NVIDIA (40), Dell (12)``: names by how often they occur."""
    counts = Counter(v for v in values if v)
    return ", ".join(f"{name} ({n})" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].lower())))


def _chip_words(name: str) -> str:
    """How the refusal says what ``--focus-accelerator NAME`` selects: a catalogued chip, or a text."""
    found = load_generations().named(name)
    if found is None:
        return "an accelerator whose model name contains it"
    return f"the {found.name} of data/accelerators.yaml"


def check_focus(focus, rows: list[dict], round_id: str, *, what: str = "scored result") -> None:
    """Stop before any kernel when the focus has no ``what`` in the round (``rows``: dicts with
    ``submitter`` and ``accelerator_model``), listing the choices."""
    if focus.kind == "none" or any(focus.matches(r.get("submitter"), r.get("accelerator_model")) for r in rows):
        return
    how = ("choose with --focus NAME (or focus_submitter in data/report.yaml), --focus-accelerator MODEL, "
           "or --focus none for a neutral round overview")
    if focus.kind == "accelerator":
        raise UserError(f"--focus-accelerator {focus.name}: no {what} in {round_id} on {_chip_words(focus.name)}; "
                        f"accelerators with {what}s (results): "
                        f"{tally(r.get('accelerator_model') for r in rows)}; {how}")
    raise UserError(f"--focus {focus.name}: no {what} of this submitter in {round_id}; submitters with {what}s "
                    f"(results): {tally(r.get('submitter') for r in rows)}; {how}")


def missing_history(suite, round_id: str, data_dir: Path) -> list[str]:
    """One line per earlier round the story compares with that is not ingested under ``data_dir``:
    which round, what is left out without it, and the one command that ingests it. On round day the
    previous round is often absent; its progress and generation claims then vanish, and the user is
    told so instead of finding out from a thinner story. (A debut needs no earlier round: it is claimed
    from the catalogue's source, and an ingested earlier round can only withdraw it.)"""
    wanted = getattr(suite, "history", None)
    if wanted is None:
        return []
    present = set(rounds.rounds_present(data_dir))
    shown = _shown(data_dir)
    lines = []
    for earlier, angles in wanted(round_id):
        if earlier in present:
            continue
        parsed = rounds.parse_round_id(earlier)
        out = "" if Path(data_dir).resolve() == paths.DATA.resolve() else f" --out {shown}/{parsed.id}"
        lines.append(f"history: {parsed.title} is not in {shown}/, so {' and '.join(angles)} claims against it "
                     f"are left out; to add it: {rounds.ingest_command(parsed)}{out}")
    return lines


def print_missing_history(suite, round_id: str, data_dir: Path) -> None:
    """Say once, on stderr, each line of :func:`missing_history` (``report`` and its batch)."""
    import sys

    for line in missing_history(suite, round_id, data_dir):
        print(line, file=sys.stderr)


def _shown(folder: Path) -> str:
    """A folder as the user would type it: relative to the working directory when under it."""
    try:
        return str(Path(folder).resolve().relative_to(Path.cwd())) or "."
    except ValueError:
        return str(folder)
