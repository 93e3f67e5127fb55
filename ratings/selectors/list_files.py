"""The rating list as files: all.txt as the FESA program writes it, and CSV and JSON, from the entries of a stored
list (ratings/selectors/lists.py): the same players, in the same order as the page.

Grades: ``grades="fesa"`` shows the grade the rules computed, as the FESA program prints it (what a federation
compares while it runs both systems side by side); ``grades="public"`` the grade the public sees, Dan grades only
once approved (ratings/services/grades/promotions.py). The site's pages and downloads show the latter.

Ranks: the CSV, JSON and spreadsheet files give the public ranks, as the page does (``ListEntry.rank`` and
``country_rank``): players still rated by performance have none (docs/rules.md §8). all.txt numbers every line,
whatever the category, as the FESA program does.

Nationality: the page's country code; in all.txt, for a player migrated from FESA whose list nationality is no
country code the site knows, the code of his FESA record, as the program prints it.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any, Literal

from django.conf import settings
from django.db.models import QuerySet

from ratings import engine
from ratings.engine import grade_label
from ratings.engine.types import prior_grade_read
from ratings.fesa_files.alltxt import write_all_txt
from ratings.fesa_files.encoding import latin1_text
from ratings.fesa_files.ratingliste import Home, ListRecord
from ratings.models import ListEntry, OpeningState, StoredList
from ratings.selectors.clubs import club_names_on
from ratings.selectors.lists import list_entries
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


def export_record(entry: ListEntry, grades: Grades = "public", club: str = "") -> dict[str, Any]:
    """One row of the CSV and JSON files; ``club``: the name of the player's club on the list's date."""
    grade = entry.grade if grades == "public" else entry.fesa_grade
    latin_family, latin_given = entry.file_name
    pending = entry.shown_pending_grade
    return {
        "rank": entry.rank,
        "country_rank": entry.country_rank,
        "federation_id": entry.federation_id,
        "family_name": entry.family_name,
        "given_name": entry.given_name,
        "latin_family_name": latin1_text(latin_family),
        "latin_given_name": latin1_text(latin_given),
        "nationality": entry.nationality,
        "grade": grade_label(grade or 0),
        "grade_pending": grade_label(pending or 0) if grades == "public" else "",
        "prior_grade": entry.prior_grade_label,
        "rating": entry.rating,
        "games": entry.games,
        "category": entry.category,
        "last_played": entry.last_played.isoformat() if entry.last_played else None,
        "club": club,
    }


def entries_read(entries: Iterable[ListEntry]) -> Iterator[ListEntry]:
    """The entries one by one: a QuerySet in chunks from the database (a whole list is 20,000 rows, none of them
    kept once written), anything else as it is."""
    return entries.iterator(chunk_size=2000) if isinstance(entries, QuerySet) else iter(entries)


def csv_lines(
    entries: Iterable[ListEntry], grades: Grades = "public", *, for_excel: bool = False, date: dt.date | None = None
) -> Iterator[str]:
    """The CSV file, a header row and one line per entry, line by line (for a streaming response); each row's
    club that of the list's ``date`` (by default the date of the first entry's list, a query more), read once
    for the whole file.

    ``for_excel``: the dialect Excel opens by a double click where the decimal separator is a comma (French,
    German): semicolons, CRLF and a byte order mark, without which it reads UTF-8 as Windows-1252."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if for_excel else ",", lineterminator="\r\n" if for_excel else "\n")
    writer.writerow(EXPORT_FIELDS)
    yield ("\ufeff" if for_excel else "") + out.getvalue()
    clubs: dict[int, str] | None = None
    for entry in entries_read(entries):
        if clubs is None:
            clubs = club_names_on(date or entry.stored_list.date)
        out.seek(0)
        out.truncate()
        record = export_record(entry, grades, clubs.get(entry.player_id or 0, ""))
        # csv_cell: a name cannot start a formula in a spreadsheet
        writer.writerow(["" if record[name] is None else csv_cell(record[name]) for name in EXPORT_FIELDS])
        yield out.getvalue()


def json_document(entries: Iterable[ListEntry], stored: StoredList, *, grades: Grades = "public") -> bytes:
    """The JSON file of ``entries`` of ``stored``: the licence, the list's date and what it holds, and one record
    an entry (its club that of the list's date)."""
    clubs = club_names_on(stored.date)
    document = {
        "licence": {"name": settings.DATA_LICENCE_NAME, "url": settings.DATA_LICENCE_URL},
        "date": stored.date.isoformat(),
        "active_only": stored.active,
        "grades": grades,
        "players": [export_record(e, grades, clubs.get(e.player_id or 0, "")) for e in entries_read(entries)],
    }
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")


def _fesa_nationalities(player_ids: list[int]) -> dict[int, str]:
    """The list nationality of the FESA records of ``player_ids`` (players whose nationality is no country code)."""
    out: dict[int, str] = {}
    for start in range(0, len(player_ids), 5000):
        for player_id, homes in OpeningState.objects.filter(player_id__in=player_ids[start : start + 5000]).values_list(
            "player_id", "state__fesa__homes"
        ):
            record = ListRecord("", "", tuple(Home(h[0], h[1], h[2]) for h in homes or ()), engine.PlayerState())
            out[player_id] = record.list_nationality()
    return out


def all_txt(entries: Iterable[ListEntry], grades: Grades = "fesa", *, date: dt.date | None = None) -> bytes:
    """all.txt of a stored list's ``entries`` in list order (ISO-8859-1, exactly as the FESA program writes it),
    headed by the list's ``date`` (by default the date of the first entry's list: an empty list needs it given);
    FesaFileError for a name ISO-8859-1 cannot hold."""
    rows = list(entries_read(entries))
    if date is None:
        if not rows:
            raise ValueError("all.txt of an empty list needs the list's date")
        date = rows[0].stored_list.date
    fesa = _fesa_nationalities([e.player_id for e in rows if not e.nationality and e.player_id is not None])
    records = []
    for e in rows:
        prior = prior_grade_read(e.prior_grade_kind, e.prior_grade_level)
        state = engine.PlayerState(
            rating=e.rating,
            result_list=None,
            game_count=e.games,
            grade=e.grade if grades == "public" else e.fesa_grade,
            prior_grade=prior,
            last_played=e.last_played,
        )
        nationality = e.nationality or fesa.get(e.player_id or 0, "")
        records.append(ListRecord(*e.file_name, (Home("E", nationality, ""),), state))
    return write_all_txt(records, date)


def rating_list_file(stored: StoredList, *, format: Format, grades: Grades = "fesa") -> tuple[bytes, str]:
    """The list ``stored`` (ratings/services/lists.py ``list_stored``) as file content and its content type;
    ValueError for an unknown format."""
    entries = list_entries(stored)
    if format == "all.txt":
        return all_txt(entries, grades, date=stored.date), CONTENT_TYPES[format]
    if format == "csv":
        return "".join(csv_lines(entries, grades, date=stored.date)).encode("utf-8"), CONTENT_TYPES[format]
    if format == "json":
        return json_document(entries, stored, grades=grades) + b"\n", CONTENT_TYPES[format]
    raise ValueError(f"unknown rating list format {format!r} (known: {', '.join(FORMATS)})")
