"""The house style of every chart: one palette, the focus submitter highlighted, pinned rcParams.

Pinning every rcParam (rather than trusting a user's matplotlibrc) and writing SVG with a fixed hash
salt and no date is what makes the same inputs give byte-identical charts. Labels are written as
text (``svg.fonttype = "none"``): drawing each glyph as an outline cost a fifth of a chart's writing,
and the report turned them back into text anyway; the assembler sets them in the fonts it embeds
(``assemble.svg_faces``). A missing glyph is an error, never a silent tofu box.
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
import warnings
from typing import Iterable, Iterator

from mlperf_report.analysis import brand_colours, paint

#: A4 text width (160 mm) and the row height of bar charts, in inches.
WIDTH = 6.3
ROW_HEIGHT = 0.24
DPI = 100

FOCUS_COLOR = "#d1495b"      # the submitter the report is about
BASELINE_COLOR = "#00798c"   # the comparison system
OTHER_COLOR = "#a9b1ba"      # everyone else, when only focus/baseline/other matters
#: Colours of other submitters when each gets its own (scaling, round over round): muted, colour-blind safe.
SUBMITTER_PALETTE = ("#30638e", "#edae49", "#66a182", "#8d6a9f", "#6c757d", "#c17c74", "#2e4057",
                     "#9dbbae", "#b5838d", "#457b9d", "#e9c46a", "#588157")

_SVG_SALT = "mlperf-report"
#: Every colour of the house's charts (``text_on`` keeps their labels' colours as they always were).
_HOUSE_COLOURS = frozenset(c.lower() for c in (FOCUS_COLOR, BASELINE_COLOR, OTHER_COLOR, *SUBMITTER_PALETTE))


@functools.cache
def seaborn_style() -> dict:
    """Seaborn's ``whitegrid`` style and ``paper`` context, read from a copy kept under the cache
    (named by seaborn's version) when there is one. Why: seaborn imports scipy.stats, 93 MB of every
    process that draws, and the press kit's processes draw with matplotlib alone; the notebooks,
    which plot with seaborn, write the copy the first time."""
    import json
    from importlib import metadata

    from mlperf_report.core import paths

    copy = paths.CACHE / "style" / f"seaborn-{metadata.version('seaborn')}.json"
    try:
        return json.loads(copy.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    import seaborn as sns

    from mlperf_report.core.atomic import write_text

    style = {**sns.axes_style("whitegrid"), **sns.plotting_context("paper", font_scale=1.0)}
    with contextlib.suppress(OSError):  # a read-only cache: the next process asks seaborn again
        write_text(copy, json.dumps(style, sort_keys=True))
    return style


def rc_params() -> dict:
    """Every rcParam a chart depends on, from matplotlib's defaults plus seaborn's whitegrid/paper."""
    import matplotlib as mpl

    rc = {k: v for k, v in mpl.rcParamsDefault.items() if k not in {"backend", "interactive"}}
    rc.update(seaborn_style())
    rc.update({
        "font.family": ["DejaVu Sans"],
        "figure.dpi": DPI,
        "savefig.dpi": DPI,
        "figure.figsize": (WIDTH, 3.6),
        "figure.constrained_layout.use": True,
        "savefig.bbox": None,
        "svg.fonttype": "none",
        "text.parse_math": False,  # submitters' names are text: "$x$" is drawn as written, never as math
        "svg.hashsalt": _SVG_SALT,
        "svg.image_inline": True,
        "path.simplify": True,
        "axes.titlesize": 10,
        "axes.titleweight": "bold",
        # Titles sit at the top of the axes. Left at None, matplotlib looks at every tick label of the
        # figure to lift the title over labels on top. No chart puts labels there, so that search
        # only cost time: 19 % of a chart's drawing, for the same bytes.
        "axes.titley": 1.0,
        "axes.labelsize": 9,
        "xtick.labelsize": 8,
        "ytick.labelsize": 8,
        "legend.fontsize": 8,
        "legend.frameon": False,
        "axes.prop_cycle": mpl.cycler(color=list(SUBMITTER_PALETTE)),
        # seaborn's "rocket" exists only where seaborn was imported; no chart maps values to colours
        "image.cmap": "viridis",
    })
    return rc


def chart_language(lang: str) -> str:
    """``lang`` if its labels can be drawn; Chinese without a CJK font falls back to English, loudly."""
    if lang == "en":
        return lang
    from mlperf_report.i18n import fonts

    if fonts.cjk_font_path() is None:
        warnings.warn(f"no CJK font installed: charts for {lang!r} use English labels "
                      "(run `make venv` to install noto-cjk-sans-otc)", stacklevel=2)
        return "en"
    return lang


@contextlib.contextmanager
def house_style(lang: str = "en") -> Iterator[None]:
    """Draw inside this: pinned rcParams, the CJK font for Chinese, missing glyphs as errors."""
    import logging

    import matplotlib as mpl

    # Noto Sans CJK ships one weight: bold titles use it as is, which is fine and needs no log line.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    with mpl.rc_context(rc_params()), warnings.catch_warnings():
        from mlperf_report.i18n import fonts

        # the CJK fallback in every language: English charts show Chinese submitters' names too
        if fonts.register_matplotlib_cjk() is None and lang != "en":
            raise RuntimeError(f"no CJK font for {lang!r} labels; run `make venv` (noto-cjk-sans-otc)")
        if _brand_font:  # style.branded: the brand's face first, the house's after it
            mpl.rcParams["font.family"] = [_brand_font, *mpl.rcParams["font.family"]]
        warnings.filterwarnings("error", message=r"Glyph .* missing from")
        # seaborn 0.13.2's boxplot still passes ``vert`` to matplotlib 3.11: its problem, not the reader's
        warnings.filterwarnings("ignore", message=r"vert: bool was deprecated")
        yield


_brand_font: str | None = None  # a brand's typeface while ``branded`` is in effect


@contextlib.contextmanager
def branded(colour: str | None = None, font: str | None = None) -> Iterator[None]:
    """A brand's primary ``colour`` as the focus's (the press kit's charts, drawn in the assembling
    process) and its typeface ``font`` first in every ``house_style`` entered within it, the house
    fonts after it for every glyph it lacks (a Latin-only brand face never leaves Chinese as boxes).
    The others' and the baseline's colours too alike to ``colour`` are replaced (``brand_colours``).
    Only ``house_style`` sets the face: every chart is drawn inside one."""
    global FOCUS_COLOR, _brand_font, OTHER_COLOR, BASELINE_COLOR
    saved = FOCUS_COLOR, _brand_font, OTHER_COLOR, BASELINE_COLOR
    FOCUS_COLOR, _brand_font = colour or saved[0], font or saved[1]
    if colour:  # the others' grey and the baseline's teal, where too alike to the brand's
        moved = brand_colours.stepped_away(colour, (OTHER_COLOR, BASELINE_COLOR), _HOUSE_COLOURS, _RESERVE, text_on)
        OTHER_COLOR, BASELINE_COLOR = moved.get(OTHER_COLOR, OTHER_COLOR), moved.get(BASELINE_COLOR, BASELINE_COLOR)
    try:  # the face is set by ``house_style`` alone: its pinned rcParams would replace any set here
        yield
    finally:
        FOCUS_COLOR, _brand_font, OTHER_COLOR, BASELINE_COLOR = saved


#: The two colours a label on a bar is written in (``text_on``).
LIGHT_TEXT, DARK_TEXT = "white", "black"


def luminance(colour) -> float:
    """WCAG 2's relative luminance of ``colour`` (any matplotlib colour): 0 for black, 1 for white."""
    import matplotlib.colors as mcolors

    from mlperf_report.core import contrast as wcag

    return wcag.luminance(mcolors.to_rgb(colour))


def contrast(a, b) -> float:
    """WCAG 2's contrast ratio of two colours (any matplotlib colours), from 1 (the same) to 21."""
    import matplotlib.colors as mcolors

    from mlperf_report.core import contrast as wcag

    return wcag.ratio(mcolors.to_rgb(a), mcolors.to_rgb(b))


#: The house colours a label on a bar is written white on (the focus's and the baseline's); on the
#: house's other colours it is black, as it always was.
HOUSE_WHITE_TEXT = frozenset({"#d1495b", "#00798c"})
#: WCAG 2's contrast for large text, which a figure printed large is (``figure_colour``).
READABLE = 3.0


def text_on(colour) -> str:
    """The colour of text written on a bar of ``colour``: the house's choice on a house colour (white
    on the focus's and the baseline's, black on the others), and on any other colour (a brand's) white
    or black, whichever contrasts more with it (WCAG), so a brand's light primary gets dark text."""
    import matplotlib.colors as mcolors

    hexed = mcolors.to_hex(colour).lower()
    painted_later = paint.text_placeholder(hexed)  # a placeholder's bar: its text is painted with it
    if painted_later:
        return painted_later
    if hexed in HOUSE_WHITE_TEXT:
        return LIGHT_TEXT
    if hexed in _HOUSE_COLOURS:
        return DARK_TEXT
    return LIGHT_TEXT if contrast(LIGHT_TEXT, hexed) > contrast(DARK_TEXT, hexed) else DARK_TEXT


#: The colour of text on the focus's bars in a chart drawn before the brand is known: white to the
#: eye (the house's choice on its focus colour), told apart so that :func:`recolour` gives it the
#: colour of text on the brand's primary instead (black on a light one).
FOCUS_TEXT = "#fffffe"


def text_on_painted(colour) -> str:
    """The colour of text on a bar painted ``colour`` (``paint.repaint``): :func:`text_on`, but on
    the house focus colour :data:`FOCUS_TEXT`, which a brand's recolouring turns with the bar."""
    import matplotlib.colors as mcolors

    return FOCUS_TEXT if mcolors.to_hex(colour).lower() == _HOUSE_FOCUS else text_on(colour)


#: The colour of the focus's own figure printed large in a chart drawn before the brand is known
#: (the brief's SVG): the house focus colour to the eye, told apart so that :func:`recolour` gives it
#: the brand's primary where that reads on white, else :data:`INK`.
FOCUS_FIGURE = "#d1495c"
#: The colour of a figure printed large that is not the focus's own (``figure_colour``).
INK = "#1f2933"


def figure_colour(mine: bool, ink: str = INK) -> str:
    """A figure printed large on white: in the focus colour for the focus's own where it reads on
    white (WCAG's 3:1 for large text; a brand's light primary does not), else in ``ink``. Drawn in
    the house colours (a chart a brand recolours later), the focus's own is :data:`FOCUS_FIGURE`."""
    if not mine:
        return ink
    if ink == INK and FOCUS_COLOR == _HOUSE_FOCUS:
        return FOCUS_FIGURE
    return _large_on_white(FOCUS_COLOR, ink)


def _large_on_white(colour: str, ink: str = INK) -> str:
    """``colour`` for a figure printed large on white where it reads there (:data:`READABLE`), else ``ink``."""
    return colour if contrast(colour, "white") >= READABLE else ink


_HOUSE_FOCUS = FOCUS_COLOR  # the house's, whatever ``branded`` makes FOCUS_COLOR for a while
#: The colours :func:`recolour` changes, or a label (a ``<text>``'s content, a comment), left as it is.
_FOCUS_IN_SVG = re.compile(paint.LABEL + "|" + "|".join((_HOUSE_FOCUS, FOCUS_TEXT, FOCUS_FIGURE)),
                           re.DOTALL | re.IGNORECASE)
_LABEL_IN_SVG = re.compile(paint.LABEL, re.DOTALL)
_COLOUR_IN_SVG = re.compile(r"#[0-9a-fA-F]{6}\b")
#: What a house colour too alike to a brand's primary may become (``brand_colours``).
_RESERVE = (*SUBMITTER_PALETTE, *brand_colours.EXTRA)


def recolour(svg: str, colour: str | None) -> str:
    """A chart drawn in the house focus colour with ``colour`` (a brand's primary) in its place, the
    text on its bars (:data:`FOCUS_TEXT`) in the colour of text on ``colour`` and the focus's figure
    printed large (:data:`FOCUS_FIGURE`) in ``colour`` where it reads on white, else in :data:`INK`: the notebooks'
    charts and the memo's stay brand-free, the brand is applied where the report is assembled.
    House colours of other series too alike to ``colour`` are replaced (``brand_colours``).
    Labels' text (a ``<text>``'s content, a comment) is left as it is."""
    import matplotlib.colors as mcolors

    if not colour or colour.lower() == _HOUSE_FOCUS:
        return svg
    final = {_HOUSE_FOCUS: colour.lower(), FOCUS_TEXT: mcolors.to_hex(text_on(colour)).lower(),
             FOCUS_FIGURE: _large_on_white(colour.lower())}
    drawn = {c.lower() for c in _COLOUR_IN_SVG.findall(_LABEL_IN_SVG.sub("", svg))} & _HOUSE_COLOURS
    moved = brand_colours.stepped_away(colour, drawn - {_HOUSE_FOCUS}, _HOUSE_COLOURS, _RESERVE, text_on)
    pattern = _FOCUS_IN_SVG if not moved else re.compile(
        _FOCUS_IN_SVG.pattern + "".join(f"|{c}" for c in moved), re.DOTALL | re.IGNORECASE)
    final.update(moved)  # house colours too alike to the brand's (``brand_colours``)
    return pattern.sub(lambda m: m.group(0) if m.group(0)[0] in "<>" else final[m.group(0).lower()], svg)


def figure(rows: int | None = None, *, height: float | None = None):
    """A new figure at A4 text width; bar charts pass their ``rows`` to get room for every label."""
    import matplotlib.figure

    if height is None:
        height = 3.6 if rows is None else max(2.0, 0.9 + ROW_HEIGHT * rows)
    return matplotlib.figure.Figure(figsize=(WIDTH, height), dpi=DPI)


def to_svg(fig) -> str:
    """The figure as SVG text, identical for identical content (no date, fixed ids).

    The layout runs here rather than inside ``savefig``: with a layout engine, ``savefig`` first
    walks the whole figure once without drawing only to run the layout, then draws it. Running the
    layout as that walk does (an SVG canvas measuring the text, the figure at the 72 dpi SVG is
    measured at) and saving with no engine gives the same bytes for one walk fewer. A chart of one
    plot is laid out by ``layout`` (its decorations measured once), any other by constrained layout.
    Labels are text placed where matplotlib laid them out (``svg_canvas``), not left to the reader to align."""
    from mlperf_report.analysis import measured_text, svg_canvas

    with measured_text.remembered():  # each label measured once per kernel, not once per renderer
        laid_out(fig, svg_canvas.Canvas, measured_at=72, one_pass=True)
        if not isinstance(fig.canvas, svg_canvas.Canvas):  # no layout engine: laid_out set none
            svg_canvas.Canvas(fig)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def laid_out(fig, canvas, *, measured_at: float | None = None, one_pass: bool = False) -> None:
    """``fig``'s layout run now, on a ``canvas`` (class) of the kind it is saved with, and its engine
    removed: ``savefig`` with an engine walks the whole figure once without drawing, to run it, then
    runs it again as it draws; this way it runs once and the figure is drawn once, the same bytes.
    ``measured_at``: the dpi the saving format measures text at (SVG: 72); ``one_pass``: a chart of
    one plot laid out by ``layout`` (its decorations measured once), any other by its engine."""
    import matplotlib as mpl

    from mlperf_report.analysis import layout

    engine = fig.get_layout_engine()
    if engine is None:
        return
    canvas(fig)  # the figure's canvas from now on: text measured as the writer does
    dpi = fig.dpi
    if measured_at is not None:
        fig.dpi = measured_at
    if not (one_pass and layout.lay_out(fig)):
        engine.execute(fig)
    fig.dpi = dpi
    # no engine at all ("none" leaves a placeholder, for which savefig still walks the figure)
    with mpl.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
        fig.set_layout_engine(None)


def name_order(name: str) -> tuple[str, str]:
    """Sort key of names shown to a reader: alphabetical ignoring case, and a total order, so
    ``Supermicro`` and ``SUPERMICRO`` (two rounds' spellings) always come in the same order whatever
    order a set gives them in (it changes with each process's string hashing)."""
    return (name.lower(), name)


def submitter_palette(submitters: Iterable[str], *, focus: str | None) -> dict[str, str]:
    """Stable colour per submitter (alphabetical order), the focus submitter in the focus colour."""
    palette, i = {}, 0
    for name in sorted(set(submitters), key=name_order):
        if focus is not None and name.lower() == focus.lower():
            palette[name] = FOCUS_COLOR
        else:
            palette[name] = SUBMITTER_PALETTE[i % len(SUBMITTER_PALETTE)]
            i += 1
    return palette


def wrap_title(text: str, width: int = 60) -> str:
    """A chart title in lines of at most ``width`` columns (a CJK character takes two), broken at
    spaces in Latin text and between characters in Chinese, so a long model name is not cut off."""
    import textwrap
    import unicodedata

    def columns(part: str) -> int:
        return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in part)

    if columns(text) <= width:
        return text
    if columns(text) == len(text):
        return textwrap.fill(text, width)
    lines, line = [], ""
    for ch in text:
        if columns(line + ch) > width:
            lines.append(line.rstrip())
            line = ch.lstrip()
        else:
            line += ch
    return "\n".join([*lines, line])
