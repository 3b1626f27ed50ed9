"""Printed tables with their columns' widths worked out here, so WeasyPrint lays them out with
``table-layout: fixed`` and skips measuring every cell's min- and max-content widths (a third of
printing the exhibits, every benchmark's full results table).

Each column gets the width WeasyPrint's automatic layout gives a 100%-wide table (CSS 2.1, as
``weasyprint/layout/table.py: auto_table_layout`` does it): every column its max-content width and
the room left shared in proportion to those when all fit; else each column its min-content width
and the room left shared in proportion to what each lacks of its max-content width. The widths come
from ``cell_text`` (the faces the page embeds); they are written as ``<col style="width: N%">``.
A table this cannot measure (markup other than text and ``.nobr`` spans, a character in no face)
stays automatic. The page's geometry
below mirrors ``templates/print.css``; ``tests/assemble/test_fixed_tables.py`` checks it against
WeasyPrint.
"""

from __future__ import annotations

import re

from mlperf_report.assemble.cell_text import Fonts, face_advances, pieces
from mlperf_report.assemble.page import FontFace, face_family
from mlperf_report.assemble.sections import Section
from mlperf_report.core.brand import NO_BRAND, Brand
from mlperf_report.i18n.fonts import EMBEDDED_CJK_FAMILY

PX_PER_MM = 96 / 25.4
#: The printed table's width: A4 (210 mm) less the page's side margins (``@page { margin: 22mm 17mm }``).
TABLE_WIDTH = (210 - 2 * 17) * PX_PER_MM
#: ``th, td { padding: 1mm 1.4mm }``: a cell's left and right padding.
PADDING = 2 * 1.4 * PX_PER_MM
#: ``table { font-size: 8pt }`` in px.
FONT_SIZE = 8 * 96 / 72

_TABLE = re.compile(r'<table class="mlperf-table">(\s*<thead><tr>(.*?)</tr></thead>\s*<tbody>(.*?)</tbody>\s*)</table>',
                    re.DOTALL)
_ROW = re.compile(r"\s*<tr>(.*?)</tr>\s*", re.DOTALL)
_CELL = re.compile(r"<(th|td)>(.*?)</\1>", re.DOTALL)


def fixed_sections(sections: list[Section], faces: tuple[FontFace, ...], brand: Brand = NO_BRAND) -> list[Section]:
    """The printed sections with their results tables' columns fixed (:func:`with_fixed_columns`), in
    the faces they print in: a brand's base face before the house CJK face, but the appendix's tables
    keep the house face (``page.brand_style``)."""
    house = printed_fonts(faces)
    own = printed_fonts(faces, face_family(brand.base_font)) if brand.base_font else house
    fixed = []
    for section in sections:
        fonts = house if section.kind == "appendix" else own
        html = with_fixed_columns(section.html, fonts) if fonts else section.html
        fixed.append(Section(section.id, section.title, html, section.kind))
    return fixed


def printed_fonts(faces: tuple[FontFace, ...], family: str = "") -> Fonts | None:
    """The embedded faces text prints in: ``family``'s (a brand's base face) when given, then the
    house CJK face; None when one is not embedded (the system's face would print: unknown here)."""
    files = {(face.family, face.weight): face.data for face in faces}
    families = [family, EMBEDDED_CJK_FAMILY] if family else [EMBEDDED_CJK_FAMILY]
    if any((name, 400) not in files for name in families):
        return None
    return fonts_of(tuple(files[name, 400] for name in families), tuple(files.get((name, 700)) for name in families))


def fonts_of(regular: tuple[bytes, ...], bold: tuple[bytes | None, ...]) -> Fonts:
    """The faces text prints in, first choice first: each regular face's file and its bold's (None:
    no bold file of its own, emboldened by Pango with the regular advances)."""
    return Fonts(tuple(face_advances(data) for data in regular),
                 tuple(face_advances(b or r) for r, b in zip(regular, bold)))


def with_fixed_columns(html: str, fonts: Fonts) -> str:
    """``html`` with each results table it can measure given its columns' widths and a fixed layout."""
    def fixed(table: re.Match) -> str:
        widths = column_widths(table.group(2), table.group(3), fonts)
        if widths is None:
            return table.group(0)
        cols = "".join(f'<col style="width: {w / TABLE_WIDTH * 100:.4f}%">' for w in widths)
        return (f'<table class="mlperf-table" style="table-layout: fixed"><colgroup>{cols}</colgroup>'
                f"{table.group(1)}</table>")

    return _TABLE.sub(fixed, html)


def column_widths(head: str, body: str, fonts: Fonts) -> list[float] | None:
    """Each column's width (px) as the automatic layout gives it, or None when one cannot be measured."""
    body_rows = _rows(body)
    if body_rows is None:
        return None
    rows = [head, *body_rows]
    mins, maxs = None, None
    for row_index, row in enumerate(rows):
        cells = _CELL.findall(row)
        if "".join(f"<{t}>{c}</{t}>" for t, c in cells) != row.strip() or (mins and len(cells) != len(mins)):
            return None
        if mins is None:
            mins, maxs = [0.0] * len(cells), [0.0] * len(cells)
        for column, (tag, content) in enumerate(cells):
            measured = _cell_widths(content, tag == "th", column == 0, fonts)
            if measured is None:
                return None
            mins[column], maxs[column] = max(mins[column], measured[0]), max(maxs[column], measured[1])
    return distribute(mins, maxs, TABLE_WIDTH) if mins else None


def _rows(body: str) -> list[str] | None:
    rows, at = [], 0
    for row in _ROW.finditer(body):
        if row.start() != at:
            return None
        rows.append(row.group(1))
        at = row.end()
    return rows if at == len(body) else None


def _cell_widths(content: str, bold: bool, nowrap: bool, fonts: Fonts) -> tuple[float, float] | None:
    found = pieces(content, nowrap)
    if found is None:
        return None
    line, parts = found
    widths = [fonts.width(text, bold, FONT_SIZE) for text in (line, *parts)]
    if any(w is None for w in widths):
        return None
    return max(widths[1:], default=0.0) + PADDING, widths[0] + PADDING


def distribute(mins: list[float], maxs: list[float], width: float) -> list[float] | None:
    """Columns' widths for a table ``width`` wide, as CSS 2.1's automatic layout shares it (no
    column with a width of its own, no percentages). A table too wide for ``width`` even at its
    min-content widths gets them, and WeasyPrint widens it past the page as its automatic layout does."""
    if sum(maxs) <= width:
        if sum(maxs) == 0:
            return [width / len(maxs)] * len(maxs)
        return [m + (width - sum(maxs)) * m / sum(maxs) for m in maxs]
    if sum(mins) >= width:
        return list(mins)
    ratio = (width - sum(mins)) / sum(b - a for a, b in zip(mins, maxs))
    return [a + (b - a) * ratio for a, b in zip(mins, maxs)]
