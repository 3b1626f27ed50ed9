"""MLCommons' results table (``build.py ingest ... --official FILE``): the public result ID of each system.

MLCommons publishes the IDs of a Training round only in its results table. Two layouts are read:

- the result summarizer's xlsx (``mlperf_logging.result_summarizer --xlsx``): one sheet per division,
  a few header rows whose last names the columns (``ID`` in the first column, then ``division``,
  ``availability``, ``submitter``, ``system``, ... and the benchmarks), an availability title row
  before each section, then one row per system whose first cell is its ID (``6.0-0012``);
- a CSV with (at least) the columns ``id, submitter, system``.

A table that cannot be read, or a sheet without that header, is an OfficialError / a problem naming
it; the suite matches the rows to its results (``match_ids``) and lists the rows it could not match.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from mlperf_report.core import limits
from mlperf_report.ingest.official import OfficialError

RESULT_ID = re.compile(r"^\d+\.\d+-\d+$")
#: Header rows looked at before a sheet is judged not to be a results table.
_HEADER_ROWS = 20
_COLUMNS = ("id", "submitter", "system")


@dataclass(frozen=True)
class TableRow:
    id: str
    submitter: str
    system: str
    where: str  # "closed row 7", "line 3": to name a row that matched nothing


def read_table(path: Path) -> tuple[list[TableRow], list[str]]:
    """The ID rows of a results table and the problems of its parts (a sheet that is not a results
    table); OfficialError when nothing of it can be used."""
    try:
        size = path.stat().st_size
        if size > limits.MAX_SUMMARY_BYTES:
            raise OfficialError(f"larger than {limits.mib(limits.MAX_SUMMARY_BYTES)} (limit MAX_SUMMARY_BYTES)")
        data = path.read_bytes()
    except OSError as error:
        raise OfficialError(f"cannot read it ({error.strerror})") from None
    if zipfile.is_zipfile(io.BytesIO(data)):
        rows, problems = _xlsx_rows(data)
    elif path.suffix.lower() in (".xlsx", ".xlsm"):
        raise OfficialError("not an xlsx workbook (not a zip archive)")
    else:
        rows, problems = _csv_rows(data), []
    if not rows:
        raise OfficialError("no row with an MLPerf result ID (such as 6.0-0012) under an ID, submitter, "
                            "system header" + (f" ({'; '.join(problems)})" if problems else ""))
    return rows, problems


def _csv_rows(data: bytes) -> list[TableRow]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise OfficialError("neither an xlsx workbook nor a UTF-8 CSV") from None
    reader = csv.reader(io.StringIO(text))
    header = [cell.strip().lower() for cell in next(reader, [])]
    missing = [c for c in _COLUMNS if c not in header]
    if missing:
        raise OfficialError(f"a CSV without the column(s) {', '.join(missing)} (needs id, submitter, system)")
    at = [header.index(c) for c in _COLUMNS]
    rows = []
    for line, cells in enumerate(reader, 2):
        if len(cells) > max(at) and RESULT_ID.match(cells[at[0]].strip()):
            rows.append(TableRow(*(cells[i].strip() for i in at), f"line {line}"))
    return rows


def _xlsx_rows(data: bytes) -> tuple[list[TableRow], list[str]]:
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # noqa: BLE001 - openpyxl raises many kinds on a damaged workbook
        raise OfficialError(f"not a readable xlsx workbook ({type(error).__name__}: {error})") from None
    rows, problems = [], []
    try:
        for sheet in book.worksheets:
            found = _sheet_rows(sheet)
            if found is None:
                problems.append(f"sheet {sheet.title!r} has no header row with ID, submitter and system; skipped")
            rows += found or []
    finally:
        book.close()
    return rows, problems


def _sheet_rows(sheet) -> list[TableRow] | None:
    """A sheet's ID rows, or None when no header row names ID, submitter and system."""
    at = None
    rows = []
    for number, values in enumerate(sheet.iter_rows(values_only=True), 1):
        cells = ["" if v is None else str(v).strip() for v in values]
        if at is None:
            lowered = [c.lower() for c in cells]
            if all(c in lowered for c in _COLUMNS):
                at = [lowered.index(c) for c in _COLUMNS]
            elif number >= _HEADER_ROWS:
                return None
            continue
        if len(cells) > max(at) and RESULT_ID.match(cells[at[0]]):
            rows.append(TableRow(*(cells[i] for i in at), f"{sheet.title} row {number}"))
    return rows if at is not None else None


def folded(text) -> str:
    """A name compared without case, spaces or punctuation (``Netweb Technologies India LTD`` and
    ``Netweb_Technologies_India_LTD`` are one submitter)."""
    return re.sub(r"[\W_]+", "", str(text or "")).casefold()


def match_ids(rows: list[TableRow], systems: list[tuple[str, str, str]]) -> tuple[dict, list[TableRow]]:
    """``{(submitter, system_id): id}`` for the ``(submitter, system_name, system_id)`` systems the table
    names (by the systems JSON's name, else by the system id), and the table rows that name none or
    more than one."""
    by_name: dict[tuple[str, str], list] = {}
    by_id: dict[tuple[str, str], list] = {}
    for submitter, name, system_id in systems:
        by_name.setdefault((folded(submitter), str(name or "").strip().casefold()), []).append((submitter, system_id))
        by_id.setdefault((folded(submitter), str(system_id).casefold()), []).append((submitter, system_id))
    ids, unmatched = {}, []
    for row in rows:
        key = (folded(row.submitter), row.system.strip().casefold())
        found = by_name.get(key) or by_id.get(key) or []
        if len(found) == 1 and found[0] not in ids:
            ids[found[0]] = row.id
        else:
            unmatched.append(row)
    return ids, unmatched
