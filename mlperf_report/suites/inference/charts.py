"""The charts of an Inference model, in the seaborn way: ``data`` first, keyword-only options,
``ax=None``, return the Axes. The direction of better (higher throughput, lower latency) is said on
the value axis; derived per-accelerator figures say that they are derived. The focus reaches a chart
as ``colours`` (:func:`result_colours`, :func:`submitter_colours`), so a batch of focuses draws each
chart once and paints every focus's colours on it (:mod:`mlperf_report.analysis.paint`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

from mlperf_report.analysis import style
from mlperf_report.analysis.axes import (coloured_bars, labels_of_our_own, legend_below, log_axes, result_keys,
                                         system_labels, value_labels)
from mlperf_report.core.config import Focus
from mlperf_report.suites.inference.tables import as_focus, focus_rows, result_places
from mlperf_report.i18n import formatting
from mlperf_report.i18n.labels import label
from mlperf_report.suites.inference import models, power
from mlperf_report.suites.inference.metrics import higher_is_better

#: Most bars a ranking shows (the best ones); the table beside it lists them all.
MAX_BARS = 25
#: Columns (a CJK character counts two) of one line of a bar's name; a name takes at most two lines,
#: shortened with "…" past them, so the bars keep most of the width; the table beside has it in full.
NAME_COLUMNS = 30


def _axes(ax):
    return plt.gca() if ax is None else ax


def _note(ax, text: str):
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, wrap=True)
    ax.set_xticks([])
    ax.set_yticks([])
    return ax


def result_colours(data: pd.DataFrame, *, focus: Focus | str | None = None) -> dict:
    """The colour of every result of ``data`` in the bar charts: the focus's, or everyone else's."""
    if data.empty:
        return {}
    mine = focus_rows(data, focus)
    return {key: style.FOCUS_COLOR if focused else style.OTHER_COLOR for key, focused in zip(result_keys(data), mine)}


def submitter_colours(data: pd.DataFrame, *, focus: Focus | str | None = None) -> dict[str, str]:
    """Each submitter's own colour (the focus submitter's highlighted) in the scatter charts."""
    if data.empty:
        return {}
    return style.submitter_palette(data["submitter"].astype(str), focus=as_focus(focus).submitter)


def _labelled(df: pd.DataFrame, lang: str) -> pd.DataFrame:
    shown = df.assign(display_name=df["system_name"].where(df["system_name"] != "", df["system_id"]))
    return shown.assign(_label=system_labels(shown, lang, width=0))  # short_name wraps them in two lines


def _palette(df: pd.DataFrame, colours: dict | None) -> dict[str, str]:
    return {**submitter_colours(df), **(colours or {})}


def short_name(text: str, columns: int = NAME_COLUMNS) -> str:
    """A bar's name in at most two lines of ``columns``, the second ending in "…" when cut."""
    lines = style.wrap_title(text, width=columns).split("\n")
    if len(lines) <= 2:
        return "\n".join(lines)
    second = style.wrap_title(lines[1], width=columns - 2).split("\n")[0]
    return f"{lines[0]}\n{second}…"


def compact_ticks(axis, lang: str) -> None:
    """At most five value ticks, in ``lang``'s short compact form (250K, 1.2M; 25萬)."""
    from matplotlib import ticker

    axis.set_major_locator(ticker.MaxNLocator(nbins=5))
    axis.set_major_formatter(ticker.FuncFormatter(lambda value, _: formatting.compact(value, lang)))


def _bars(ax, df: pd.DataFrame, value: str, places: int, colours: dict | None, lang: str) -> None:
    """Horizontal bars in their results' colours, labelled with their values at ``places`` (the
    table's), names shortened."""
    order = df["_label"].tolist()
    bars = coloured_bars(ax, df, value, colours, style.OTHER_COLOR)
    ax.set_yticks(range(len(order)), [short_name(name) for name in order], fontsize=7, linespacing=0.95)
    compact_ticks(ax.xaxis, lang)
    ax.set_xlim(0, float(df[value].max()) * 1.04)
    value_labels(ax, bars, lambda v: formatting.fixed(v, places, lang))  # inside a bar that nearly fills the axis
    ax.set_ylabel("")


def _title(ax, text: str) -> None:
    """The chart's title over the whole figure (not the bars), wrapped to fit it."""
    ax.figure.suptitle(style.wrap_title(text), fontsize=10, fontweight="bold")


def _xlabel(ax, text: str) -> None:
    ax.set_xlabel(style.wrap_title(text, width=70))


def _scenario(scenario: str, lang: str) -> str:
    return label(f"inference.scenario.{scenario}", lang)


def ranking(data: pd.DataFrame, *, scenario: str, model: str, colours: dict | None = None, lang: str = "en", ax=None):
    """The primary metric of every valid result of one scenario, best first."""
    ax = _axes(ax)
    if data.empty:
        return _note(ax, label("empty", lang))
    df = _labelled(data.head(MAX_BARS), lang)
    _bars(ax, df, "result", result_places(data["result"], scenario), colours, lang)
    unit = str(df["unit"].iloc[0])
    _title(ax, label("inference.rank.title", lang, model=models.title(model, lang), scenario=_scenario(scenario, lang)))
    _xlabel(ax, label("inference.rank.x_higher" if higher_is_better(scenario) else "inference.rank.x_lower",
                        lang, unit=unit))
    return ax


def per_accelerator(data: pd.DataFrame, *, scenario: str, model: str, colours: dict | None = None, lang: str = "en",
                    ax=None):
    """Derived: result ÷ accelerators, best first."""
    ax = _axes(ax)
    if data.empty:
        return _note(ax, label("empty", lang))
    df = _labelled(data.head(MAX_BARS), lang)
    _bars(ax, df, "per_accelerator", formatting.places_for(data["per_accelerator"], 1), colours, lang)
    _title(ax, label("inference.per_acc.title", lang, model=models.title(model, lang),
                     scenario=_scenario(scenario, lang)))
    _xlabel(ax, label("inference.per_acc.x", lang, unit=str(df["unit"].iloc[0])))
    return ax


def throughput_scaling(data: pd.DataFrame, *, scenario: str, model: str, colours: dict[str, str] | None = None,
                       lang: str = "en", ax=None):
    """Each valid result as a point: accelerator count against the result, by submitter."""
    ax = _axes(ax)
    df = data[data["accelerators"].notna()]
    if df.empty:
        return _note(ax, label("empty", lang))
    df = df.assign(accelerators=df["accelerators"].astype(float))
    with labels_of_our_own(ax):
        sns.scatterplot(data=df, x="accelerators", y="result", hue="submitter", palette=_palette(df, colours), ax=ax,
                        s=30)
    # plain tick numbers (8, 16; 2, 5, 10), never mathtext powers; results compact (250K, 25萬)
    log_axes(ax, x=True, values=lambda value: formatting.compact(value, lang))
    ax.set_title(style.wrap_title(label("inference.scaling.title", lang, model=models.title(model, lang),
                                        scenario=_scenario(scenario, lang))))
    ax.set_xlabel(label("inference.scaling.x", lang))
    ax.set_ylabel(label("inference.scaling.y", lang, unit=str(df["unit"].iloc[0])))
    legend_below(ax)  # below the figure: never over the points or the axis title
    return ax


def power_efficiency(data: pd.DataFrame, *, scenario: str, model: str, colours: dict | None = None,
                     measured: int = 0, lang: str = "en", ax=None):
    """The checker's power efficiency (throughput per watt, samples per joule for the streams) where
    power results were computed; otherwise says why there are none (``measured``: results with power)."""
    ax = _axes(ax)
    _title(ax, label("inference.power.title", lang, model=models.title(model, lang),
                     scenario=_scenario(scenario, lang)))
    if data.empty:
        return _note(ax, label("inference.power.none", lang, count=measured))
    per_joule = [power.efficiency(scenario, r, p) for r, p in zip(data["result"], data["power_result"])]
    df = _labelled(data.assign(per_joule=per_joule), lang)
    _bars(ax, df, "per_joule", formatting.places_for(df["per_joule"], 2), colours, lang)
    _xlabel(ax, label("inference.power.x", lang, unit=power.efficiency_unit(scenario, str(df["unit"].iloc[0]))))
    return ax


def round_over_round(data: pd.DataFrame, *, model: str, round_id: str, previous: str,
                     colours: dict[str, str] | None = None, lang: str = "en", ax=None):
    """Best result per submitter and scenario in the previous round and this one."""
    ax = _axes(ax)
    if data.empty or data["round"].nunique() < 2:
        return _note(ax, label("inference.ror.none", lang, model=models.title(model, lang), previous=previous))
    data = data.assign(_current=data["round"] != previous).sort_values(["scenario", "_current"], kind="stable")
    df = data.assign(_x=[f"{_scenario(s, lang)}\n{r}" for s, r in zip(data["scenario"], data["round"])])
    with labels_of_our_own(ax):
        sns.stripplot(data=df, x="_x", y="result", hue="submitter", palette=_palette(df, colours), ax=ax, size=5,
                      jitter=False)
    log_axes(ax, x=False, values=lambda value: formatting.compact(value, lang))
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.set_title(style.wrap_title(label("inference.ror.title", lang, model=models.title(model, lang),
                                        previous=previous, round=round_id)))
    legend_below(ax)  # below the figure: never over the points or the axis title
    return ax
