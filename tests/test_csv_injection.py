"""Every CSV the site writes opens in a spreadsheet as text: no cell runs as a formula."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ratings.selectors.spreadsheet import csv_cell
from tests.public.conftest import seasoned

HOSTILE_NAMES = ['=HYPERLINK("x")', "+1", "-2+3", "@SUM(A1)", "\tTab", "\rReturn"]
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("text", HOSTILE_NAMES)
def test_text_that_starts_a_formula_gets_a_leading_apostrophe(text: str) -> None:
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Tanaka", "", "O'Neil", "1-0", "a=b", "x@y", 0, -12, 1.5, None])
def test_other_cells_are_left_as_they_are(value: object) -> None:
    assert csv_cell(value) == value


def test_a_negative_number_stays_a_number_in_the_file() -> None:
    out = io.StringIO()
    csv.writer(out).writerow([csv_cell(-12), csv_cell("-12")])
    assert out.getvalue() == "-12,'-12\r\n"


def _public_export(client: Client) -> str:
    response = client.get(reverse("ratings:rating_list_csv"))
    assert response.status_code == 200
    return b"".join(response.streaming_content).decode()


def _file_download(client: Client) -> str:
    response = client.get(reverse("files:rating_list"), {"format": "csv"})
    assert response.status_code == 200
    return response.content.decode()


def _command(client: Client) -> str:
    out = io.StringIO()
    call_command("export_rating_list", "--format", "csv", stdout=out)
    return out.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize("export", [_public_export, _file_download, _command], ids=lambda f: f.__name__.strip("_"))
def test_every_csv_export_neutralises_formulas(client: Client, export: Callable[[Client], str]) -> None:
    for i, name in enumerate(HOSTILE_NAMES[:4]):
        seasoned(1500 + i, family_name=name, given_name=name)
    rows = list(csv.DictReader(io.StringIO(export(client))))
    assert sorted(r["family_name"] for r in rows) == sorted("'" + name for name in HOSTILE_NAMES[:4])
    assert sorted(r["given_name"] for r in rows) == sorted("'" + name for name in HOSTILE_NAMES[:4])
    assert sorted(int(r["rating"]) for r in rows) == [1500, 1501, 1502, 1503]


def test_every_module_that_writes_csv_passes_its_cells_through_csv_cell() -> None:
    """A new CSV writer must call the one function, or this test names it."""
    writers = re.compile(r"csv\.writer\(|csv\.DictWriter\(")  # where rows are written, not where they are served
    sources = [p for folder in ("ratings", "federation") for p in (ROOT / folder).rglob("*.py")]
    writing = [p for p in sources if writers.search(p.read_text(encoding="utf-8"))]
    assert writing, "no CSV writer found: the pattern is out of date"
    missing = [str(p.relative_to(ROOT)) for p in writing if "csv_cell(" not in p.read_text(encoding="utf-8")]
    assert not missing, f"these modules write CSV without ratings.spreadsheet.csv_cell: {missing}"
