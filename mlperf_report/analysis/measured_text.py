"""Chart text measured once per kernel, not once per drawing.

matplotlib keeps the sizes of the labels it measured in a cache that belongs to one renderer, and
turning a chart into SVG makes two (the layout's and the SVG writer's): a build measured the same
382 labels 3,296 times with FreeType, looked up each label's font files again every time it laid a
label out (reading six rcParams and searching the font list). Together, a fifth of a chart's time
(when labels were glyph outlines, shaping them was a third stand-in here; written as text since,
they are no longer shaped by the writer).

While a chart is drawn and written (:func:`remembered`, around ``outputs.chart_svg``'s drawing and
``style.to_svg``), both are kept for the life of the kernel:

- every SVG renderer measures through the cache of one renderer kept for that purpose: the SVG
  writer measures a label from its text, font properties and the font settings alone (outlines of
  the same font files, unhinted), whichever renderer asks; one is kept per font, text and mathtext
  settings (rcParams) in force;
- the font files of a set of font properties are looked up once per those settings and font list;
- the font tables a label's line height is read from (``OS/2``, ``hhea``, ``head``: matplotlib reads
  them afresh, as new dictionaries, each time it lays out a label, half of that layout's time) are
  read once per set of font files.

The SVG is the same bytes (a test makes charts both ways). It stands in for three matplotlib functions
while a chart is written, and only on the matplotlib versions it was checked against
(:data:`CHECKED`); on any other it does nothing and charts are only slower.
"""

from __future__ import annotations

import contextlib
from typing import Iterator

#: matplotlib versions whose text layout this was checked against (same SVG bytes, see the tests).
CHECKED = ("3.11.2",)

_RENDERERS: dict = {}   # font settings -> the SVG renderer whose metrics cache every chart shares
_FONT_FILES: dict = {}  # font settings -> {font properties: font files}
_FONT_TABLES: dict = {}  # font files -> their tables as text layout reads them (``_TablesOnce``)
_ACTIVE: list = []      # the settings of the block in force, if any


@contextlib.contextmanager
def remembered() -> Iterator[None]:
    """For the ``with`` block: text measured and fonts found once per kernel (see the module)."""
    import matplotlib as mpl
    from matplotlib import font_manager
    from matplotlib import text as mpl_text

    if mpl.__version__ not in CHECKED or _ACTIVE:  # inside another block: its own settings hold
        yield
        return
    settings = _font_settings(mpl.rcParams, font_manager.fontManager)
    measure, find = mpl_text._get_text_metrics_with_cache, font_manager.fontManager._find_fonts_by_props
    open_font = mpl_text.get_font
    mpl_text._get_text_metrics_with_cache = _shared_metrics(measure, settings)
    font_manager.fontManager._find_fonts_by_props = _found_once(find, _FONT_FILES.setdefault(settings, {}))
    mpl_text.get_font = _tables_once(open_font)
    _ACTIVE.append(settings)
    try:
        yield
    finally:
        _ACTIVE.pop()
        mpl_text._get_text_metrics_with_cache = measure
        mpl_text.get_font = open_font
        del font_manager.fontManager._find_fonts_by_props  # the class's own method again


def _font_settings(rc, manager) -> tuple:
    """What a label's size and fonts depend on beyond its text and font properties: the font, text
    and mathtext settings, and the font list (a font added later is a new list)."""
    keys = sorted(key for key in rc if key.split(".")[0] in ("font", "text", "mathtext"))
    values = tuple((key, repr(rc._get(key))) for key in keys)  # _get: no deprecation warning per chart
    return values, id(manager), len(manager.ttflist)


def _shared_metrics(measure, settings):
    from matplotlib.backends.backend_svg import RendererSVG

    def shared(renderer, text, fontprop, ismath, dpi):
        drawing = getattr(renderer, "_renderer", renderer)  # savefig's MixedModeRenderer wraps the SVG one
        if isinstance(drawing, RendererSVG):  # the house's writer (``svg_canvas``) is one too
            renderer = _RENDERERS.setdefault(settings, drawing)
        return measure(renderer, text, fontprop, ismath, dpi)

    return shared


def _found_once(find, found: dict):
    from matplotlib.font_manager import FontProperties

    def once(prop, fontext="ttf", directory=None, fallback_to_default=True, rebuild_if_missing=True):
        prop = FontProperties._from_any(prop)
        key = (prop.copy(), fontext, directory, fallback_to_default, rebuild_if_missing)  # a copy: props are mutable
        if key not in found:
            found[key] = find(prop, fontext, directory, fallback_to_default, rebuild_if_missing)
        return found[key]

    return once



class _TablesOnce:
    """A font as text layout uses it (``matplotlib.text`` only reads its tables): each table read
    from the font once. The tables are matplotlib's own dictionaries, read, never changed."""

    def __init__(self, font):
        self._font, self._tables = font, {}

    def get_sfnt_table(self, name):
        if name not in self._tables:
            self._tables[name] = self._font.get_sfnt_table(name)
        return self._tables[name]


def _tables_once(open_font):
    def font(font_filepaths, **options):
        files = tuple(font_filepaths) if isinstance(font_filepaths, (list, tuple)) else (font_filepaths,)
        if files not in _FONT_TABLES:  # a font's tables depend on its files alone (not on hinting)
            _FONT_TABLES[files] = _TablesOnce(open_font(font_filepaths, **options))
        return _FONT_TABLES[files]

    return font
