"""The results workbook (``results.xlsx``) beside a report: every result of the round, one sheet per
benchmark, for the analysts who sort, filter and chart the numbers themselves.

The suite gives the sheets (``Suite.workbook``: frames with a boolean ``Focus`` column first); this
module only writes them: the header row frozen and filtered, numbers stored as numbers (a minute
count is a float, an accelerator count an integer, never text), the focus's rows marked in the
``Focus`` column and shaded. The same frames give the same bytes: the workbook's own dates and its
zip members' times are fixed (``fixed_zip``: openpyxl stamps both with the current time).

A brand (``WorkbookBrand``) sets the shade, the typefaces (the headings face on the header row, the
base face as the workbook's default font, which every other cell uses) and puts its logo beside each
sheet's header, over no cell that holds data. Without one the workbook is today's, byte for byte.
"""

from __future__ import annotations

import datetime as dt
import io
import math
import re

from dataclasses import dataclass

from mlperf_report.assemble.fixed_zip import fixed_times

#: The shade of the focus's rows (the report's focus colour, lightened) and of the header.
FOCUS_FILL = "F6D5DA"
HEADER_FILL = "E4E8EC"
_FIXED = dt.datetime(2000, 1, 1)
_WIDEST = 60  # characters: a column is as wide as its longest cell up to this
_SHEET_NAME = re.compile(r"[\[\]:*?/\\]")


def sheet_name(name: str, taken: set[str]) -> str:
    """``name`` as Excel allows a sheet's name (31 characters, none of ``[]:*?/\\``), unique."""
    base = _SHEET_NAME.sub("_", name)[:31] or "results"
    candidate, n = base, 2
    while candidate.lower() in taken:
        suffix = f" ({n})"
        candidate, n = base[:31 - len(suffix)] + suffix, n + 1
    taken.add(candidate.lower())
    return candidate


def _cell(value):
    """A cell's value: numbers as numbers, missing values (None once ``_plain``) empty, the rest text."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return str(value)


def _plain(frame):
    """``frame`` with pandas' missing values (NA, NaN, NaT) as None."""
    return frame.astype(object).where(frame.notna(), None)


def tint(colour: str | None, share: float = 0.2) -> str:
    """A focus colour (``#rrggbb``) lightened to a row shade (``share`` of the colour, the rest white),
    as openpyxl writes it; the house shade without one."""
    if not colour or not re.fullmatch(r"#?[0-9a-fA-F]{6}", colour):
        return FOCUS_FILL
    rgb = [int(colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)]
    return "".join(f"{round(255 - (255 - c) * share):02X}" for c in rgb)


@dataclass(frozen=True)
class WorkbookBrand:
    """What a brand changes in the workbook: the focus rows' shade, the faces, the logo (PNG or JPEG
    bytes); None keeps today's."""

    focus_fill: str = FOCUS_FILL
    base_font: str | None = None
    headings_font: str | None = None
    logo: bytes | None = None


#: Pixels the logo beside a sheet's header is tall (the header row is made as tall, in points).
LOGO_HEIGHT = 32


def workbook_bytes(sheets: dict, brand: WorkbookBrand | None = None) -> bytes:
    """The ``.xlsx`` file of ``sheets`` (name -> frame whose first column is the boolean ``Focus``),
    the focus's rows shaded (the brand's colour lightened, with a brand), in the ``brand``'s faces and
    with its logo when given."""
    from openpyxl import Workbook
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    brand = brand or WorkbookBrand()
    focus_fill = brand.focus_fill
    header_font = Font(bold=True, name=brand.headings_font or brand.base_font) if (
        brand.headings_font or brand.base_font) else Font(bold=True)
    book = Workbook()
    book.remove(book.active)
    book.properties.created = book.properties.modified = _FIXED
    focus_fill, header_fill = PatternFill("solid", fgColor=focus_fill), PatternFill("solid", fgColor=HEADER_FILL)
    taken: set[str] = set()
    for name, frame in sheets.items():
        sheet = book.create_sheet(sheet_name(name, taken))
        sheet.append(list(frame.columns))
        for cell in sheet[1]:
            cell.font, cell.fill = header_font, header_fill
        plain = _plain(frame)
        for row in plain.itertuples(index=False):
            values = [_cell(v) for v in row]
            mine = bool(values[0])
            values[0] = "focus" if mine else None
            sheet.append(values)
            if mine:
                for cell in sheet[sheet.max_row]:
                    cell.fill = focus_fill
        sheet.freeze_panes = "A2"
        sheet.auto_filter.ref = f"A1:{get_column_letter(max(len(frame.columns), 1))}{max(len(frame) + 1, 1)}"
        for index, column in enumerate(frame.columns, start=1):
            longest = max([len(str(column))] + [len(str(v)) for v in plain[column].head(500) if v is not None])
            sheet.column_dimensions[get_column_letter(index)].width = min(longest, _WIDEST) + 2
        if brand.logo:
            _logo_beside_header(sheet, brand.logo, len(frame.columns))
    buffer = io.BytesIO()
    book.save(buffer)
    edits = {"xl/styles.xml": lambda xml: _default_font(xml, brand.base_font)} if brand.base_font else {}
    return fixed_times(buffer.getvalue(), edits)


def _logo_beside_header(sheet, logo: bytes, columns: int) -> None:
    """The logo one empty column right of the sheet's last column, in its header row (made as tall
    as the logo): it covers no cell that holds data, and it is seen where the sheet opens."""
    from openpyxl.drawing.image import Image
    from openpyxl.utils import get_column_letter

    picture = Image(io.BytesIO(logo))
    picture.width, picture.height = round(LOGO_HEIGHT * picture.width / max(picture.height, 1)), LOGO_HEIGHT
    sheet.row_dimensions[1].height = LOGO_HEIGHT * 0.75 + 2  # points: 0.75 of a pixel each, a little room
    sheet.add_image(picture, f"{get_column_letter(columns + 2)}1")


_FIRST_FONT = re.compile(rb"(<fonts\b[^>]*>\s*)(<font>.*?</font>)", re.DOTALL)


def _default_font(styles: bytes, name: str) -> bytes:
    """``xl/styles.xml`` with its first font (the workbook's default, which every cell without a font
    of its own uses) named ``name``, and no longer the theme's minor font (``<scheme>``: Excel would
    draw the theme's Calibri whatever the name): openpyxl has no public setting for it."""
    from xml.sax.saxutils import escape

    value = escape(name, {'"': "&quot;"}).encode("utf-8")

    def renamed(match: re.Match) -> bytes:
        font = re.sub(rb'<name val="[^"]*"\s*/>', lambda _: b'<name val="' + value + b'"/>', match.group(2), count=1)
        return match.group(1) + re.sub(rb"<scheme\b[^>]*/>", b"", font)

    return _FIRST_FONT.sub(renamed, styles, count=1)

