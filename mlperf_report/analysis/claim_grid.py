"""A debut's chart: its results across the benchmarks it entered, each figure large in a grid.

A debut compares its chip with nothing, so bars would compare results of different benchmarks and
units; instead each benchmark gets a cell: its name, the figure large, its unit, the chips it ran
on and the result's MLCommons ID (so the card or slide cites every result it shows). The words
and figures are the narrative's (``narrative.chart_words``: the number as the story's sentence
prints it); a kit made by hand without them shows the value in the chart's own format.
"""

from __future__ import annotations

import math

#: Cells a row of the grid holds at most.
COLUMNS = 4
#: Muted text (a cell's chips and ID), the house's ink for its name.
MUTED, INK = "#5b6573", "#1f2933"
#: A cell's lines in units of the chart's font size: name (two lines), figure (up to ``LARGE``), unit,
#: chips, ID.
LARGE = 2.6
_LINES = (2.5, LARGE * 1.15, 1.15, 1.1, 1.05)
#: Points a column of text takes per point of type: the widest digits and capitals of the faces used.
_EM_PER_COLUMN = 0.6


def _text(row, key: str, fallback: str = "") -> str:
    value = row.get(key)
    return str(value) if isinstance(value, str) and value else fallback


def _box(ax) -> tuple[float, float]:
    """The axes' width and height in points (as placed before any layout: the smaller, the safer)."""
    width, height = ax.figure.get_size_inches()
    box = ax.get_position()
    return box.width * width * 72, box.height * height * 72


def _two_lines(text: str, room: int, whole: str = "") -> str:
    """A benchmark's name in at most two lines of ``room`` columns, broken at a space or between
    Chinese characters, never inside a Latin word or a number ("99.9%") nor inside ``whole``, nor
    before closing punctuation ("，")."""
    import re

    from mlperf_report.analysis.label_text import columns, short_label
    from mlperf_report.i18n.line_breaks import NO_LINE_START

    lines = [""]
    tokens = (re.escape(whole) + "|" if whole else "") + r"[A-Za-z0-9.,%+\-_/()]+|\s+|."
    for token in re.findall(tokens, text):
        if lines[-1].strip() and columns(lines[-1] + token.rstrip()) > room and token[:1] not in NO_LINE_START:
            lines.append("")
        lines[-1] += "" if not lines[-1] and token.isspace() else token
    # a closing punctuation mark kept on its line may hang past the room (by one full-width character)
    lines = [line.rstrip() if line.rstrip()[-1:] in NO_LINE_START and columns(line.rstrip()) <= room + 2
             else short_label(line.rstrip(), room) for line in lines]
    return lines[0] if len(lines) == 1 else lines[0] + "\n" + short_label(" ".join(lines[1:]), room)


def _name(row: dict, room: int, lang: str) -> str:
    """A cell's benchmark, scenario and division in two lines of ``room`` columns: the benchmark's name
    cut, as little as it takes, so the scenario and the open division's mark (what tells two cells of
    one benchmark apart, and an open result from a closed one) stay whole."""
    from mlperf_report.analysis.label_text import columns, short_label
    from mlperf_report.i18n.labels import label

    benchmark = _text(row, "benchmark_name", str(row.get("benchmark", "")))
    scenario = _text(row, "scenario_name", str(row.get("scenario") or ""))

    def named(name: str) -> str:
        text = label("story.benchmark_scenario", lang, benchmark=name, scenario=scenario) if scenario else name
        return label("kit.open_mark", lang, benchmark=text) if row.get("open_division") else text

    whole = named("").strip(" ,，")  # what follows the benchmark's name: never cut
    if not whole:
        return _two_lines(benchmark, room)
    text = _two_lines(named(benchmark), room, whole)
    for width in range(columns(benchmark) - 1, 0, -1):
        if not text.endswith("…"):
            break
        text = _two_lines(named(short_label(benchmark, width)), room, whole)
    return text


def fit(text: str, room: float, largest: float, smallest: float) -> float:
    """The largest type (points, at most ``largest``, never under ``smallest``) ``text`` fits ``room`` points in."""
    from mlperf_report.analysis.label_text import columns

    return max(smallest, min(largest, room / (_EM_PER_COLUMN * max(columns(text), 1))))


def draw(data, ax, *, title: str = "", fontsize: float = 9, lang: str = "en"):
    """Each row of ``data`` (``claim_charts.frame`` of a debut) as a cell of the grid, in order."""
    from mlperf_report.analysis import style
    from mlperf_report.analysis.label_text import short_label
    from mlperf_report.analysis.claim_charts import value_format

    ax.set_axis_off()
    ax.set_title(title, fontsize=fontsize * 1.1)
    if data.empty:
        return ax
    count = len(data)
    across, down = min(count, COLUMNS), math.ceil(count / COLUMNS)
    width, height = _box(ax)
    cell_w, cell_h = width / across, height / down
    size = min(fontsize, cell_h / (sum(_LINES) + 0.6))  # the lines fit the cell's height
    room = max(int(cell_w * 0.94 / (_EM_PER_COLUMN * size)), 8)  # columns of text a cell takes at ``size``
    for i, row in enumerate(data.to_dict("records")):
        x = ((i % across) + 0.5) / across
        top = 1 - (i // across) * cell_h / height
        figure = _text(row, "figure") or value_format("", [row["value"]], lang)(float(row["value"]))
        lines = ((_name(row, room, lang), size, INK, "bold"),
                 (figure, fit(figure, cell_w * 0.92, size * LARGE, size), style.figure_colour(row["mine"], INK), "bold"),
                 (short_label(_text(row, "figure_unit", str(row.get("unit") or "")), room), size * 0.9, INK, "normal"),
                 (short_label(str(row.get("_label") or ""), room), size * 0.85, MUTED, "normal"),
                 (short_label(_text(row, "cite"), room), size * 0.8, MUTED, "normal"))
        offset = max(0.0, (cell_h - sum(_LINES) * size) / 2)  # the cell's lines in the middle of its height
        for n, ((text, points, colour, weight), slot) in enumerate(zip(lines, _LINES)):  # each in a slot of its own
            at = offset + (slot - 0.3) * size if n == 0 else offset  # the name sits on the figure, one line or two
            if text:
                ax.text(x, top - at / height, text, transform=ax.transAxes, ha="center", va="bottom" if n == 0 else "top",
                        fontsize=points, color=colour, fontweight=weight, linespacing=1.15)
            offset += slot * size
    return ax
