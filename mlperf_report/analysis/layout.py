"""The layout of a chart of one plot: its margins measured once, not twice.

matplotlib's constrained layout measures every decoration of the axes (tick labels, axis labels,
title, notes beside the plot) twice, moving the axes in between, because tick labels may change
when the axes change size. It was a third of a chart's drawing. Our charts are one axes and, at
most, figure legends under the plot (``axes.legend_below``), so the same margins come out of one
measurement: the decorations' tight box at the default position, the figure's pads around it, the
legends' height under it. Only where the axes' ticks did change once moved (a log axis given
another number of ticks) is it measured again, as constrained layout would. Any other figure
(a suptitle, two axes, a legend elsewhere) is left to constrained layout, unchanged.

It measures with the figure's renderer as constrained layout does, through a private call
(``Figure._get_renderer``), so only on the matplotlib versions it was checked against
(:data:`CHECKED`); on any other every chart is left to constrained layout (a public path, two
measurements).
"""

from __future__ import annotations

import weakref

#: matplotlib versions this was checked against (``Figure._get_renderer``; the tests' margins).
CHECKED = ("3.11.2",)
_BELOW: weakref.WeakSet = weakref.WeakSet()  # figure legends at "outside lower center"


def below(legend):
    """Mark ``legend``, a figure legend at ``loc="outside lower center"``, as one this layout places
    room for (it sits at the figure's bottom edge whatever the layout does). Returns it."""
    _BELOW.add(legend)
    return legend


def lay_out(fig) -> bool:
    """Place the one axes of ``fig`` as constrained layout would, measuring its decorations once
    (twice if its ticks changed when moved); False, with nothing changed, for a figure this does not
    know, which constrained layout then lays out. Run it where the figure is measured for saving."""
    import matplotlib as mpl
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    engine = fig.get_layout_engine()
    if mpl.__version__ not in CHECKED or not isinstance(engine, ConstrainedLayoutEngine) or not _one_plot(fig, engine):
        return False
    (ax,) = fig.axes
    renderer = fig._get_renderer()  # the renderer constrained layout measures with
    width, height = fig.get_size_inches()
    w_pad, h_pad = engine.get()["w_pad"] / width, engine.get()["h_pad"] / height
    to_figure = fig.transFigure.inverted()
    under = max((to_figure.transform_bbox(legend.get_tightbbox(renderer)).height + 2 * h_pad
                 for legend in fig.legends), default=0.0)
    for _ in range(3):  # measured again only when the ticks moved or a label was broken into lines
        ticks = _ticks(ax)
        pos = ax.get_position(original=True)
        box = ax.get_tightbbox(renderer, for_layout_only=True)
        box = pos if box is None else to_figure.transform_bbox(box)
        left, right = w_pad + pos.x0 - box.x0, 1 - w_pad - (box.x1 - pos.x1)
        bottom, top = under + h_pad + pos.y0 - box.y0, 1 - h_pad - (box.y1 - pos.y1)
        if not (left < right and bottom < top):  # no room: constrained layout warns and gives up
            return False
        ax.set_position([left, bottom, right - left, top - bottom])
        if _ticks(ax) == ticks and not _broke_long_labels(ax, renderer):
            break
    return True


def _broke_long_labels(ax, renderer) -> bool:
    """Break an axis label or the title longer than the figure leaves it (each is centred on its
    axis, so half of it must fit on each side) into lines: constrained layout makes room for a
    label's height, never for its length, and a long one ran off the figure (a summary chart's title
    centred over a plot that long system names push right). True when one was broken."""
    from mlperf_report.analysis import style
    from mlperf_report.analysis.label_text import columns

    fig = ax.get_figure(root=True)
    pos, broke = ax.get_position(), False
    across = pos.x0 + pos.width / 2
    for label, centre, room in ((ax.xaxis.label, across, fig.bbox.width), (ax.title, across, fig.bbox.width),
                                (ax.yaxis.label, pos.y0 + pos.height / 2, fig.bbox.height)):
        text = label.get_text()
        if not text or "\n" in text or not label.get_visible():
            continue
        box = label.get_window_extent(renderer)
        length = box.height if label is ax.yaxis.label else box.width
        allowed = 2 * min(centre, 1 - centre) * room * 0.95
        if length > allowed:
            label.set_text(style.wrap_title(text, max(8, int(columns(text) * allowed / length))))
            broke = True
    return broke


def _one_plot(fig, engine) -> bool:
    """One axes in a 1x1 grid, no super titles, every figure legend one of :func:`below`'s."""
    if len(fig.axes) != 1 or fig.subfigs or tuple(engine.get()["rect"]) != (0, 0, 1, 1):
        return False
    (ax,) = fig.axes
    spec = ax.get_subplotspec()
    if spec is None or spec.get_gridspec().get_geometry() != (1, 1) or not ax.get_in_layout():
        return False
    if fig.get_suptitle() or fig.get_supxlabel() or fig.get_supylabel():
        return False
    return all(legend in _BELOW for legend in fig.legends)


def _ticks(ax) -> tuple:
    """Where the axes' major ticks are: what its tick labels, and so its margins, depend on."""
    return tuple(tuple(axis.get_majorticklocs()) for axis in (ax.xaxis, ax.yaxis))
