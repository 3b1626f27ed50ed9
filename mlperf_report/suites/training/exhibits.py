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


#: The results workbook's columns (``results.xlsx``): the results table's facts as numbers and words
#: a spreadsheet can sort and sum, in English (a workbook is for analysts' formulas, whatever the
#: report's language), from the columns of ``results.csv``.
WORKBOOK_COLUMNS = {
    "division": "Division", "availability": "Availability", "submitter": "Submitter", "display_name": "System",
    "system_id": "System ID", "accelerator_model": "Accelerator", "accelerators": "Accelerators",
    "host_processor_model": "Host processor", "host_processors": "Host processors", "nodes": "Nodes",
    "framework": "Framework", "score_min": "Time to train (minutes)", "energy_mj": "Energy to train (MJ)",
    "runs_converged": "Runs converged", "runs_found": "Runs found", "runs_required": "Runs required",
    "status": "Status", "status_detail": "Status detail", "result_id": "Result ID",
}


def workbook_sheets(results: pd.DataFrame, round_id: str, focus) -> dict[str, pd.DataFrame]:
    """One frame per benchmark (the sheet's name), every entry scored or not, as the exhibits order
    them (scored fastest first per division, then the unscored): a ``Focus`` column (the focus's rows,
    ``core.config.Focus``) and ``WORKBOOK_COLUMNS``."""
    from mlperf_report.analysis.comparisons import focus_mask

    df = results.assign(
        Focus=focus_mask(results, focus) if len(results) else False,
        _ok=results["status"] == "ok",
        energy_mj=pd.to_numeric(results.get("energy_j"), errors="coerce") / 1e6 if "energy_j" in results else float("nan"),
        result_id=[f"{round_id}/{d}/{s}/{i}/{b}" for d, s, i, b in
                   zip(results["division"], results["submitter"], results["system_id"], results["benchmark"])])
    df = df.sort_values(["division", "_ok", "score_min", "submitter", "system_id"],
                        ascending=[True, False, True, True, True], kind="mergesort", na_position="last")
    columns = ["Focus"] + [c for c in WORKBOOK_COLUMNS if c in df and (c != "energy_mj" or df[c].notna().any())]
    return {str(benchmark): group[columns].rename(columns=WORKBOOK_COLUMNS).reset_index(drop=True)
            for benchmark, group in df.groupby("benchmark", sort=True)}
