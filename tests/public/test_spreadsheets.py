"""The rating list for spreadsheet programs: an Excel workbook with typed cells, and the CSV that Excel opens in
French or German (ratings/selectors/list_spreadsheets.py, list_files.csv_lines)."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.test import Client
from django.urls import reverse
from odf.opendocument import load
from odf.table import Table, TableCell, TableRow
from odf.text import P
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


@pytest.fixture
def listed() -> None:
    seasoned(1800, family_name="Éclair", given_name="Anne", nationality="FR", grade=20, last_played=days_ago(30))
    seasoned(1700, family_name="=Other", nationality="DE", last_played=days_ago(40))
    seasoned(1600, family_name="Second", nationality="FR", last_played=days_ago(50))


def test_xlsx_holds_the_filtered_list_with_numbers_and_dates(client: Client, listed: None) -> None:
    response = client.get(reverse("ratings:rating_list_xlsx"), {"country": "FR"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response["Content-Disposition"].endswith('.xlsx"')
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    header = rows[0]
    assert header[:5] == ("rank", "country_rank", "federation_id", "family_name", "given_name")
    named = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    assert [(r["rank"], r["country_rank"], r["family_name"], r["rating"]) for r in named] == [
        (1, 1, "Éclair", 1800),
        (3, 2, "Second", 1600),
    ]
    assert isinstance(named[0]["last_played"], dt.datetime) and named[0]["last_played"].date() == days_ago(30)
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == f"A1:{get_column_letter(len(header))}3"


def test_xlsx_keeps_a_formula_like_name_as_text(client: Client, listed: None) -> None:
    sheet = load_workbook(io.BytesIO(client.get(reverse("ratings:rating_list_xlsx")).content)).active
    cell = next(c for c in sheet["D"] if c.value and "Other" in str(c.value))
    assert cell.data_type == "s" and cell.value == "=Other"


def test_excel_csv_uses_semicolons_crlf_and_a_byte_order_mark(client: Client, listed: None) -> None:
    response = client.get(reverse("ratings:rating_list_excel_csv"), {"country": "FR"})
    raw = b"".join(response.streaming_content)
    assert raw.startswith("\ufeff".encode()) and b"\r\n" in raw
    text = raw.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text), delimiter=";"))
    assert [(r["rank"], r["family_name"], r["given_name"]) for r in rows] == [
        ("1", "Éclair", "Anne"),
        ("3", "Second", ""),
    ]


def test_the_list_page_links_to_both_spreadsheet_files(client: Client, listed: None) -> None:
    html = client.get(reverse("ratings:rating_list"), {"country": "FR"}).content.decode()
    assert 'href="/export.xlsx?country=FR"' in html and 'href="/export.excel.csv?country=FR"' in html


def ods_rows(content: bytes) -> list[list[tuple[str, str]]]:
    """The ODS's rows as (value type, value) pairs, read back with odfpy as LibreOffice reads the file."""
    document = load(io.BytesIO(content))
    (sheet,) = document.spreadsheet.getElementsByType(Table)
    rows = []
    for row in sheet.getElementsByType(TableRow):
        cells = []
        for cell in row.getElementsByType(TableCell):
            kind = cell.getAttribute("valuetype")
            value = cell.getAttribute("datevalue") if kind == "date" else cell.getAttribute("value")
            cells.append((kind, value if value is not None else "".join(str(p) for p in cell.getElementsByType(P))))
        rows.append(cells)
    return rows


def test_ods_holds_the_filtered_list_with_numbers_dates_and_names_as_text(client: Client, listed: None) -> None:
    """LibreOffice users, a federation's habit, open an .ods as it is: typed cells, no formula from a name."""
    response = client.get(reverse("ratings:rating_list_ods"), {"country": "FR"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.oasis.opendocument.spreadsheet"
    assert response["Content-Disposition"].endswith('.ods"')
    rows = ods_rows(response.content)
    header = [value for _kind, value in rows[0]]
    assert header[:5] == ["rank", "country_rank", "federation_id", "family_name", "given_name"]
    named = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    assert [(r["rank"], r["family_name"], r["rating"]) for r in named] == [
        (("float", "1"), ("string", "Éclair"), ("float", "1800")),
        (("float", "3"), ("string", "Second"), ("float", "1600")),
    ]
    assert named[0]["last_played"] == ("date", days_ago(30).isoformat())
    everyone = ods_rows(client.get(reverse("ratings:rating_list_ods")).content)
    assert ("string", "=Other") in [row[3] for row in everyone]


def test_the_list_page_links_to_the_ods_file(client: Client, listed: None) -> None:
    html = client.get(reverse("ratings:rating_list"), {"country": "FR"}).content.decode()
    assert 'href="/export.ods?country=FR"' in html
