"""matplotlib's SVG writer with every label placed where matplotlib laid it out, as text.

With labels as text (``svg.fonttype = "none"``), matplotlib writes a one-line label at its anchor
with ``text-anchor: middle`` or ``end`` and leaves the reader to measure it: a browser or the
printer then centres it by its own measurement, and WeasyPrint draws each such label in a PDF group
of its own (a Training v1.0 report twice the bytes). matplotlib has already measured and placed
every label: given no text object, its writer puts the label's start where that layout put it (as
it does for every line of a multi-line label, and as its glyph outlines were placed), which this
canvas does. Everything else is matplotlib's own ``print_svg``, through public classes only; a test
holds its output to ``savefig``'s but for the labels.
"""

from __future__ import annotations

import codecs

from matplotlib import cbook
from matplotlib.backends.backend_mixed import MixedModeRenderer
from matplotlib.backends.backend_svg import FigureCanvasSVG, RendererSVG


class _StartAnchored(RendererSVG):
    """Labels written at the start matplotlib laid them out from (``mtext`` withheld)."""

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        super().draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=None)


class Canvas(FigureCanvasSVG):
    """The SVG canvas of the house's charts: ``savefig(buffer, format="svg")`` writes through it
    once it is the figure's canvas."""

    def print_svg(self, filename, *, bbox_inches_restore=None, metadata=None, **_):
        """matplotlib's ``print_svg``, its renderer the start-anchored one."""
        with cbook.open_file_cm(filename, "w", encoding="utf-8") as out:
            if not cbook.file_requires_unicode(out):  # matplotlib measures the figure into bytes
                out = codecs.getwriter("utf-8")(out)
            dpi = self.figure.dpi
            self.figure.dpi = 72
            width, height = self.figure.get_size_inches()
            renderer = MixedModeRenderer(self.figure, width, height, dpi,
                                         _StartAnchored(width * 72, height * 72, out, image_dpi=dpi,
                                                        metadata=metadata),
                                         bbox_inches_restore=bbox_inches_restore)
            self.figure.draw(renderer)
            renderer.finalize()
