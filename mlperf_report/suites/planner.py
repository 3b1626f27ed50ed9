"""A report's plan from the command line's options: the typed configuration with the overrides applied,
prices checked, the request built, and the round's suite asked for its notebooks; the plan carries
that configuration (``Plan.config``), so no later stage parses report.yaml again. ``build.py report``
and the batch (``--focus-each``) plan through here; the suite's plan checks everything before any kernel.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from mlperf_report.analysis.jobs import Plan
from mlperf_report.core import paths
from mlperf_report.core.errors import UserError


def make_plan(*, round_id: str | None = None, benchmarks: list[str] | None = None, data_dir: Path = paths.DATA,
              output_dir: Path = paths.OUTPUT, prices_file: Path = paths.PRICES, config_file: Path = paths.REPORT_CONFIG,
              focus_submitter: str | None = None, division: str = "closed", languages: list[str] | None = None,
              jobs: int | None = None, force: bool = False, fresh_kernels: bool = False,
              focus_accelerator: str | None = None) -> Plan:
    """Resolve the configuration and hand it to the round's suite, whose plan checks everything its
    notebooks need; a UserError naming the fix if anything is off."""
    from mlperf_report.analysis.planning import PlanRequest
    from mlperf_report.core.config import DIVISIONS, load_config
    from mlperf_report.core.prices import load_prices
    from mlperf_report.suites import suite_for

    config = load_config(config_file).with_overrides(round=round_id, focus_submitter=focus_submitter, languages=languages,
                                                     focus_accelerator=accelerator_override(focus_submitter, focus_accelerator))
    load_prices(prices_file)  # validated now, not in six kernels at once
    if division not in DIVISIONS:
        raise UserError(f"--division must be one of {list(DIVISIONS)}, got {division!r}")
    request = PlanRequest(items=tuple(benchmarks or ()), data_dir=Path(data_dir).resolve(),
                          output_dir=Path(output_dir).resolve(), prices_file=Path(prices_file),
                          config_file=Path(config_file), division=division,
                          workers=jobs if jobs and jobs > 0 else (os.cpu_count() or 1), force=force,
                          fresh_kernels=fresh_kernels)
    plan = suite_for(config.round).plan(config, request)
    return dataclasses.replace(plan, config=config)  # resolved once: the assembly and the batch read it


def accelerator_override(focus_submitter: str | None, focus_accelerator: str | None) -> str | None:
    """``--focus NAME`` alone clears an accelerator focus set in report.yaml; None: not given."""
    if focus_accelerator is not None:
        return focus_accelerator.strip()
    return "" if focus_submitter else None
