"""Which results a crowded chart shows: the focus's, the leaders and the nearest rivals.

Training v5.1 put more than 60 systems on one benchmark; drawn as one bar each, the chart's type
shrank to 3 pt on paper. A chart keeps at most ``MAX_BARS`` results, chosen in this order until the
budget is spent: each division's fastest, the rows the caller must keep (the baseline), the focus's
best at each accelerator count it entered, that count's leader and the rivals just ahead of and just
behind the focus there, each division's next best, the focus's other results, the other counts'
leaders, then everyone else by rank. The rest are counted, and the chart says how many it left out
(every result stays in the exhibits). Suite-free: a frame with ``division``, ``accelerators`` and a
value whose direction the caller gives.
"""

from __future__ import annotations

import pandas as pd

#: Results a bar chart shows at most: 22 rows (and two division headers) print at 6.9 in, under
#: the 200 mm a printed chart may take before the page would scale it (and its type) down, and two
#: such charts and a benchmark's other charts fit in two pages.
MAX_BARS = 22
#: Rows of a like-for-like table shown in the report (the exhibits list every result).
MAX_TABLE_ROWS = 12
_TOP = 3  # each division's best results kept after the focus's neighbourhood


def shown(data: pd.DataFrame, *, mine, value: str, higher_is_better: bool = False, keep=None,
          budget: int = MAX_BARS) -> pd.Series:
    """A boolean mask over ``data``'s rows: the ones to show (all of them when they fit).
    ``mine``: a boolean sequence, the focus's rows; ``keep``: rows that must stay (the baseline)."""
    if len(data) <= budget:
        return pd.Series(True, index=data.index)
    mine = pd.Series(list(mine), index=data.index, dtype=bool)
    keep = pd.Series(list(keep) if keep is not None else False, index=data.index, dtype=bool)
    ranked = data.assign(_mine=mine, _keep=keep, _scale=pd.to_numeric(data["accelerators"], errors="coerce"))
    ranked = ranked.sort_values(value, ascending=not higher_is_better, kind="mergesort")
    chosen: list = []
    for pick in _priorities(ranked):
        for index in pick:
            if index not in chosen:
                chosen.append(index)
            if len(chosen) >= budget:
                return pd.Series(data.index.isin(chosen), index=data.index)
    return pd.Series(data.index.isin(chosen), index=data.index)


def _priorities(ranked: pd.DataFrame):
    """Lists of row labels, most important first (``ranked``: best first)."""
    divisions = [group for _, group in ranked.groupby("division", sort=True)]
    yield [group.index[0] for group in divisions]
    yield list(ranked.index[ranked["_keep"]])
    classes = [group for _, group in ranked.groupby(["division", "_scale"], sort=True, dropna=False)]
    focused = [group for group in classes if group["_mine"].any()]
    yield [group.index[group["_mine"].to_numpy()][0] for group in focused]
    yield [group.index[0] for group in focused]
    for group in focused:
        yield _neighbours(group)
    yield [index for group in divisions for index in group.index[:_TOP]]
    yield list(ranked.index[ranked["_mine"]])
    yield [group.index[0] for group in classes]
    yield list(ranked.index)


def _neighbours(group: pd.DataFrame) -> list:
    """The rivals just ahead of and just behind the focus's best result of one accelerator count."""
    positions = list(group.index)
    best = positions.index(group.index[group["_mine"].to_numpy()][0])
    rivals = [i for i in positions[:best] if not group.at[i, "_mine"]][-1:]
    rivals += [i for i in positions[best + 1:] if not group.at[i, "_mine"]][:1]
    return rivals


def hidden(mask: pd.Series) -> int:
    """How many results a chart shown through ``mask`` leaves out."""
    return int((~mask.astype(bool)).sum())
