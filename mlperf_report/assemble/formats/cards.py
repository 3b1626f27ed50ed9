"""Chart cards (``cards/NN-<angle>-<benchmark>.<lang>.png`` and an ``.svg`` twin), for the press and
social team: one per lead claim that cites a result (``Kit.cited``), exactly 1200 × 675 pixels (the size social sites show), the claim
in large type, its chart, and the citation (the round's results at MLCommons, the results by MLCommons
result ID where known, else by path, and
MLCommons' notice where a figure is derived) printed on the image; in the SVG every text is text, so
the citation can be read and searched, and its ``<desc>`` names each bar's system (the bars are
labelled by chips, count and maker: ``analysis.bar_labels``).

A card is one matplotlib figure (100 dpi, so one point is 100/72 pixels): texts set by ``text_fit``
in boxes of their own, the chart in an axes between them, so nothing leaves the image whatever the
claim's length. A brand's faces set the headline (headings) and the citation and chart title (base),
the house faces after them for every glyph they lack (Chinese in the CJK face), measured the same way.
"""

from __future__ import annotations

import io
import re

from mlperf_report.analysis import bar_labels
from mlperf_report.assemble import kit_charts, text_fit
from mlperf_report.assemble.formats.slides import faces, footer
from mlperf_report.i18n.labels import label

name = "cards"
per_language = True
label_key = "kit.cards"  # what the contents, the index page and mail call it
mime = {".png": "image/png", ".svg": "image/svg+xml"}

SIZE = (1200, 675)   # pixels
DPI = 100
_PT = DPI / 72       # pixels per point
_PAD = 48            # pixels


def card_name(index: int, claim, lang: str, ext: str) -> str:
    """``cards/01-leadership-first-overall-rgat.en.png``: the same stem in every language."""
    parts = [claim.angle or "claim", claim.kind or "", claim.chart.benchmark if claim.chart else ""]
    slug = re.sub(r"[^a-z0-9]+", "-", "-".join(p for p in parts if p).lower()).strip("-") or "claim"
    return f"cards/{index:02d}-{slug}.{lang}.{ext}"


def files(kit) -> tuple[str, ...]:
    return tuple(card_name(i, c, kit.lang, ext) for i, c in enumerate(kit.cited, start=1) for ext in ("png", "svg"))


def companion(kit):
    return ("cards/", label("kit.cards", kit.lang)) if kit.cited else None


def make(report) -> dict[str, bytes]:
    """Each card is one figure, the chart composed into it (its axes sized to the labels, every text
    text in the SVG): drawn once per claim here, at the card's own size."""
    kit = report.kit
    out = {}
    for index, claim in enumerate(kit.cited, start=1):
        png, svg = card(claim, kit)
        out[card_name(index, claim, kit.lang, "png")] = png
        out[card_name(index, claim, kit.lang, "svg")] = svg
    return out


def citation(claim, kit) -> str:
    """What the card prints under its chart: MLCommons' notice first (a long list of results is what
    gets cut, never the notice), then the source and the results."""
    notice = label("kit.derived", kit.lang) + "\n" if claim.derived else ""
    shown = 2 if all(len(c) <= 72 for c in (claim.citations or claim.cites)[:2]) else 1  # Inference's paths run long
    return notice + footer(claim, kit, shown=shown, more="kit.more_ids_report")


def card(claim, kit) -> tuple[bytes, bytes]:
    """The card's PNG and SVG."""
    import matplotlib as mpl
    import matplotlib.figure

    from mlperf_report.analysis import claim_charts, style

    width, height = SIZE
    box = width - 2 * _PAD
    with style.branded(kit.brand.primary, kit.brand.base_font), style.house_style(kit.lang), \
            mpl.rc_context({"svg.fonttype": "none", "figure.constrained_layout.use": False}):
        fig = matplotlib.figure.Figure(figsize=(width / DPI, height / DPI), dpi=DPI, layout="none")
        base, heading = faces(kit.brand)
        used = _place(fig, claim.text, y=_PAD, box=(box, 190), largest=30, smallest=16, lang=kit.lang, bold=True,
                      font=heading)
        cited = height - _PAD - 66
        _place(fig, citation(claim, kit), y=cited, box=(box - _logo(fig, kit.brand, cited), 66), largest=13,
               smallest=10, lang=kit.lang, colour="#5b6573", font=base)
        if claim.chart is not None:  # its title under the claim; below it, room for ticks and the axis title
            title_top = _PAD + used + 12
            titled = _place(fig, claim.chart_title, y=title_top, box=(box, 24), largest=14, smallest=10,
                            lang=kit.lang, bold=True, font=base)
            bottom, chart_top = cited - 58, title_top + titled + 8
            data = kit_charts.chart_frame(claim)
            grid = claim.chart.measure == "debut"  # a debut's cells take the card's width and the axis's room
            left, bottom = (_PAD / width, cited - 12) if grid else (_label_room(data["_label"], width), bottom)
            ax = fig.add_axes((left, 1 - bottom / height, 1 - _PAD / width - left if grid else 0.94 - left,
                               (bottom - chart_top) / height))
            claim_charts.draw(data, measure=claim.chart.measure,
                              xlabel=claim_charts.axis_title(claim.chart, kit.lang), fontsize=13, lang=kit.lang, ax=ax)
        png, svg = io.BytesIO(), io.StringIO()
        fig.savefig(png, format="png", dpi=DPI, metadata={"Software": None})
        fig.savefig(svg, format="svg", metadata={"Date": None})
    return png.getvalue(), described(svg.getvalue(), claim.text, bar_labels.notes_line(claim.chart, kit.lang))


def described(svg: str, title: str, desc: str) -> bytes:
    """The SVG with its ``<title>`` (the claim) and ``<desc>`` (each bar and the system it stands for)
    first in its root element, where screen readers and search find them."""
    from xml.sax.saxutils import escape

    extra = f"<title>{escape(title)}</title>" + (f"<desc>{escape(desc)}</desc>" if desc else "")
    start = svg.index("<svg")
    end = svg.index(">", start) + 1
    return (svg[:end] + "\n " + extra + svg[end:]).encode("utf-8")


def _label_room(labels, width: int) -> float:
    """Where the chart's axes start, as a share of the card's width: after the longest bar label at
    13 pt (about 10 pixels a column), between a fifth and a half of the card."""
    from mlperf_report.analysis.label_text import columns

    longest = max((columns(str(text)) for text in labels), default=0)
    return min(max((_PAD + 10 * longest + 16) / width, 0.2), 0.5)


def _logo(fig, brand, top: float, height: float = 66) -> float:
    """The brand's logo in the card's lower right corner, beside the citation (``top`` pixels from
    the card's top); the width it takes from the citation's box, in pixels (0: no logo)."""
    from mlperf_report.assemble import brand_art

    picture = brand_art.logo_png(brand)
    if picture is None:
        return 0.0
    import matplotlib.image

    width = min(height * brand_art.aspect(picture), 240.0)
    card_w, card_h = fig.get_size_inches() * DPI
    ax = fig.add_axes(((card_w - _PAD - width) / card_w, 1 - (top + height) / card_h, width / card_w, height / card_h))
    ax.imshow(matplotlib.image.imread(io.BytesIO(picture)), aspect="auto", interpolation="antialiased")
    ax.set_axis_off()
    ax.set_gid("brand-logo")
    return width + 24


def _place(fig, text: str, *, y: float, box: tuple[float, float], largest: float, smallest: float, lang: str,
           bold: bool = False, colour: str = "#1f2933", font: str | None = None) -> float:
    """``text`` fitted into ``box`` (pixels) with its top ``y`` pixels from the card's top; returns
    the height it takes, in pixels. ``font``: a brand's face, the house faces after it (matplotlib
    takes each glyph from the first that has it, as ``text_fit`` measures)."""
    from mlperf_report.i18n import fonts

    fitted = text_fit.fit(text, box[0] / _PT, box[1] / _PT, largest=largest, smallest=smallest, lang=lang, bold=bold,
                          latin=font)
    width, height = fig.get_size_inches() * DPI
    fig.text(_PAD / width, 1 - y / height, fitted.text, va="top", ha="left", fontsize=fitted.size,
             fontweight="bold" if bold else "normal", color=colour, linespacing=text_fit.LINE_SPACING,
             fontfamily=[font, fonts.CJK_FAMILY, "DejaVu Sans"] if font else text_fit.family(text, lang))
    return len(fitted.lines) * fitted.size * text_fit.LINE_SPACING * _PT
