"""The charts of the press kit: each lead claim's chart (``analysis.claim_charts``) drawn in the house
style, as SVG for print (the brief) and as PNG at print resolution (the slides), at the size a format
asks for. The same claim's chart is the same bars and numbers in every deliverable.

A format names the sizes it shows a claim's chart at (its ``charts(kit)``: claim index and
:class:`ChartSize`); the document draws each claim once per size (:func:`draw`) and every format takes
the drawing from the claim (:func:`drawing`), so no chart is drawn twice in a build."""

from __future__ import annotations

import io
from dataclasses import dataclass

from mlperf_report.analysis import bar_labels, claim_charts
from mlperf_report.analysis.label_text import short_label

#: Columns a bar's label takes in a claim chart.
LABEL_COLUMNS = bar_labels.COLUMNS


@dataclass(frozen=True)
class ChartSize:
    """A size a format shows a claim's chart at: ``svg`` at the report's chart width (6.3 in) and
    ``height``, or ``png`` of ``width`` x ``height`` inches at ``dpi`` with ``fontsize`` type."""

    kind: str
    height: float
    width: float = 6.3
    fontsize: float = 11
    dpi: int = 200


def draw(claim, lang: str, size: ChartSize, brand) -> bytes | str:
    """The claim's chart at ``size`` in ``brand``'s focus colour and typeface: PNG bytes or SVG text."""
    from mlperf_report.analysis import style

    if size.kind == "svg":
        return style.recolour(claim_svg(claim, lang, size.height), brand.primary)
    with style.branded(brand.primary, brand.base_font):
        return claim_png(claim, lang, size.width, size.height, size.dpi, size.fontsize)


def drawing(claim, kit, size: ChartSize) -> bytes | str:
    """The claim's chart at ``size``: the document's drawing, else drawn now (a kit made by hand)."""
    made = claim.drawn(size)
    return made if made is not None else draw(claim, kit.lang, size, kit.brand)


def with_drawings(kit, wanted) -> object:
    """``kit`` with each claim's chart drawn once at every size ``wanted`` names for it (pairs of claim
    index and :class:`ChartSize`, from every chosen format; the same pair twice is drawn once)."""
    import dataclasses

    sizes: dict[int, list[ChartSize]] = {}
    for index, size in wanted:
        if kit.claims[index].chart is not None and size not in sizes.setdefault(index, []):
            sizes[index].append(size)
    if not sizes:
        return kit
    claims = tuple(dataclasses.replace(claim, drawings=claim.drawings + tuple(
        (size, draw(claim, kit.lang, size, kit.brand)) for size in sizes.get(i, ()) if claim.drawn(size) is None))
        for i, claim in enumerate(kit.claims))
    return dataclasses.replace(kit, claims=claims)


def chart_frame(claim):
    """The claim's bars, best first, each labelled as the narrative labels it (``analysis.bar_labels``:
    chips, count and maker; a round or short name where two would read the same), cut to the
    columns a label takes; a bar without one (an older kit) by its system."""
    def label_of(row: dict) -> str:
        return short_label(str(row.get("label") or row["system"]), LABEL_COLUMNS)

    return claim_charts.frame(claim.chart, label_of)


def _options(claim, lang: str) -> dict:
    return {"data": chart_frame(claim), "title": claim.chart_title, "measure": claim.chart.measure,
            "xlabel": claim_charts.axis_title(claim.chart, lang)}


def claim_svg(claim, lang: str, height: float = 2.4) -> str:
    """The claim's chart as SVG at the report's chart width (6.3 in), ``height`` inches tall."""
    from mlperf_report.analysis import outputs

    return outputs.chart_svg(claim_charts.draw, lang=lang, height=height, **_options(claim, lang))


def claim_png(claim, lang: str, width: float, height: float, dpi: int = 200, fontsize: float = 11) -> bytes:
    """The claim's chart as PNG, ``width`` × ``height`` inches at ``dpi`` (2x screen resolution)."""
    import matplotlib.figure
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from mlperf_report.analysis import style

    with style.house_style(lang):
        fig = matplotlib.figure.Figure(figsize=(width, height), dpi=dpi)
        claim_charts.draw(ax=fig.subplots(), lang=lang, fontsize=fontsize, **_options(claim, lang))
        style.laid_out(fig, FigureCanvasAgg)  # laid out once, drawn once: the same pixels (a test compares)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


def rehearse() -> None:
    """One tiny chart drawn in the house style, for what the first one pays and every later one
    reuses (matplotlib's import, its font list, the CJK face registered: 0.7 s of CPU, once a build in
    the assembling processes' fork server rather than once in each of them)."""
    import matplotlib.figure

    from mlperf_report.analysis import style

    with style.house_style("en"):
        fig = matplotlib.figure.Figure(figsize=(1, 1), dpi=20)
        fig.subplots().barh([0], [1.0])
        fig.savefig(io.BytesIO(), format="png")
