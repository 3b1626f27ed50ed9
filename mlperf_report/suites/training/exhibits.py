"""The closing exhibits of a Training report: every benchmark's full results table.

None of it depends on the focus, so its notebook (``notebooks/training/exhibits.ipynb``) is planned
as shared: a single build runs it once, and a batch of focuses (``report --focus-each``) runs it once
for all of them, every focus's report showing the same executed notebook.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlperf_report.core.prices import load_prices
from mlperf_report.suites.training import metrics, round_tables
from mlperf_report.suites.training.rounds import benchmark_title


def load_results(*, round_id: str, data_dir: Path | str, prices_file: Path | str) -> pd.DataFrame:
    """The round's results, prepared as the benchmark notebooks see them (display names, scores)."""
    return metrics.prepare_results(round_tables.read_table(data_dir, round_id, "results.csv"),
                                   load_prices(prices_file), round_id)


def entries(results: pd.DataFrame, benchmark: str) -> pd.DataFrame:
    """Every entry of one benchmark, scored or not."""
    return results[results["benchmark"] == benchmark].reset_index(drop=True)


def results_heading(*, benchmark: str, round_id: str, lang: str) -> str:
    from mlperf_report.i18n.labels import label

    return label("training.exhibit.results", lang, benchmark=benchmark_title(benchmark, round_id, lang))


def exhibits_facts(results: pd.DataFrame, benchmarks: list[str]) -> dict:
    """What the exhibits show: the entries of each benchmark, for the record."""
    return {"exhibit": "results", "benchmarks": {b: int((results["benchmark"] == b).sum()) for b in benchmarks}}
