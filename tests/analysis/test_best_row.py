"""``claims.best_row`` picks without sorting the frame; it must pick what the sort it replaces picks:
the highest perf first, NaN last, ties by result id, then by position."""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from mlperf_report.analysis.claims import best_row

perfs = st.one_of(st.sampled_from([1.0, 2.0, 2.0, 0.5]), st.floats(0.01, 100, allow_nan=False), st.just(float("nan")))
rows = st.lists(st.tuples(perfs, st.sampled_from(["a/1", "a/2", "b/1", "c/9"]), st.integers(0, 9)), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(rows)
def test_best_row_is_the_first_row_of_the_sort_it_replaces(values):
    frame = pd.DataFrame(values, columns=["perf", "result_id", "tag"], index=[7] * len(values))  # labels repeat
    expected = frame.sort_values(["perf", "result_id"], ascending=[False, True], kind="stable").iloc[0]
    chosen = best_row(frame)
    assert (chosen["perf"], chosen["result_id"], chosen["tag"]) == (expected["perf"], expected["result_id"], expected["tag"]) \
        or (pd.isna(chosen["perf"]) and pd.isna(expected["perf"]) and chosen["result_id"] == expected["result_id"]
            and chosen["tag"] == expected["tag"])
