"""The rating list as files: all.txt as the FESA program writes it, and CSV and JSON, from the one rating list
(ratings/selectors/lists.py): the same players, in the same order, with the same ranks as the page.

Grades: ``grades="fesa"`` shows the grade the rules computed, as the FESA program prints it (what a federation
compares while it runs both systems side by side); ``grades="public"`` the grade the public sees, Dan grades only
once approved (ratings/services/grades/promotions.py). The site's pages and downloads show the latter.

Nationality: the page's country code; in all.txt, for a player migrated from FESA whose list nationality is no
country code the site knows, the code of his FESA record, as the program prints it.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterator, Sequence
from typing import Any, Literal

from django.conf import settings

from ratings import engine
from ratings.engine import grade_label
from ratings.engine.types import prior_grade_read
from ratings.fesa_files.alltxt import write_all_txt
from ratings.fesa_files.encoding import latin1_text
from ratings.fesa_files.ratingliste import Home, ListRecord
from ratings.models import OpeningState
from ratings.selectors.clubs import club_names_on
from ratings.selectors.lists import ListRow, RatingList, RowList, rating_list
from ratings.selectors.spreadsheet import csv_cell

Format = Literal["all.txt", "csv", "json"]
Grades = Literal["fesa", "public"]
FORMATS: tuple[str, ...] = ("all.txt", "csv", "json")
CONTENT_TYPES = {
    "all.txt": "text/plain; charset=iso-8859-1",
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
}
EXPORT_FIELDS = (
    "rank",
    "country_rank",
    "federation_id",
    "family_name",
    "given_name",
    "latin_family_name",
    "latin_given_name",
    "nationality",
    "grade",
    "grade_pending",
    "prior_grade",
    "rating",
    "games",
    "category",
    "last_played",
    "club",
)
"""The columns of the CSV and JSON files, the page's and the downloads' alike. ``latin_*``: the name in Latin
letters as FESA's files write it: the Latin form of a name in another script, else the name transliterated.
``club``: the name of the player's club on the list's date, as the page shows it; empty for none. Last, so
that a reader of the columns by position before it came reads them as before."""


def export_record(row: ListRow, grades: Grades = "public", club: str = "") -> dict[str, Any]:
    """One row of the CSV and JSON files; ``club``: the name of the player's club on the list's date."""
    grade = row.list_grade if grades == "public" else row.list_fesa_grade
    latin_family, latin_given = row.file_name
    return {
        "rank": row.rank,
        "country_rank": row.country_rank,
        "federation_id": row.federation_id,
        "family_name": row.family_name,
        "given_name": row.given_name,
        "latin_family_name": latin1_text(latin_family),
        "latin_given_name": latin1_text(latin_given),
        "nationality": row.nationality_code,
        "grade": grade_label(grade or 0),
        "grade_pending": grade_label(row.list_pending_grade or 0) if grades == "public" else "",
        "prior_grade": row.prior_grade_label,
        "rating": row.list_rating,
        "games": row.list_games,
        "category": row.list_category,
        "last_played": row.list_last_played.isoformat() if row.list_last_played else None,
        "club": club,
    }


def csv_lines(rows: RatingList | RowList, grades: Grades = "public", *, for_excel: bool = False) -> Iterator[str]:
    """The CSV file, a header row and one line per row, line by line (for a streaming response); each row's club
    that of the list's date.

    ``for_excel``: the dialect Excel opens by a double click where the decimal separator is a comma (French,
    German): semicolons, CRLF and a byte order mark, without which it reads UTF-8 as Windows-1252."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if for_excel else ",", lineterminator="\r\n" if for_excel else "\n")
    writer.writerow(EXPORT_FIELDS)
    yield ("\ufeff" if for_excel else "") + out.getvalue()
    clubs = club_names_on(rows.date)
    for row in rows:
        out.seek(0)
        out.truncate()
        record = export_record(row, grades, clubs.get(row.pk, ""))
        # csv_cell: a name cannot start a formula in a spreadsheet
        writer.writerow(["" if record[name] is None else csv_cell(record[name]) for name in EXPORT_FIELDS])
        yield out.getvalue()


def json_document(rows: RatingList, *, active: bool, grades: Grades = "public") -> bytes:
    """The JSON file: the licence, the list's date and what it holds, and one record a row (its club that of the
    list's date)."""
    clubs = club_names_on(rows.date)
    document = {
        "licence": {"name": settings.DATA_LICENCE_NAME, "url": settings.DATA_LICENCE_URL},
        "date": rows.date.isoformat(),
        "active_only": active,
        "grades": grades,
        "players": [export_record(r, grades, clubs.get(r.pk, "")) for r in rows],
    }
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")


def _fesa_nationalities(rows: Sequence[ListRow]) -> dict[int, str]:
    """The list nationality of the FESA records of the players whose nationality is no country code."""
    blank = [r.pk for r in rows if not r.nationality_code]
    out: dict[int, str] = {}
    for start in range(0, len(blank), 5000):
        for player_id, homes in OpeningState.objects.filter(player_id__in=blank[start : start + 5000]).values_list(
            "player_id", "state__fesa__homes"
        ):
            record = ListRecord("", "", tuple(Home(h[0], h[1], h[2]) for h in homes or ()), engine.PlayerState())
            out[player_id] = record.list_nationality()
    return out


def all_txt(rows: RatingList, grades: Grades = "fesa") -> bytes:
    """all.txt of the list (ISO-8859-1, exactly as the FESA program writes it); FesaFileError for a name
    ISO-8859-1 cannot hold."""
    fesa = _fesa_nationalities(rows.rows)
    records = []
    for r in rows:
        prior = prior_grade_read(r.prior_grade_kind, r.prior_grade_level)
        state = engine.PlayerState(
            rating=r.list_rating,
            result_list=None,
            game_count=r.list_games,
            grade=r.list_grade if grades == "public" else r.list_fesa_grade,
            prior_grade=prior,
            last_played=r.list_last_played,
        )
        nationality = r.nationality_code or fesa.get(r.pk, "")
        records.append(ListRecord(*r.file_name, (Home("E", nationality, ""),), state))
    return write_all_txt(records, rows.date)


def rating_list_file(*, date: dt.date | None, format: Format, grades: Grades = "fesa") -> tuple[bytes, str]:
    """The (active) list of ``date`` as file content and its content type; ValueError for an unknown format."""
    rows = rating_list(date=date, active=True)
    if format == "all.txt":
        return all_txt(rows, grades), CONTENT_TYPES[format]
    if format == "csv":
        return "".join(csv_lines(rows, grades)).encode("utf-8"), CONTENT_TYPES[format]
    if format == "json":
        return json_document(rows, active=True, grades=grades) + b"\n", CONTENT_TYPES[format]
    raise ValueError(f"unknown rating list format {format!r} (known: {', '.join(FORMATS)})")
