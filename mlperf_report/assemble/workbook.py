"""The results workbook (``results.xlsx``) beside a report: every result of the round, one sheet per
benchmark, for the analysts who sort, filter and chart the numbers themselves.

The suite gives the sheets (``Suite.workbook``: frames with a boolean ``Focus`` column first); this
module only writes them: the header row frozen and filtered, numbers stored as numbers (a minute
count is a float, an accelerator count an integer, never text), the focus's rows marked in the
``Focus`` column and shaded. The same frames give the same bytes: the workbook's own dates and its
zip members' times are fixed (``fixed_zip``: openpyxl stamps both with the current time).
"""

from __future__ import annotations

import datetime as dt
import io
import math
import re

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


def workbook_bytes(sheets: dict, focus_fill: str = FOCUS_FILL) -> bytes:
    """The ``.xlsx`` file of ``sheets`` (name -> frame whose first column is the boolean ``Focus``),
    the focus's rows shaded ``focus_fill`` (the brand's colour lightened, with a brand)."""
    from openpyxl import Workbook
    from openpyxl.styles import Font, PatternFill
    from openpyxl.utils import get_column_letter

    book = Workbook()
    book.remove(book.active)
    book.properties.created = book.properties.modified = _FIXED
    focus_fill, header_fill = PatternFill("solid", fgColor=focus_fill), PatternFill("solid", fgColor=HEADER_FILL)
    taken: set[str] = set()
    for name, frame in sheets.items():
        sheet = book.create_sheet(sheet_name(name, taken))
        sheet.append(list(frame.columns))
        for cell in sheet[1]:
            cell.font, cell.fill = Font(bold=True), header_fill
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
    buffer = io.BytesIO()
    book.save(buffer)
    return fixed_times(buffer.getvalue())

