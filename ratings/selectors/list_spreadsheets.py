"""The rating list as an Excel workbook (XLSX) and as an OpenDocument spreadsheet (ODS, LibreOffice's own):
numbers as numbers, the last game as a date; the XLSX with the header frozen and a filter on every column; the
same rows and columns as the CSV and JSON files (ratings/selectors/list_files.py, whose
``csv_lines(for_excel=True)`` is the CSV that Excel opens in French or German)."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable
from typing import Any

from odf.opendocument import OpenDocumentSpreadsheet
from odf.style import Style, TableColumnProperties, TextProperties
from odf.table import Table, TableCell, TableColumn, TableRow
from odf.text import P
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import Cell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from ratings.models import ListEntry
from ratings.selectors.clubs import club_names_on
from ratings.selectors.list_files import EXPORT_FIELDS, Grades, entries_read, export_record

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ODS_CONTENT_TYPE = "application/vnd.oasis.opendocument.spreadsheet"
WIDTHS = {
    "family_name": 22,
    "given_name": 18,
    "latin_family_name": 22,
    "latin_given_name": 18,
    "federation_id": 14,
    "prior_grade": 14,
    "last_played": 12,
    "club": 22,
}


def _text(sheet: Any, value: str) -> Cell:
    """A text cell: openpyxl would store "=..." as a formula, and a name must never be one."""
    cell = WriteOnlyCell(sheet, value=value)
    cell.data_type = "s"
    return cell


def xlsx_bytes(entries: Iterable[ListEntry], *, date: dt.date, grades: Grades = "public") -> bytes:
    """The workbook of a stored list's ``entries`` (of ``date``): one sheet named after the date, numbers as
    numbers and the last game as a date."""
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
    clubs = club_names_on(date)
    for entry in entries_read(entries):
        record = export_record(entry, grades, clubs.get(entry.player_id or 0, ""))
        values = [entry.last_played if name == "last_played" else record[name] for name in EXPORT_FIELDS]
        sheet.append([_text(sheet, v) if isinstance(v, str) else v for v in values])
        count += 1
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(EXPORT_FIELDS))}{count + 1}"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _ods_cell(value: Any, style: Style | None = None) -> TableCell:
    """A cell of its value's type: a number as a float, a date as a date, anything else as text (never a
    formula: ODS keeps a formula in an attribute of its own, which no cell here has)."""
    if isinstance(value, bool) or value is None:
        value = "" if value is None else str(value)
    if isinstance(value, int | float):
        cell = TableCell(valuetype="float", value=value)
    elif isinstance(value, dt.date):
        cell = TableCell(valuetype="date", datevalue=value.isoformat())
    else:
        cell = TableCell(valuetype="string")
    if style is not None:
        cell.setAttribute("stylename", style)
    cell.addElement(P(text=str(value)))
    return cell


def ods_bytes(entries: Iterable[ListEntry], *, date: dt.date, grades: Grades = "public") -> bytes:
    """The spreadsheet of a stored list's ``entries`` (of ``date``): one sheet named after the date, a bold
    header, the columns of the XLSX."""
    document = OpenDocumentSpreadsheet()
    bold = Style(name="header", family="table-cell")
    bold.addElement(TextProperties(fontweight="bold"))
    document.automaticstyles.addElement(bold)
    sheet = Table(name=date.isoformat())
    for name in EXPORT_FIELDS:
        width = Style(name=f"column-{name}", family="table-column")
        width.addElement(TableColumnProperties(columnwidth=f"{WIDTHS.get(name, 10) * 0.2:.1f}cm"))
        document.automaticstyles.addElement(width)
        sheet.addElement(TableColumn(stylename=width))
    header = TableRow()
    for name in EXPORT_FIELDS:
        header.addElement(_ods_cell(name, bold))
    sheet.addElement(header)
    clubs = club_names_on(date)
    for entry in entries_read(entries):
        record = export_record(entry, grades, clubs.get(entry.player_id or 0, ""))
        line = TableRow()
        for name in EXPORT_FIELDS:
            line.addElement(_ods_cell(entry.last_played if name == "last_played" else record[name]))
        sheet.addElement(line)
    document.spreadsheet.addElement(sheet)
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()
