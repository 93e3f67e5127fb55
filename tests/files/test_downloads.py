"""Downloads: a table's FESA result table and the rating list (all.txt, CSV, JSON); bad input is never a 500."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ratings.fesa_files.alltxt import write_all_txt
from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.run import rate_files
from ratings.models import Player, Promotion, PromotionStatus, Table
from ratings.web.views import files as views_files
from tests.factories import make_player, make_table
from tests.files.fesa_cases import case_dir, load_case


def rated_case(name: str, capture: object) -> tuple[Path, Table]:
    case = case_dir(name)
    return case, load_case(case, capture)


@pytest.mark.django_db
def test_result_table_download_marks_performance_ratings(django_capture_on_commit_callbacks: object) -> None:
    _case, table = rated_case("sample-2016-01-07", django_capture_on_commit_callbacks)
    url = reverse("files:table_result_txt", args=[table.pk])
    response = Client().get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=iso-8859-1"
    lines = response.content.decode("iso-8859-1").splitlines()
    assert lines[0] == "Nekomado-ken : 2016-01-07"
    # The program's all.txt for this case: Ishikawa 1787, Ould Ahmed 1321, Hebert 852, Mazouzi 1, all four
    # still rated by performance, so each row shows the new rating with "*" and no change.
    for name, rating in [("Ishikawa", 1787), ("Ould Ahmed", 1321), ("Hebert", 852), ("Mazouzi", 1)]:
        row = next(line for line in lines if name in line)
        assert f"{rating}*" in row and row.rstrip().endswith(("3", "2", "1", "0"))


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["nekomadoken-13", "synthetic-case-008", "synthetic-case-017"])
def test_result_table_download_matches_the_file_run(name: str, django_capture_on_commit_callbacks: object) -> None:
    """From the database, the result table is what the FESA program's run on the same files writes."""
    case, table = rated_case(name, django_capture_on_commit_callbacks)
    nye = case / "nye-spillere"
    expected = rate_files(
        (case / "turnering.txt").read_bytes(),
        (case / "ratingliste.pre").read_bytes(),
        nye.read_bytes() if nye.is_file() else None,
    ).result_txt
    got = Client().get(reverse("files:table_result_txt", args=[table.pk])).content
    assert got == expected
    if Promotion.objects.filter(table=table).exclude(status=PromotionStatus.WITHDRAWN).exists():
        assert b"\nPromoting " in got


@pytest.mark.django_db
def test_result_table_of_unrated_or_unknown_table_is_404() -> None:
    table = make_table([make_player(), make_player()])
    assert Client().get(reverse("files:table_result_txt", args=[table.pk])).status_code == 404
    assert Client().get(reverse("files:table_result_txt", args=[table.pk + 100])).status_code == 404


@pytest.mark.django_db
def test_rating_list_download_all_txt_is_the_programs_file(django_capture_on_commit_callbacks: object) -> None:
    case, table = rated_case("sample-2016-01-07", django_capture_on_commit_callbacks)
    response = Client().get(reverse("files:rating_list"), {"format": "all.txt", "date": table.date.isoformat()})
    assert response.status_code == 200
    # This case has no Dan promotion, so the public grades are the program's.
    assert response.content == (case / "all.txt").read_bytes()


@pytest.mark.django_db
def test_rating_list_download_csv_and_json_hold_the_same_players(django_capture_on_commit_callbacks: object) -> None:
    _case, table = rated_case("sample-2016-01-07", django_capture_on_commit_callbacks)
    query = {"date": table.date.isoformat()}
    rows = list(
        csv.DictReader(
            io.StringIO(Client().get(reverse("files:rating_list"), {**query, "format": "csv"}).content.decode())
        )
    )
    document = json.loads(Client().get(reverse("files:rating_list"), {**query, "format": "json"}).content)
    # The program's all.txt for this case, row by row.
    expected = [
        ("Ishikawa", "1787", "8", "1 Dan"),
        ("Ould Ahmed", "1321", "6", ""),
        ("Hebert", "852", "6", ""),
        ("Mazouzi", "1", "6", ""),
    ]
    assert [(r["family_name"], r["rating"], r["games"], r["prior_grade"]) for r in rows] == expected
    assert [
        (p["family_name"], str(p["rating"]), str(p["games"]), p["prior_grade"]) for p in document["players"]
    ] == expected
    assert {r["nationality"] for r in rows} == {"FR"}


@pytest.mark.django_db
def test_rating_list_public_grades_hide_pending_dan(django_capture_on_commit_callbacks: object) -> None:
    """synthetic-case-008 promotes Dumas Renée to 1 Dan (ratingliste.post): pending on the site until approved."""
    _case, table = rated_case("synthetic-case-008", django_capture_on_commit_callbacks)
    date = table.date.isoformat()
    public = Client().get(reverse("files:rating_list"), {"format": "json", "date": date}).json()
    dumas = next(p for p in public["players"] if p["family_name"] == "Dumas")
    assert dumas["grade"] != "1 Dan"
    out = io.StringIO()
    call_command("export_rating_list", "--format", "json", "--date", date, stdout=out)
    fesa = json.loads(out.getvalue())
    assert next(p for p in fesa["players"] if p["family_name"] == "Dumas")["grade"] == "1 Dan"


@pytest.mark.django_db
@pytest.mark.parametrize("query", [{"format": "xls"}, {"date": "yesterday"}, {"date": "2024-13-01"}])
def test_rating_list_bad_query_is_400(query: dict[str, str]) -> None:
    response = Client().get(reverse("files:rating_list"), query)
    assert response.status_code == 400
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = response.content.decode()
    assert "The file cannot be downloaded" in page and ("Unknown format" in page or "YYYY-MM-DD" in page)
    assert f'href="{reverse("ratings:rating_list")}"' in page


@pytest.mark.django_db
def test_downloads_of_names_outside_latin1_are_transliterated(django_capture_on_commit_callbacks: object) -> None:
    _case, table = rated_case("sample-2016-01-07", django_capture_on_commit_callbacks)
    player = Player.objects.get(family_name="Hebert")
    player.family_name, player.given_name = "Zieliński", "Łukasz"
    player.save()
    result = Client().get(reverse("files:table_result_txt", args=[table.pk]))
    assert result.status_code == 200
    assert " Zielinski  Lukasz " in result.content.decode("iso-8859-1")
    all_txt = Client().get(reverse("files:rating_list"), {"date": table.date.isoformat()})
    assert all_txt.status_code == 200
    assert "Zielinski         Lukasz " in all_txt.content.decode("iso-8859-1")
    assert Player.objects.get(pk=player.pk).family_name == "Zieliński"


@pytest.mark.django_db
def test_result_table_that_cannot_be_written_is_a_page_with_the_reason(
    django_capture_on_commit_callbacks: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    _case, table = rated_case("sample-2016-01-07", django_capture_on_commit_callbacks)

    def fails(_table: Table) -> bytes:
        raise FesaFileError("result.txt", 3, "something the file cannot hold")

    monkeypatch.setattr(views_files, "table_result_txt", fails)
    response = Client().get(reverse("files:table_result_txt", args=[table.pk]))
    assert response.status_code == 409
    page = response.content.decode()
    assert "result.txt, line 3: something the file cannot hold" in page
    assert f'href="{reverse("ratings:table", args=[table.pk])}"' in page


@pytest.mark.django_db
def test_rating_list_far_dates_are_not_errors() -> None:
    """A list of no one (a day before any table) is a file too: all.txt is headed by the list's day."""
    for date in ("0001-01-01", "9999-12-31"):
        for format in ("csv", "json", "all.txt"):
            response = Client().get(reverse("files:rating_list"), {"format": format, "date": date})
            assert response.status_code == 200, (date, format)
    empty = Client().get(reverse("files:rating_list"), {"format": "all.txt", "date": "1999-03-04"})
    assert empty.content == write_all_txt([], dt.date(1999, 3, 4))


@pytest.mark.django_db
def test_rating_list_of_an_unsorted_imported_list_is_highest_first() -> None:
    case = case_dir("synthetic-case-008")  # its ratingliste.pre is not sorted by rating
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    response = Client().get(reverse("files:rating_list"), {"format": "json", "date": "2016-07-27"})
    ratings = [p["rating"] for p in response.json()["players"]]
    assert len(ratings) > 10 and ratings == sorted(ratings, reverse=True)


@pytest.mark.django_db
def test_export_fesa_state_writes_every_rated_tables_result_table(
    tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    _case, table = rated_case("sample-2016-01-07", django_capture_on_commit_callbacks)
    make_table([make_player(), make_player()])  # a draft: it has no result table yet
    call_command(
        "export_fesa_state", str(tmp_path / "list"), "--result-tables", str(tmp_path / "results"), stderr=io.StringIO()
    )
    written = sorted((tmp_path / "results").iterdir())
    assert [p.name for p in written] == [f"2016-01-07-1-{table.pk}.txt"]
    assert written[0].read_bytes() == Client().get(reverse("files:table_result_txt", args=[table.pk])).content
