"""A chart of one story claim: the results the claim compares, as bars, from the claim's own facts.

The press kit (slides, brief, chart cards) shows each lead claim beside a chart of what it says, so
the chart can never disagree with the sentence: its rows are the claim's cited results (``claims``'
facts), those of the claim's first benchmark, scenario and division (a leadership claim counted over
seven benchmarks shows its largest lead; a scaling claim its sizes; a generation claim the new and
the old accelerator). A price claim shows performance per dollar relative to its baseline (1×), an
energy claim the energy to train, a host share the systems the focus's processors host against the
others, a partners claim without a closest partner each partner's results on the focus's chips. A
debut shows its best result on each benchmark it entered, each figure large (``claim_grid``). A
chart of one bar compares nothing: it is drawn as its figure large. The bars' labels are
``bar_labels``'. Suite-free: a claim dict in, a frame and a chart out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas is imported where a chart is drawn: the build's own process, which only
    import pandas as pd  # names claims, never imports it (0.3 s before its reports could start)

#: Bars a claim chart shows at most.
MAX_ROWS = 6


@dataclass(frozen=True)
class ClaimChart:
    """What a claim chart draws: a row per bar (label, value, the focus's or not), its axis title."""

    rows: tuple[dict, ...]
    measure: str          # time | throughput | latency | energy | price
    unit: str
    higher_is_better: bool
    benchmark: str
    scenario: str
    division: str
    entered: int = 0      # a debut: the benchmarks (scenarios, divisions) it entered, of which it shows ``rows``


def _rows_in(value) -> list[dict]:
    """Every result row in a claim's facts, in the order they appear (a row has a result id and a value)."""
    if isinstance(value, dict):
        if "result_id" in value and "value" in value:
            return [value]
        return [row for item in value.values() for row in _rows_in(item)]
    if isinstance(value, list):
        return [row for item in value for row in _rows_in(item)]
    return []


def claim_chart(claim: dict, is_focus) -> ClaimChart | None:
    """The chart of ``claim`` (``is_focus(submitter, accelerator_model)``: the focus's rows), or None
    for a claim with no comparable result (what was entered for the first time)."""
    facts = claim.get("facts") or {}
    if claim.get("angle") == "price" and facts.get("ratio"):
        return _price_chart(facts, is_focus)
    if claim.get("kind") == "host_share" and facts.get("of"):
        return _share_chart(facts)
    if claim.get("kind") == "debut" and facts.get("per_benchmark"):
        return _debut_chart(facts, is_focus)
    if claim.get("kind") == "partners" and not facts.get("closest") and facts.get("counts"):
        return _partners_chart(facts, is_focus)
    rows = list({row["result_id"] + row.get("round", ""): row for row in _rows_in(facts)}.values())
    if not rows:
        return None
    first = rows[0]
    key = lambda r: (r.get("benchmark"), r.get("scenario"), r.get("division"), r.get("unit"))  # noqa: E731
    same = [r for r in rows if key(r) == key(first)][:MAX_ROWS]
    energy = claim.get("angle") == "energy" and all(r.get("energy") for r in same)
    bars = tuple({**_bar(r, is_focus), "value": float(r["energy"]) / 1e6 if energy else float(r["value"])}
                 for r in same)
    return ClaimChart(bars, "energy" if energy else str(first.get("measure", "")),
                      "MJ" if energy else str(first.get("unit", "")),
                      False if energy else bool(first.get("higher_is_better")), str(first.get("benchmark", "")),
                      str(first.get("scenario", "")), str(first.get("division", "")))


def _bar(row: dict, is_focus) -> dict:
    """A bar's own fields: the result, what it ran on and who built it (its label is the narrative's)."""
    return {"system": row.get("system") or row.get("system_id", ""), "system_id": row.get("system_id", ""),
            "submitter": row.get("submitter", ""), "accelerators": row.get("accelerators"),
            "accelerator_model": row.get("accelerator_model", ""), "host_processors": row.get("host_processors"),
            "host_processor_model": row.get("host_processor_model", ""), "round": row.get("round", ""),
            "result_id": row["result_id"], "mine": bool(is_focus(row.get("submitter"), row.get("accelerator_model")))}


def _share_chart(facts: dict) -> ClaimChart:
    """A host share as two bars: the round's systems the focus's processors host, and the others."""
    bars = tuple({"vendor": " ".join(filter(None, (str(facts.get("vendor") or "").replace("_", " "), facts.get("brand")))),
                  "result_id": "", "value": float(value), "mine": mine}
                 for value, mine in ((facts["systems"], True), (facts["of"] - facts["systems"], False)))
    return ClaimChart(bars, "systems", "", True, "", "", "")


def _debut_chart(facts: dict, is_focus) -> ClaimChart:
    """A debut's results across the benchmarks it entered: its best on each, a cell each (``claim_grid``),
    in the order of their benchmark, scenario and division ids; named by its largest result's benchmark and division."""
    keep = ("benchmark", "scenario", "division", "unit", "measure", "higher_is_better")
    cells = tuple({**_bar(row, is_focus), **{k: row.get(k) for k in keep}, "value": float(row["value"])}
                  for row in facts["per_benchmark"])
    largest = facts.get("largest") or facts["per_benchmark"][0]
    return ClaimChart(cells, "debut", "", True, str(largest.get("benchmark", "")), "", str(largest.get("division", "")),
                      int(facts.get("entered") or len(cells)))


def _partners_chart(facts: dict, is_focus) -> ClaimChart:
    """What a partners claim counts: each partner's results on the focus's chips, as bars (the most
    first; past :data:`MAX_ROWS` the rest as one bar, so the bars still add up to the claim's total)."""
    pairs = list(zip(facts["partners"], facts["counts"]))
    shown, rest = (pairs, []) if len(pairs) <= MAX_ROWS else (pairs[:MAX_ROWS - 1], pairs[MAX_ROWS - 1:])
    bars = [{"submitter": name, "result_id": "", "value": float(count), "others": 0,
             "mine": bool(is_focus(name, ""))} for name, count in shown]
    if rest:
        bars.append({"submitter": "", "result_id": "", "value": float(sum(c for _, c in rest)), "others": len(rest),
                     "mine": False})
    return ClaimChart(tuple(bars), "results", "", True, "", "", "")


def _price_chart(facts: dict, is_focus) -> ClaimChart:
    system, baseline = facts["system"], facts["baseline"]
    bars = tuple({**_bar(row, is_focus), "value": value} for row, value in ((system, float(facts["ratio"])), (baseline, 1.0)))
    return ClaimChart(bars, "price", "×", True, str(system.get("benchmark", "")), str(system.get("scenario", "")),
                      str(system.get("division", "")))


def frame(chart: ClaimChart, label_of) -> pd.DataFrame:
    """The bars as a frame the drawing takes: best first, ``label_of(row)`` as each bar's label."""
    import pandas as pd

    df = pd.DataFrame(list(chart.rows))
    # a debut's cells keep the tables' order (their values are of different units); a partners chart
    # its order, the most first and the rest counted last
    if chart.measure not in ("debut", "results"):
        df = df.sort_values("value", ascending=not chart.higher_is_better, kind="stable").reset_index(drop=True)
    return df.assign(_label=[label_of(row) for row in df.to_dict("records")])


def value_format(measure: str, values, lang: str):
    """How a bar's value reads: minutes with two decimals, a ratio as ``1.55×``, else the decimals
    that give the smallest value three significant digits."""
    from mlperf_report.i18n import formatting

    if measure == "time":
        return lambda v: formatting.minutes(v, places=formatting.TABLE_PLACES)
    if measure == "price":
        return lambda v: formatting.ratio(v, places=2)
    if measure in ("systems", "results"):
        return formatting.count
    places = formatting.places_for(list(values), 1)
    return lambda v: formatting.fixed(v, places, lang)


def axis_title(chart: ClaimChart, lang: str) -> str:
    """The value axis's title, in the words the report's charts use for the same measure."""
    from mlperf_report.i18n.labels import label

    if chart.measure == "time":
        return label("time_to_train.x", lang)
    if chart.measure == "energy":
        return label("energy_to_train.x", lang)
    if chart.measure == "price":
        return label("perf_per_dollar.x", lang, baseline=chart.rows[-1].get("label") or chart.rows[-1]["system"])
    if chart.measure == "systems":
        return label("kit.share_x", lang)
    if chart.measure == "results":
        return label("kit.partners_x", lang)
    if chart.measure == "debut":
        return ""
    return label("inference.rank.x_higher" if chart.higher_is_better else "inference.rank.x_lower", lang,
                 unit=chart.unit)


def draw(data: pd.DataFrame, *, title: str = "", xlabel: str = "", measure: str = "", fontsize: float = 9,
         lang: str = "en", ax=None):
    """Horizontal bars of a claim's results (``frame``), best on top, the focus's in the focus colour,
    each value at its bar's end; ``fontsize`` scales the labels (a chart card prints them larger)."""
    from mlperf_report.analysis import style
    from mlperf_report.analysis.axes import value_labels

    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()
    if measure == "debut":
        from mlperf_report.analysis import claim_grid

        return claim_grid.draw(data, ax, title=title, fontsize=fontsize, lang=lang)
    if len(data) < 2:
        return _figure(data, ax, title=title, xlabel=xlabel, measure=measure, fontsize=fontsize, lang=lang)
    positions = list(range(len(data)))
    bars = ax.barh(positions, data["value"].astype(float).tolist(), height=0.7, linewidth=0,
                   color=[style.FOCUS_COLOR if mine else style.OTHER_COLOR for mine in data["mine"]])
    ax.set_yticks(positions, data["_label"].tolist(), fontsize=fontsize)
    ax.set_ylim(len(data) - 0.5, -0.5)
    ax.set_xlim(0, float(data["value"].max()) * 1.04)
    ax.grid(False, axis="y")
    ax.tick_params(axis="x", labelsize=fontsize * 0.85)
    value_labels(ax, bars, value_format(measure, data["value"], lang), fontsize=fontsize * 0.9)
    ax.set_title(title, fontsize=fontsize * 1.1)
    ax.set_xlabel(xlabel, fontsize=fontsize * 0.9)
    return ax


def _figure(data: pd.DataFrame, ax, *, title: str, xlabel: str, measure: str, fontsize: float, lang: str):
    """A chart of one bar compares nothing: its figure large instead, what it measures and its label
    under it (a debut's largest system: "10.25", "Time to train (minutes)", "8 × AMD Instinct MI355X")."""
    from mlperf_report.analysis import style

    ax.set_axis_off()
    if data.empty:
        return ax
    row = data.iloc[0]
    ax.text(0.5, 0.62, value_format(measure, data["value"], lang)(float(row["value"])), transform=ax.transAxes,
            ha="center", va="bottom", fontsize=fontsize * 3.2, fontweight="bold",
            color=style.figure_colour(bool(row["mine"])))
    ax.text(0.5, 0.56, xlabel, transform=ax.transAxes, ha="center", va="top", fontsize=fontsize)
    ax.text(0.5, 0.40, str(row["_label"]), transform=ax.transAxes, ha="center", va="top", fontsize=fontsize * 1.1)
    ax.set_title(title, fontsize=fontsize * 1.1)
    return ax
