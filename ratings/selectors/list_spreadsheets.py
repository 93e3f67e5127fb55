"""The rating list as an Excel workbook (XLSX): numbers as numbers, the last game as a date, the header frozen
and a filter on every column; the same rows and columns as the CSV and JSON files (ratings/selectors/list_files.py,
whose ``csv_lines(for_excel=True)`` is the CSV that Excel opens in French or German)."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable
from typing import Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from ratings.selectors.list_files import EXPORT_FIELDS, Grades, export_record
from ratings.selectors.lists import ListRow

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
WIDTHS = {
    "family_name": 22,
    "given_name": 18,
    "latin_family_name": 22,
    "latin_given_name": 18,
    "federation_id": 14,
    "prior_grade": 14,
    "last_played": 12,
}


def _text(sheet: Any, value: str) -> WriteOnlyCell:
    """A text cell: openpyxl would store "=..." as a formula, and a name must never be one."""
    cell = WriteOnlyCell(sheet, value=value)
    cell.data_type = "s"
    return cell


def xlsx_bytes(rows: Iterable[ListRow], *, date: dt.date, grades: Grades = "public") -> bytes:
    """The workbook: one sheet named after the list's date, numbers as numbers and the last game as a date."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet(date.isoformat())
    sheet.freeze_panes = "A2"
    for index, name in enumerate(EXPORT_FIELDS, 1):
        sheet.column_dimensions[get_column_letter(index)].width = WIDTHS.get(name, 10)
    header = [WriteOnlyCell(sheet, value=name) for name in EXPORT_FIELDS]
    for cell in header:
        cell.font = Font(bold=True)
    sheet.append(header)
    count = 0
    for row in rows:
        record = export_record(row, grades)
        values = [row.list_last_played if name == "last_played" else record[name] for name in EXPORT_FIELDS]
        sheet.append([_text(sheet, v) if isinstance(v, str) else v for v in values])
        count += 1
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(EXPORT_FIELDS))}{count + 1}"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
