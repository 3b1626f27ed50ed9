"""Notebook outputs: a table with no rows is never shown (the like-for-like table of a benchmark the
focus did not enter used to print as a header with nothing under it)."""

from __future__ import annotations

import pandas as pd

from mlperf_report.analysis import outputs


def test_a_table_without_rows_is_not_displayed(capsys):
    rows = pd.DataFrame({"System": ["A"], "Minutes": ["1.00"]})
    outputs.show_table("kept", lambda lang: rows, languages=["en", "zh-Hant"])
    outputs.show_table("empty", lambda lang: rows.iloc[0:0], languages=["en", "zh-Hant"])
    shown = capsys.readouterr().out  # outside a kernel IPython prints what it would display
    assert shown.count("<table") == 2 and shown.count("<td>A</td>") == 2
