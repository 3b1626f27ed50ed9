"""Chart parts every suite's charts share: log scales with plain tick numbers, readable, unique
system labels, and the key a result's colour is given by."""

from __future__ import annotations

import contextlib
import math
from typing import Iterator

import pandas as pd

from mlperf_report.analysis.label_text import LABEL_COLUMNS, columns, short_label
from mlperf_report.i18n.labels import label


def system_labels(data: pd.DataFrame, lang: str = "en", width: int | None = None) -> list[str]:
    """Readable, unique y labels: display name (with the submitter when the name lacks it); where two
    would look alike, the division, and failing that the folder name, tells them apart. ``width``:
    columns a label may take (default ``LABEL_COLUMNS``; 0: as long as it is, for a chart that
    wraps its labels itself)."""
    names = [name if submitter.lower() in name.lower() else f"{submitter} {name}"
             for submitter, name in zip(data["submitter"].astype(str), data["display_name"].astype(str))]
    if len(set(names)) < len(names) and "division" in data:
        counts = pd.Series(names).value_counts()
        names = [f"{name} ({label(f'division.{div}', lang)})" if counts[name] > 1 and div in ("closed", "open") else name
                 for name, div in zip(names, data["division"].astype(str))]
    counts = pd.Series(names).value_counts()
    names = [f"{name} [{sid}]" if counts[name] > 1 else name for name, sid in zip(names, data["system_id"].astype(str))]
    return names if width == 0 else _unique_short(names, width or LABEL_COLUMNS)


def _unique_short(names: list[str], width: int) -> list[str]:
    """Each name within ``width`` columns; two that shorten alike are numbered (the table beside the
    chart, and the exhibits, have them in full)."""
    short = [short_label(name, width) for name in names]
    seen: dict[str, int] = {}
    for name in short:
        seen[name] = seen.get(name, 0) + 1
    numbered: dict[str, int] = {}
    out = []
    for name, full in zip(short, names):
        if seen[name] > 1:
            numbered[name] = numbered.get(name, 0) + 1
            suffix = f" ({numbered[name]})"
            name = short_label(full, width - columns(suffix)) + suffix
        out.append(name)
    return out


def result_keys(data: pd.DataFrame) -> list[tuple[str, str, str]]:
    """(division, submitter, system_id) of each row: one result of a benchmark (and scenario), and
    the key its bar's colour is given by (``colours`` options, see ``analysis.paint``)."""
    divisions = data["division"].astype(str) if "division" in data else [""] * len(data)
    return list(zip(divisions, data["submitter"].astype(str), data["system_id"].astype(str)))


def coloured_bars(ax, df: pd.DataFrame, x: str, colours: dict | None, default: str, positions=None):
    """One horizontal bar per row of ``df`` (y: its ``_label``), top to bottom, each in the colour
    ``colours`` gives its result (:func:`result_keys`), else ``default``; returns the bars. One
    series and no error bars: a bar is one result. ``positions``: each row's y (rows 0, 1, 2, ...
    by default; a chart leaves gaps for its headers)."""
    colours = colours or {}
    positions = list(range(len(df))) if positions is None else list(positions)
    bars = ax.barh(positions, df[x].astype(float).tolist(), height=0.8,
                   color=[colours.get(key, default) for key in result_keys(df)], linewidth=0)
    ax.set_yticks(positions, df["_label"].tolist())
    ax.set_ylim(max(positions, default=0) + 0.6, min(positions, default=0) - 0.6)  # first row on top
    ax.grid(False, axis="y")
    return bars


#: A value label goes inside its bar past this share of the axis, so it never reaches the notes
#: printed right of the plot (the accelerator counts).
_INSIDE_FROM = 0.78


def value_labels(ax, bars, fmt, *, fontsize: float = 7) -> None:
    """Each bar's value at its end: outside it while there is room before the axis ends, inside
    (right-aligned, in white or black: the house's choice on its colours, whichever contrasts more on
    a brand's: ``style.text_on``) when
    the bar runs past ``_INSIDE_FROM`` of the axis.
    Call after the axis limits are final."""
    import matplotlib.colors as mcolors
    from matplotlib.transforms import offset_copy

    left, right = ax.get_xlim()
    log = ax.get_xscale() == "log"
    scale = (lambda v: math.log(v)) if log else (lambda v: v)
    outside = offset_copy(ax.transData, fig=ax.figure, x=2, y=0, units="points")
    inside = offset_copy(ax.transData, fig=ax.figure, x=-2, y=0, units="points")
    for bar in bars:
        width = bar.get_width()
        if not width > 0:
            continue
        y = bar.get_y() + bar.get_height() / 2
        share = (scale(width) - scale(left)) / (scale(right) - scale(left))
        if share < _INSIDE_FROM:
            ax.text(width, y, fmt(width), transform=outside, ha="left", va="center", fontsize=fontsize)
        else:
            from mlperf_report.analysis import style

            ax.text(width, y, fmt(width), transform=inside, ha="right", va="center", fontsize=fontsize,
                    color=style.text_on(mcolors.to_hex(bar.get_facecolor())))


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
    low, high = (v for v in sorted(ax.get_ylim()))
    wide = low > 0 and math.log10(high / low) > 3  # 1-2-5 over five decades: labels 9 pt apart
    ax.yaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0,) if wide else (1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(plain if values is None else ticker.FuncFormatter(lambda value, _: values(value)))
    ax.yaxis.set_minor_locator(ticker.NullLocator())


#: Columns a legend entry's name may take (names past it end in "…"; the tables have them whole).
LEGEND_COLUMNS = 28


def legend_below(ax, *, fontsize: float = 6.5, width_pt: float = 440.0) -> None:
    """The axes' legend under the whole figure, in the room the layout makes for it (a legend
    hung below the axes by hand printed over the axis title in Chinese), names shortened, as many
    columns as the longest name lets fit in ``width_pt``; marked for ``layout``, which makes that room."""
    handles, labels = ax.get_legend_handles_labels()
    if ax.get_legend() is not None:
        ax.get_legend().remove()
    if not handles:
        return
    labels = [short_label(text, LEGEND_COLUMNS) for text in labels]
    widest = max(columns(text) for text in labels) * fontsize * 0.6 + 3 * fontsize  # marker and gap
    ncol = int(max(1, min(4, width_pt // widest, len(labels))))
    from mlperf_report.analysis import layout

    layout.below(ax.figure.legend(handles, labels, loc="outside lower center", ncol=ncol, fontsize=fontsize,
                                  frameon=False))


def height_with_legend(base: float, entries: int) -> float:
    """A figure's height in inches: ``base`` for the plot, and a line per three entries of the
    legend :func:`legend_below` puts under it (a round with 25 submitters still gets its plot)."""
    return base + 0.15 * math.ceil(entries / 3)


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
