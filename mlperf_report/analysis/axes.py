"""Chart parts every suite's charts share: log scales with plain tick numbers, readable, unique
system labels, and the key a result's colour is given by."""

from __future__ import annotations

import contextlib
from typing import Iterator

import pandas as pd

from mlperf_report.i18n.labels import label


def system_labels(data: pd.DataFrame, lang: str = "en") -> list[str]:
    """Readable, unique y labels: display name (with the submitter when the name lacks it); where two
    would look alike, the division, and failing that the folder name, tells them apart."""
    names = [name if submitter.lower() in name.lower() else f"{submitter} {name}"
             for submitter, name in zip(data["submitter"].astype(str), data["display_name"].astype(str))]
    if len(set(names)) < len(names) and "division" in data:
        counts = pd.Series(names).value_counts()
        names = [f"{name} ({label(f'division.{div}', lang)})" if counts[name] > 1 and div in ("closed", "open") else name
                 for name, div in zip(names, data["division"].astype(str))]
    counts = pd.Series(names).value_counts()
    return [f"{name} [{sid}]" if counts[name] > 1 else name for name, sid in zip(names, data["system_id"].astype(str))]


def result_keys(data: pd.DataFrame) -> list[tuple[str, str, str]]:
    """(division, submitter, system_id) of each row: one result of a benchmark (and scenario), and
    the key its bar's colour is given by (``colours`` options, see ``analysis.paint``)."""
    divisions = data["division"].astype(str) if "division" in data else [""] * len(data)
    return list(zip(divisions, data["submitter"].astype(str), data["system_id"].astype(str)))


def coloured_bars(ax, df: pd.DataFrame, x: str, colours: dict | None, default: str):
    """One horizontal bar per row of ``df`` (y: its ``_label``), top to bottom, each in the colour
    ``colours`` gives its result (:func:`result_keys`), else ``default``; returns the bars. One
    series and no error bars: a bar is one result (seaborn would bootstrap a zero-width interval for
    each and draw it)."""
    import seaborn as sns

    with labels_of_our_own(ax):
        sns.barplot(data=df, x=x, y="_label", order=df["_label"].tolist(), color=default, orient="h",
                    errorbar=None, ax=ax, saturation=1.0)
    bars = ax.containers[-1]
    colours = colours or {}
    for patch, key in zip(bars, result_keys(df)):
        patch.set_facecolor(colours.get(key, default))
    return bars


def log_axes(ax, *, x: bool, values=None) -> None:
    """Log scales with plain numbers (4, 8, 16 accelerators; 2, 5, 10, 20 minutes), not 2^n or 10^n;
    ``values(number) -> text`` formats the y ticks instead (e.g. compact: 250K, 1.2M).

    No minor ticks: the house style shows neither their marks nor their grid lines, and they would
    have no labels, yet a log axis makes eight a decade, each laid out at every drawing (a tenth of
    a chart's time); without them the chart is the same bytes."""
    from matplotlib import ticker

    plain = ticker.FuncFormatter(lambda value, _: f"{value:g}")
    if x:
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(ticker.LogLocator(base=2))
        ax.xaxis.set_major_formatter(plain)
        ax.xaxis.set_minor_locator(ticker.NullLocator())
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(plain if values is None else ticker.FuncFormatter(lambda value, _: values(value)))
    ax.yaxis.set_minor_locator(ticker.NullLocator())


@contextlib.contextmanager
def labels_of_our_own(ax) -> Iterator[None]:
    """Around a seaborn call on ``ax``: its axis labels stay empty for the chart to set.

    seaborn names an unlabelled axis after its column, and first asks whether the tick labels are
    visible, which makes matplotlib lay out every tick then and there (a tenth of a chart's time).
    Every chart sets its own labels after the call, so a placeholder spares that; the labels are
    left empty, as seaborn's would be replaced anyway."""
    ax.set_xlabel(_PLACEHOLDER)
    ax.set_ylabel(_PLACEHOLDER)
    yield
    ax.set_xlabel("")
    ax.set_ylabel("")


_PLACEHOLDER = "\u2060"  # word joiner: any non-empty text will do, it is never drawn
