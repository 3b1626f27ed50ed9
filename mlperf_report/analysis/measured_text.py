"""Chart text measured once per kernel, not once per drawing.

matplotlib keeps the sizes of the labels it measured in a cache that belongs to one renderer, and
turning a chart into SVG makes two (the layout's and the SVG writer's): a build measured the same
382 labels 3,296 times with FreeType, looked up each label's font files again every time it laid a
label out (reading six rcParams and searching the font list), and shaped every label and loaded its
glyphs' outlines again for every chart that writes it. Together, a fifth of a chart's time.

While a chart is drawn and written (:func:`remembered`, around ``outputs.chart_svg``'s drawing and
``style.to_svg``), both are kept for the life of the kernel:

- every SVG renderer measures through the cache of one renderer kept for that purpose: the SVG
  writer measures a label from its text, font properties and the font settings alone (outlines of
  the same font files, unhinted), whichever renderer asks; one is kept per font, text and mathtext
  settings (rcParams) in force;
- the font files of a set of font properties are looked up once per those settings and font list;
- a label's glyphs (shaped by FreeType and raqm) and each glyph's outline are kept per font object
  (the one ``TextToPath`` sets to its own size every time), text and features.

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
_ACTIVE: list = []      # the settings of the block in force, if any
_LAID_OUT: dict = {}    # (font, text, features, language, size) -> the glyphs' names and positions
_OUTLINES: dict = {}    # a glyph's name -> its outline at TextToPath's size


@contextlib.contextmanager
def remembered() -> Iterator[None]:
    """For the ``with`` block: text measured and fonts found once per kernel (see the module)."""
    import matplotlib as mpl
    from matplotlib import font_manager
    from matplotlib import text as mpl_text

    from matplotlib import textpath

    if mpl.__version__ not in CHECKED or _ACTIVE:  # inside another block: its own settings hold
        yield
        return
    settings = _font_settings(mpl.rcParams, font_manager.fontManager)
    measure, find = mpl_text._get_text_metrics_with_cache, font_manager.fontManager._find_fonts_by_props
    outline = textpath.TextToPath.get_glyphs_with_font
    mpl_text._get_text_metrics_with_cache = _shared_metrics(measure, settings)
    font_manager.fontManager._find_fonts_by_props = _found_once(find, _FONT_FILES.setdefault(settings, {}))
    textpath.TextToPath.get_glyphs_with_font = _outlines_once
    _ACTIVE.append(settings)
    try:
        yield
    finally:
        _ACTIVE.pop()
        mpl_text._get_text_metrics_with_cache = measure
        del font_manager.fontManager._find_fonts_by_props  # the class's own method again
        textpath.TextToPath.get_glyphs_with_font = outline


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
        if type(drawing) is RendererSVG:
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


def _outlines_once(self, font, s, glyph_map=None, return_new_glyphs_only=False, *, features=None, language=None):
    """``TextToPath.get_glyphs_with_font`` (how the SVG writer turns a label into outlines) with each
    label's glyph layout and each glyph's outline kept: the font is the one ``TextToPath`` set to its
    own size, so both depend on nothing else. The same result, in the same order."""
    from collections import OrderedDict

    from matplotlib import _text_helpers

    key = (font, s, features, language, self.FONT_SCALE, self.DPI)
    if key not in _LAID_OUT:
        names, xs, ys = [], [], []
        for item in _text_helpers.layout(s, font, features=features, language=language):
            name = self._get_glyph_repr(item.ft_object, item.glyph_index)
            names.append(name)
            xs.append(item.x)
            ys.append(item.y)
            if name not in _OUTLINES:
                _OUTLINES[name] = item.ft_object.get_path()
        _LAID_OUT[key] = (names, xs, ys)
    names, xs, ys = _LAID_OUT[key]
    glyph_map = OrderedDict() if glyph_map is None else glyph_map
    new = OrderedDict() if return_new_glyphs_only else glyph_map
    for name in names:
        if name not in glyph_map:
            new[name] = _OUTLINES[name]
    return list(zip(names, xs, ys, [1.0] * len(xs))), new, []
