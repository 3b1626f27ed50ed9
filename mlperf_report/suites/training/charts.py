"""The charts of a benchmark, in the seaborn way: ``data`` first, keyword-only options,
``ax=None``, return the Axes; the caller owns the figure and saves it.

Inputs are the frames ``metrics`` makes (one row per result or run, ``display_name`` set). Label text
comes from ``labels`` in the requested language; colours from ``style`` (focus submitter highlighted).
The charts whose shape does not depend on the focus take ``colours`` instead of the focus: a colour
per result (:func:`result_colours`) or per submitter (:func:`submitter_colours`), so that a batch
draws them once and paints each focus's colours on (:mod:`mlperf_report.analysis.paint`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from mlperf_report.i18n import formatting
from mlperf_report.analysis import style
from mlperf_report.analysis.axes import (coloured_bars, labels_of_our_own, legend_below, log_axes, result_keys,
                                         short_label, system_labels, value_labels)
from mlperf_report.i18n.labels import counted, label

_FOCUS, _BASELINE, _OTHER = "focus", "baseline", "other"
#: Marker per submitter, so colour and shape together tell a dozen submitters apart.
_MARKERS = ("o", "s", "D", "^", "v", "P", "X")
#: Fastest-to-slowest ratio above which time-to-train bars use a log scale.
WIDE_RANGE = 30
_GROUP_COLORS = {_FOCUS: style.FOCUS_COLOR, _BASELINE: style.BASELINE_COLOR, _OTHER: style.OTHER_COLOR}


def _minutes(value: float) -> str:
    return formatting.minutes(float(value), places=formatting.TABLE_PLACES)


def _ratio(value: float) -> str:
    return formatting.ratio(float(value), places=2)


def _axes(ax):
    return plt.gca() if ax is None else ax


def _is_focus(focus, submitter: str, system_id: str) -> bool:
    """``focus`` is a submitter name, or the (submitter, system_id) keys of the focus results."""
    if not focus:
        return False
    if isinstance(focus, str):
        return submitter.lower() == focus.lower()
    return (submitter, system_id) in focus


def _groups(data: pd.DataFrame, focus, baseline: tuple[str, str] | None) -> list[str]:
    out = []
    for submitter, system_id in zip(data["submitter"].astype(str), data["system_id"].astype(str)):
        if _is_focus(focus, submitter, system_id):
            out.append(_FOCUS)
        elif baseline and (submitter, system_id) == tuple(baseline):
            out.append(_BASELINE)
        else:
            out.append(_OTHER)
    return out


def result_colours(data: pd.DataFrame, *, focus=None, baseline: tuple[str, str] | None = None) -> dict:
    """The colour of every result of ``data``: the focus's, the baseline's, or everyone else's.
    ``focus``: a submitter name, or the (submitter, system_id) keys of the focus results."""
    if data.empty:
        return {}
    return {key: _GROUP_COLORS[group] for key, group in zip(result_keys(data), _groups(data, focus, baseline))}


def submitter_colours(data: pd.DataFrame, *, focus: str | None = None) -> dict[str, str]:
    """Each submitter's colour in the charts that give every submitter its own (``style``)."""
    return style.submitter_palette(data["submitter"].astype(str), focus=focus) if len(data) else {}


def _bars(ax, df: pd.DataFrame, x: str, colours, fmt, positions=None, at_least: float = 0.0,
          default: str = style.OTHER_COLOR) -> None:
    """One bar per result in its colour, its value at its end (inside a bar that nearly fills the
    axis, so no value reaches the notes right of the plot); the axis starts at zero."""
    bars = coloured_bars(ax, df, x, colours, default, positions=positions)
    ax.set_xlim(0, max(float(df[x].max()), at_least) * 1.04)  # ``at_least``: a reference line drawn
    value_labels(ax, bars, fmt)


def _more(text: str, hidden: int, lang: str) -> str:
    """An axis title, and under it how many results the chart leaves out (``chart_rows``)."""
    return text if not hidden else text + "\n" + counted("chart.more_results", lang, hidden)


def _empty(ax, lang: str):
    ax.text(0.5, 0.5, label("empty", lang), ha="center", va="center", transform=ax.transAxes)
    ax.set_xticks([])
    ax.set_yticks([])
    return ax


def time_to_train(data: pd.DataFrame, *, colours: dict | None = None, benchmark: str = "", hidden: int = 0,
                  lang: str = "en", ax=None):
    """Horizontal bars of the scored results shown (``chart_rows``: ``hidden`` more are in the
    exhibits), closed division above open, each under its division's heading, grouped in scale
    classes (same accelerator count, smallest first, each marked) and fastest first within a class.
    ``colours``: :func:`result_colours` (unlisted results in the colour of everyone else)."""
    ax = _axes(ax)
    if data.empty:
        return _empty(ax, lang)
    divisions = [d for d in ("closed", "open") if (data["division"] == d).any()]
    df = pd.concat([data[data["division"] == d].assign(_scale=data["accelerators"].astype("Float64").fillna(-1))
                    .sort_values(["_scale", "score_min", "submitter", "system_id"], kind="mergesort")
                    for d in divisions], ignore_index=True)
    df = df.assign(_label=system_labels(df, lang))
    positions, headings = _rows_under_headings(df["division"].tolist())
    bars = coloured_bars(ax, df, "score_min", colours, style.OTHER_COLOR, positions=positions)
    ax.set_ylim(positions[-1] + 0.6, -0.6)  # the first division's heading row on top
    low, high = float(df["score_min"].min()), float(df["score_min"].max())
    wide = high / low > WIDE_RANGE
    if wide:  # a 1,000-minute CPU run would flatten every other bar to nothing
        from matplotlib import ticker

        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda value, _: f"{value:g}"))
        ax.xaxis.set_minor_locator(ticker.NullLocator())  # never shown, yet laid out at every measuring
        ax.set_xlim(low / 2, high * 1.3)
    else:
        ax.set_xlim(0, high * 1.04)
    value_labels(ax, bars, _minutes)
    _division_headings(ax, headings, lang)
    _scale_bands(ax, df, positions, lang)
    ax.set_title(label("time_to_train.title", lang, benchmark=benchmark))
    ax.set_xlabel(_more(label("time_to_train.x_log" if wide else "time_to_train.x", lang), hidden, lang))
    ax.set_ylabel("")
    return ax


def _rows_under_headings(divisions: list[str]) -> tuple[list[int], list[tuple[str, int]]]:
    """Each result's row, and a row of its own above each division's results for its heading (so
    the heading never sits over a bar or its value)."""
    positions, headings, row, previous = [], [], 0, None
    for division in divisions:
        if division != previous:
            headings.append((division, row))
            row += 1
            previous = division
        positions.append(row)
        row += 1
    return positions, headings


def _division_headings(ax, headings: list[tuple[str, int]], lang: str) -> None:
    """The division's name in its heading row, and a rule above every division but the first."""
    for i, (division, row) in enumerate(headings):
        if i:
            ax.axhline(row - 0.5, color="black", linewidth=0.8)
        ax.text(0.0, row, label(f"division.{division}.title", lang), transform=ax.get_yaxis_transform(),
                ha="left", va="center", fontsize=8, style="italic", fontweight="bold")


def _scale_bands(ax, df: pd.DataFrame, positions: list[int], lang: str) -> None:
    """A light rule between scale classes and, right of the plot, each class's accelerator count
    beside its first bar (outside the bars, which never carry their values that far)."""
    previous = None
    for position, division, scale in zip(positions, df["division"], df["_scale"]):
        key = (division, scale)
        if key == previous:
            continue
        if previous is not None and previous[0] == division:
            ax.axhline(position - 0.5, color="0.6", linewidth=0.5, linestyle="--")
        text = label("scale.class", lang, count=formatting.count(int(scale))) if scale > 0 else label("scale.unknown", lang)
        ax.text(1.01, position, text, transform=ax.get_yaxis_transform(), ha="left", va="center", fontsize=6.5,
                color="0.35", clip_on=False)
        previous = key


def scaling(data: pd.DataFrame, *, ideal: pd.DataFrame | None = None, colours: dict[str, str] | None = None,
            benchmark: str = "", division: str = "closed", lang: str = "en", ax=None):
    """Time to train against accelerator count, log-log, one colour per submitter (``colours``:
    :func:`submitter_colours`), dashed ideal lines."""
    ax = _axes(ax)
    if data.empty:
        return _empty(ax, lang)
    palette = {**submitter_colours(data), **(colours or {})}
    df = data.assign(submitter=data["submitter"].astype(str), accelerators=data["accelerators"].astype(float))
    hue_order = sorted(set(df["submitter"]), key=style.name_order)
    markers = {name: _MARKERS[i % len(_MARKERS)] for i, name in enumerate(hue_order)}
    with labels_of_our_own(ax):
        sns.scatterplot(data=df, x="accelerators", y="score_min", hue="submitter", hue_order=hue_order,
                        palette=palette, style="submitter", style_order=hue_order, markers=markers, s=30,
                        linewidth=0, ax=ax)
    if ideal is not None and not ideal.empty:
        for submitter, line in ideal.groupby("submitter", sort=True):
            ax.plot(line["accelerators"], line["minutes"], linestyle="--", linewidth=0.9,
                    color=palette.get(str(submitter), style.OTHER_COLOR), alpha=0.8, zorder=1)
        ax.plot([], [], linestyle="--", color="black", linewidth=0.9, label=label("scaling.ideal", lang))
    log_axes(ax, x=True)
    ax.set_title(label("scaling.title", lang, benchmark=benchmark, division=label(f"division.{division}", lang)))
    ax.set_xlabel(label("scaling.x", lang))
    ax.set_ylabel(label("scaling.y", lang))
    legend_below(ax)
    return ax


def priced_rows(data: pd.DataFrame) -> pd.DataFrame:
    """The rows of a ``metrics.perf_per_dollar`` frame the perf/$ chart draws: those with a ratio."""
    return data[data["ratio"].notna()] if "ratio" in data else data.iloc[0:0]


def perf_per_dollar_colours(data: pd.DataFrame, *, focus=None) -> dict:
    """:func:`result_colours` of the perf/$ chart: its baseline is the frame's ``is_baseline`` row."""
    df = priced_rows(data)
    baseline = df[df["is_baseline"].astype(bool)] if len(df) else df
    base_key = (str(baseline["submitter"].iloc[0]), str(baseline["system_id"].iloc[0])) if len(baseline) else None
    return result_colours(df, focus=focus, baseline=base_key)


def perf_per_dollar(data: pd.DataFrame, *, colours: dict | None = None, baseline_name: str = "", benchmark: str = "",
                    lang: str = "en", ax=None):
    """Bars of perf/$ relative to the baseline (1× line) for every system with a price, best first
    (``colours``: :func:`perf_per_dollar_colours`)."""
    ax = _axes(ax)
    df = priced_rows(data)
    if df.empty:
        return _empty(ax, lang)
    df = df.assign(_label=system_labels(df, lang), ratio=df["ratio"].astype(float))
    _bars(ax, df, "ratio", colours, _ratio, at_least=1.0)
    ax.axvline(1.0, color="black", linewidth=0.8, linestyle=":")
    ax.set_title(label("perf_per_dollar.title", lang, benchmark=benchmark))
    ax.set_xlabel(label("perf_per_dollar.x", lang, baseline=baseline_name))
    ax.set_ylabel("")
    return ax


def run_spread(data: pd.DataFrame, *, focus=None, baseline: tuple[str, str] | None = None,
               benchmark: str = "", lang: str = "en", ax=None):
    """Every run of the chosen systems as a dot over a box of the converged runs; ✕ = did not converge."""
    ax = _axes(ax)
    if data.empty:
        return _empty(ax, lang)
    systems = data.drop_duplicates(["division", "submitter", "system_id"])[["division", "submitter", "system_id", "display_name"]]
    systems = systems.assign(_label=system_labels(systems, lang), _group=_groups(systems, focus, baseline))
    df = data.merge(systems[["division", "submitter", "system_id", "_label", "_group"]],
                    on=["division", "submitter", "system_id"])
    order = systems["_label"].tolist()
    converged = df[df["converged"]]
    hue_order = [g for g in (_FOCUS, _BASELINE, _OTHER) if (systems["_group"] == g).any()]
    with labels_of_our_own(ax):
        sns.boxplot(data=converged, x="time_to_train_min", y="_label", order=order, color="white", linecolor="0.45",
                    showfliers=False, width=0.6, linewidth=0.8, ax=ax)
        sns.stripplot(data=converged, x="time_to_train_min", y="_label", order=order, hue="_group",
                      hue_order=hue_order, palette=_GROUP_COLORS, jitter=False, size=4, legend=False, ax=ax)
    failed = df[~df["converged"]]
    if len(failed):
        positions = {name: i for i, name in enumerate(order)}
        ax.scatter(failed["time_to_train_min"], failed["_label"].map(positions), marker="x", color="black", s=18,
                   linewidths=0.9, label=label("run_spread.not_converged", lang), zorder=3)
        legend_below(ax)  # under the figure: never over a box
    ax.set_title(label("run_spread.title", lang, benchmark=benchmark))
    ax.set_xlabel(label("run_spread.x", lang))
    ax.set_ylabel("")
    return ax


def energy_rows(data: pd.DataFrame) -> pd.DataFrame:
    """The results with an MLPerf Training Power result (``energy_j``), least energy first."""
    if "energy_j" not in data:
        return data.iloc[0:0]
    df = data[pd.to_numeric(data["energy_j"], errors="coerce") > 0]
    return df.assign(energy_mj=df["energy_j"].astype(float) / 1e6).sort_values("energy_mj", kind="stable")


def _megajoules(value: float) -> str:
    return formatting.fixed(value, 2)


def energy_to_train(data: pd.DataFrame, *, colours: dict | None = None, benchmark: str = "", hidden: int = 0,
                    lang: str = "en", ax=None):
    """Bars of energy to train (megajoules) of the results with power measured shown (``hidden``
    more in the exhibits), least first (``colours``: :func:`result_colours` of :func:`energy_rows`)."""
    ax = _axes(ax)
    df = energy_rows(data)
    if df.empty:
        return _empty(ax, lang)
    df = df.assign(_label=system_labels(df, lang))
    _bars(ax, df, "energy_mj", colours, _megajoules)
    ax.set_title(label("energy_to_train.title", lang, benchmark=benchmark))
    ax.set_xlabel(_more(label("energy_to_train.x", lang), hidden, lang))
    ax.set_ylabel("")
    return ax


def round_over_round(data: pd.DataFrame, *, rounds: list[str], colours: dict[str, str] | None = None,
                     benchmark: str = "", division: str = "closed", lang: str = "en", ax=None):
    """Best time to train per submitter in each round (log y), one line per submitter (``colours``:
    :func:`submitter_colours`)."""
    ax = _axes(ax)
    if data.empty:
        return _empty(ax, lang)
    position = {r: i for i, r in enumerate(rounds)}
    df = data.assign(submitter=data["submitter"].astype(str), _x=data["round"].map(position).astype(float))
    palette = {**submitter_colours(df), **(colours or {})}
    hue_order = sorted(set(df["submitter"]), key=style.name_order)
    with labels_of_our_own(ax):
        sns.lineplot(data=df, x="_x", y="score_min", hue="submitter", hue_order=hue_order, palette=palette,
                     marker="o", markersize=5, linewidth=1.2, estimator=None, sort=True, ax=ax)
    ax.set_xticks(np.arange(len(rounds)), [r.replace("training-", "") for r in rounds])
    ax.set_xlim(-0.3, len(rounds) - 0.7)
    log_axes(ax, x=False)
    ax.set_title(label("round_over_round.title", lang, benchmark=benchmark, division=label(f"division.{division}", lang)))
    ax.set_xlabel(label("round_over_round.x", lang))
    ax.set_ylabel(label("round_over_round.y", lang))
    legend_below(ax)
    return ax


def perf_per_dollar_summary(data: pd.DataFrame, *, focus: str | None = None, lang: str = "en", ax=None):
    """Perf/$ ratio of each priced focus system per benchmark (rows of ``summary_tables.perf_per_dollar_frame``)."""
    ax = _axes(ax)
    if data.empty:
        return _empty(ax, lang)
    df = data.assign(_label=[short_label(f"{m}: {n}") for m, n in zip(data["benchmark_model"], data["display_name"])],
                     ratio=data["ratio"].astype(float))
    _bars(ax, df.assign(submitter="", system_id=""), "ratio", None, _ratio, at_least=1.0, default=style.FOCUS_COLOR)
    ax.axvline(1.0, color="black", linewidth=0.8, linestyle=":")
    ax.set_title(label("perf_per_dollar_summary.title", lang, focus=focus or ""))
    ax.set_xlabel(label("perf_per_dollar.x", lang, baseline=label("legend.baseline", lang)))
    ax.set_ylabel("")
    return ax
