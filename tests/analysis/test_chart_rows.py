"""Which results a crowded chart shows: the focus's best at each size it entered, that size's leader
and the nearest rivals, each division's fastest and the baseline, never more than the budget."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from mlperf_report.analysis import chart_rows


def frame(rows):
    return pd.DataFrame(rows, columns=["division", "submitter", "accelerators", "score_min"])


def shown(df, mine, budget, keep=None):
    mask = chart_rows.shown(df, mine=mine, value="score_min", keep=keep, budget=budget)
    return df[mask]


def test_everything_fits_so_everything_is_shown():
    df = frame([("closed", "A", 8, 10.0), ("closed", "B", 8, 11.0)])
    assert chart_rows.shown(df, mine=[False, True], value="score_min").all()


def test_a_crowded_size_keeps_the_focus_its_leader_and_its_neighbours():
    rows = [("closed", f"R{i}", 8, 10.0 + i) for i in range(30)]          # R0 leads at 8, 10.0 … 39.0
    rows += [("closed", "Focus", 8, 20.5), ("closed", "Focus", 8, 33.5)]  # between R10 / R11 and R23 / R24
    rows += [("closed", "Big", 512, 0.9), ("closed", "Focus", 512, 1.2), ("closed", "Bigger", 512, 1.5)]
    rows += [("open", "Open", 8, 5.0)]
    df = frame(rows)
    mine = df["submitter"] == "Focus"
    keep = df["submitter"] == "R29"                                      # the baseline, slowest of all
    got = shown(df, mine, budget=10, keep=keep)
    names = set(zip(got["submitter"], got["score_min"]))
    assert len(got) == 10
    assert {("Big", 0.9), ("Open", 5.0), ("R29", 39.0)} <= names                 # division leaders, baseline
    assert {("Focus", 20.5), ("Focus", 1.2), ("R0", 10.0)} <= names              # focus best per size, leader
    assert {("R10", 20.0), ("R11", 21.0), ("Bigger", 1.5)} <= names              # the rivals either side
    assert chart_rows.hidden(chart_rows.shown(df, mine=mine, value="score_min", keep=keep, budget=10)) == len(df) - 10


def test_higher_is_better_ranks_the_other_way():
    df = frame([("closed", f"R{i}", 8, float(i)) for i in range(10)])
    got = shown(df, [False] * 10, budget=3)
    assert list(got["score_min"]) == [0.0, 1.0, 2.0]
    mask = chart_rows.shown(df, mine=[False] * 10, value="score_min", higher_is_better=True, budget=3)
    assert list(df[mask]["score_min"]) == [7.0, 8.0, 9.0]


results = st.lists(st.tuples(st.sampled_from(["closed", "open"]), st.sampled_from(["A", "B", "C", "F"]),
                             st.sampled_from([8, 16, 64, None]), st.floats(0.1, 500)), min_size=1, max_size=60)


@settings(max_examples=60, deadline=None)
@given(results, st.integers(1, 30))
def test_the_budget_holds_and_the_focus_best_of_each_size_comes_before_the_rest(rows, budget):
    df = frame(rows)
    mine = df["submitter"] == "F"
    got = shown(df, mine, budget)
    assert len(got) == min(len(df), budget)
    sized = df.assign(_s=df["accelerators"].fillna(-1))
    firsts = sized[mine].sort_values("score_min", kind="mergesort").groupby(["division", "_s"]).head(1)
    leaders = sized.sort_values("score_min", kind="mergesort").groupby("division").head(1)
    if len(leaders) + len(firsts) <= budget:  # room for them all: every one is shown
        assert set(firsts.index) <= set(got.index) and set(leaders.index) <= set(got.index)
