"""The Inference round summary and the report's closing exhibits, grouped by benchmark.

The summary gives one row per benchmark and division (closed first), an open benchmark's variants
(``bert-large-pruned80_quant-none-vnni-bert-99`` under BERT-Large 99 %) counted in its row and
listed one by one only in the exhibit at the end. A focus report has a section for each benchmark
the focus entered; the others are one table here, the best result of each scenario.
"""

from __future__ import annotations

import pandas as pd

from mlperf_report.core.config import Focus
from mlperf_report.suites.inference.tables import focus_name, focus_rows, ranked, scenarios_of
from mlperf_report.suites.inference import models
from mlperf_report.suites.inference.metrics import LATENCY_SCENARIOS, SCENARIOS, higher_is_better
from mlperf_report.suites.inference.rounds import parse_round

#: A latency's table unit as it reads after a number.
_IN_TEXT = {"Latency (ms)": "ms", "Latency (s)": "s"}

#: The summary row of open-division models that the checker files under no benchmark of the round.
UNLISTED = "*unlisted*"


def _valid(results: pd.DataFrame, division: str) -> pd.DataFrame:
    return results[results["valid"] & results["result"].notna() & (results["division"] == division)]


def _grouped(valid: pd.DataFrame, round_id: str) -> pd.Series:
    """Each row's summary group: its benchmark, or UNLISTED for a name the round does not list."""
    listed = set(parse_round(round_id).rules.models)
    return valid["benchmark"].where(valid["benchmark"].isin(listed), UNLISTED)


def submissions(results: pd.DataFrame, *, division: str, round_id: str) -> pd.DataFrame:
    """Valid results per benchmark and scenario in one division, with the submitters and (open) the
    models as submitted that each row holds."""
    valid = _valid(results, division)
    if valid.empty:
        return pd.DataFrame(columns=["benchmark", "submitters", "models"])
    valid = valid.assign(group=_grouped(valid, round_id))
    counts = valid.pivot_table(index="group", columns="scenario", values="result", aggfunc="count", fill_value=0)
    counts = counts.reindex(columns=[s for s in SCENARIOS if s in counts.columns])
    facts = valid.groupby("group").agg(submitters=("submitter", "nunique"), models=("model", "nunique"))
    table = facts.join(counts).reset_index().rename(columns={"group": "benchmark"})
    table["_last"] = table["benchmark"] == UNLISTED
    return table.sort_values(["_last", "benchmark"], kind="mergesort").drop(columns="_last").reset_index(drop=True)


def _title(benchmark: str, lang: str) -> str:
    from mlperf_report.i18n.labels import label

    return label("inference.summary.unlisted", lang) if benchmark == UNLISTED else models.title(benchmark, lang)


def submissions_table(results: pd.DataFrame, *, division: str, round_id: str, lang: str) -> pd.DataFrame:
    """``submissions`` with benchmarks by their catalogue names and the columns in ``lang``."""
    from mlperf_report.i18n.labels import label

    table = submissions(results, division=division, round_id=round_id)
    table["benchmark"] = table["benchmark"].map(lambda b: _title(b, lang))
    if division != "open":
        table = table.drop(columns="models")
    return table.rename(columns={"benchmark": label("inference.col.benchmark", lang),
                                 "submitters": label("inference.col.submitters", lang),
                                 "models": label("inference.col.submitted_models", lang),
                                 **{s: label(f"inference.scenario.{s}", lang) for s in SCENARIOS}})


def entered(results: pd.DataFrame, *, focus: Focus | str | None, division: str) -> list[str]:
    """The benchmarks in which ``focus`` has a valid result in the division (every one with no focus)."""
    valid = _valid(results, division)
    if focus_name(focus):
        valid = valid[focus_rows(valid, focus)]
    return sorted(valid["benchmark"].unique())


def not_entered(results: pd.DataFrame, *, focus: Focus | str | None, division: str, round_id: str) -> pd.DataFrame:
    """The best result of each scenario of the benchmarks the focus did not enter (nothing with no focus,
    or a focus absent from the round: its report has every benchmark's section). Open models filed
    under no benchmark of the round are in the variants exhibit instead."""
    if not focus_name(focus) or not (results["valid"] & focus_rows(results, focus)).any():
        return pd.DataFrame()
    valid = _valid(results, division)
    valid = valid[_grouped(valid, round_id) != UNLISTED]
    rows = []
    for benchmark in sorted(set(valid["benchmark"]) - set(entered(results, focus=focus, division=division))):
        table = valid[valid["benchmark"] == benchmark]
        for scenario in scenarios_of(table):
            best = ranked(table, scenario).iloc[0]
            rows.append({"benchmark": benchmark, "scenario": scenario, "results": int((table["scenario"] == scenario).sum()),
                         "result": float(best.result), "unit": best.unit, "system": best.system_name or best.system_id,
                         "submitter": best.submitter})
    return pd.DataFrame(rows)


def not_entered_table(results: pd.DataFrame, *, focus: Focus | str | None, division: str, round_id: str,
                      lang: str) -> pd.DataFrame:
    from mlperf_report.i18n import formatting
    from mlperf_report.i18n.labels import label

    table = not_entered(results, focus=focus, division=division, round_id=round_id)

    def best(row) -> str:  # a latency reads "1.119 ms", not "1.119 Latency (ms)"
        places = formatting.places_for([row.result], 3 if row.scenario in LATENCY_SCENARIOS else 1)
        return f"{formatting.fixed(row.result, places, lang)} {_IN_TEXT.get(row.unit, row.unit)}"

    return pd.DataFrame({
        label("inference.col.benchmark", lang): [models.title(b, lang) for b in table["benchmark"]],
        label("inference.col.scenario", lang): [label(f"inference.scenario.{s}", lang) for s in table["scenario"]],
        label("inference.col.results", lang): table["results"].astype(str),
        label("inference.col.best", lang): [best(r) for r in table.itertuples()],
        label("inference.col.system", lang): table["system"],
        label("inference.col.submitter", lang): table["submitter"],
    }) if not table.empty else table


def variants(results: pd.DataFrame, *, round_id: str) -> pd.DataFrame:
    """Every open-division model as submitted that is more than a spelling of its benchmark's name (and
    every one the checker files under no benchmark of the round), with the benchmark, its submitters,
    scenarios and valid results."""
    valid = _valid(results, "open")
    valid = valid.assign(group=_grouped(valid, round_id))
    spelled = [models.canonical(m) != models.canonical(b) for m, b in zip(valid["model"], valid["benchmark"])]
    valid = valid[pd.Series(spelled, index=valid.index, dtype=bool) | (valid["group"] == UNLISTED)]
    rows = [{"benchmark": group, "model": model, "submitters": ", ".join(sorted(frame["submitter"].unique())),
             "scenarios": [s for s in SCENARIOS if (frame["scenario"] == s).any()], "results": len(frame)}
            for (group, model), frame in valid.groupby(["group", "model"], sort=True)]
    table = pd.DataFrame(rows, columns=["benchmark", "model", "submitters", "scenarios", "results"])
    table["_last"] = table["benchmark"] == UNLISTED
    return table.sort_values(["_last", "benchmark", "model"], kind="mergesort").drop(columns="_last").reset_index(drop=True)


def variants_table(results: pd.DataFrame, *, round_id: str, lang: str) -> pd.DataFrame:
    from mlperf_report.i18n.labels import label

    table = variants(results, round_id=round_id)
    return pd.DataFrame({
        label("inference.col.benchmark", lang): [_title(b, lang) for b in table["benchmark"]],
        label("inference.col.submitted_model", lang): table["model"],
        label("inference.col.submitter", lang): table["submitters"],
        label("inference.col.scenario", lang): [", ".join(label(f"inference.scenario.{s}", lang) for s in ss)
                                                for ss in table["scenarios"]],
        label("inference.col.results", lang): table["results"].astype(str),
    })


def division_heading(*, division: str, lang: str) -> str:
    """"Closed division: valid results per benchmark" (the summary's tables, one per division)."""
    from mlperf_report.i18n.labels import label

    name = label(f"division.{division}.in_text", lang)
    return label("inference.summary.division", lang, division=name[:1].upper() + name[1:])


def not_entered_heading(*, focus: Focus | str, lang: str) -> str:
    from mlperf_report.i18n.labels import label

    return label("inference.exhibit.not_entered", lang, focus=focus_name(focus))


def variants_heading(*, lang: str) -> str:
    from mlperf_report.i18n.labels import label

    return label("inference.exhibit.variants", lang)


def exhibits_facts(results: pd.DataFrame, *, round_id: str) -> dict:
    """What the (focus-free) exhibits show, for the record."""
    return {"suite": "inference", "round": round_id, "variants": int(len(variants(results, round_id=round_id)))}


#: The results workbook's columns (``results.xlsx``), from ``results.csv``: numbers as numbers, in
#: English (a workbook is for analysts' formulas, whatever the report's language).
WORKBOOK_COLUMNS = {
    "division": "Division", "category": "Category", "availability": "Availability", "submitter": "Submitter",
    "system_name": "System", "system_id": "System ID", "model": "Model as submitted", "scenario": "Scenario",
    "result": "Result", "unit": "Unit", "official_unit": "Unit in the official table", "valid": "Valid",
    "status_detail": "Status detail", "accuracy": "Accuracy", "power_result": "Power result", "power_unit": "Power unit",
    "accelerator_model": "Accelerator", "accelerators": "Accelerators", "host_processor_model": "Host processor",
    "host_processors": "Host processors", "nodes": "Nodes", "framework": "Framework",
}


def workbook_sheets(results: pd.DataFrame, focus: Focus | str | None) -> dict[str, pd.DataFrame]:
    """One frame per benchmark (the sheet's name): every result folder of it, valid or not, closed
    division first, then by scenario and result (best first), a ``Focus`` column (the focus's rows)
    and ``WORKBOOK_COLUMNS``."""
    df = results.assign(Focus=focus_rows(results, focus) if len(results) else False,
                        _sign=[1 if higher_is_better(s) else -1 for s in results["scenario"]])
    df = df.assign(_key=-df["_sign"] * pd.to_numeric(df["result"], errors="coerce"))
    df = df.sort_values(["division", "scenario", "valid", "_key", "submitter", "system_id"],
                        ascending=[True, True, False, True, True, True], kind="mergesort", na_position="last")
    columns = ["Focus"] + [c for c in WORKBOOK_COLUMNS if c in df]
    return {str(benchmark): group[columns].rename(columns=WORKBOOK_COLUMNS).reset_index(drop=True)
            for benchmark, group in df.groupby("benchmark", sort=True)}
