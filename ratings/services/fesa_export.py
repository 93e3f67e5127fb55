"""The rating list as files (all.txt, CSV, JSON) and a table's result table, in FESA's formats.

The rating list of a date holds the players who played a rated table on or after the same day two years
before, professionals left out, highest rating first (RULES.md §8; ratings/fesa_files/alltxt.py decides
who is active, exactly as the program). Its rows are the records of the state export
(ratings/services/fesa_state.py), so ``all.txt`` is the program's file for the same state, and the CSV and
JSON hold the same players in the same order.

Grades: ``grades="fesa"`` shows the grade the rules computed, as the FESA program prints it (what a
federation compares while it runs both systems side by side); ``grades="public"`` shows the grade the
public sees, Dan grades only once approved (ratings/services/grades.py). The public downloads use the latter.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal

from ratings import engine
from ratings.fesa_files.alltxt import is_active, write_all_txt
from ratings.fesa_files.ratingliste import ListRecord
from ratings.fesa_files.result_table import write_result_table
from ratings.models import Promotion, PromotionStatus, RatingRow, Table, TableStatus
from ratings.selectors.derived import category_of
from ratings.selectors.grades import public_grades
from ratings.selectors.states import states_before
from ratings.services.fesa_state import StateEntry, fesa_state_records, player_list_record
from ratings.services.fesa_tables import table_turnering
from ratings.spreadsheet import csv_cell
from ratings.states import state_from_json

Format = Literal["all.txt", "csv", "json"]
Grades = Literal["fesa", "public"]
FORMATS: tuple[str, ...] = ("all.txt", "csv", "json")
CSV_COLUMNS = (
    "rank",
    "federation_id",
    "family_name",
    "given_name",
    "nationality",
    "grade",
    "prior_grade",
    "rating",
    "games",
    "category",
    "last_played",
)


def rating_list_entries(*, date: dt.date, grades: Grades = "fesa") -> list[StateEntry]:
    """The players of the list of ``date``, highest rating first (ties in the state list's order), with
    their records as of that date."""
    entries = [e for e in fesa_state_records(as_of=date) if is_active(e.record, date) and not e.player.is_professional]
    # The state list is in the program's order, sorted by rating after every run; a list imported
    # unsorted stays so until a table is rated, but the rating list is always highest first.
    entries.sort(key=lambda e: -e.record.state.rating)
    if grades == "public":
        shown = public_grades({e.player.pk: e.record.state.grade for e in entries})
        entries = [
            StateEntry(e.player, replace(e.record, state=replace(e.record.state, grade=shown[e.player.pk])))
            for e in entries
        ]
    return entries


def _prior_label(record: ListRecord) -> str:
    prior = record.state.prior_grade
    if prior is None:
        return ""
    return f"{prior.level} {'Pro' if prior.kind == 'pro' else prior.kind.capitalize()}"


def rating_list_rows(entries: Sequence[StateEntry]) -> list[dict[str, Any]]:
    """One plain row per player, as the CSV and JSON files hold them."""
    rows = []
    for rank, e in enumerate(entries, start=1):
        state = e.record.state
        rows.append(
            {
                "rank": rank,
                "federation_id": e.player.federation_id,
                "family_name": e.record.last_name,
                "given_name": e.record.first_name,
                "nationality": e.record.list_nationality(),
                "grade": engine.grade_label(state.grade),
                "prior_grade": _prior_label(e.record),
                "rating": state.rating,
                "games": state.games,
                "category": str(category_of(state)),
                "last_played": state.last_played.isoformat() if state.last_played else "",
            }
        )
    return rows


def rating_list_file(*, date: dt.date, format: Format, grades: Grades = "fesa") -> tuple[bytes, str]:
    """The list of ``date`` as file content and its content type.

    ``all.txt`` is ISO-8859-1 exactly as the FESA program writes it; CSV (with a header row) and JSON are
    UTF-8. Raises ValueError for an unknown format, FesaFileError for a name ISO-8859-1 cannot hold.
    """
    entries = rating_list_entries(date=date, grades=grades)
    if format == "all.txt":
        return write_all_txt([e.record for e in entries], date), "text/plain; charset=iso-8859-1"
    rows = rating_list_rows(entries)
    if format == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows({name: csv_cell(value) for name, value in row.items()} for row in rows)
        return out.getvalue().encode("utf-8"), "text/csv; charset=utf-8"
    if format == "json":
        document = {"date": date.isoformat(), "grades": grades, "players": rows}
        return (json.dumps(document, ensure_ascii=False, indent=1) + "\n").encode("utf-8"), "application/json"
    raise ValueError(f"unknown rating list format {format!r} (known: {', '.join(FORMATS)})")


def table_has_result(table: Table) -> bool:
    """A result table exists for a table that has been rated (and keeps its rows while it waits again)."""
    return table.status == TableStatus.RATED or (
        table.first_rated_at is not None and RatingRow.objects.filter(table=table).exists()
    )


def table_result_txt(table: Table) -> bytes:
    """The table's result table in FESA's text format (ISO-8859-1), from its stored rating rows.

    Each player's record before the table gives his nationality, FESA grade and rating; players without a
    rated game show their unchanged state. Raises ValueError for a table that has not been rated.
    """
    if not table_has_result(table):
        raise ValueError("the table has not been rated yet")
    turnering, player_ids = table_turnering(table)
    rows = {r.player_id: r for r in RatingRow.objects.filter(table=table)}
    found: dict[int, list[engine.Promotion]] = {}
    for p in Promotion.objects.filter(table=table).exclude(status=PromotionStatus.WITHDRAWN).order_by("grade"):
        found.setdefault(p.player_id, []).append(
            engine.Promotion(grade=p.grade, route=p.route, game_number=p.game_number, rating=p.rating, round=p.round)  # type: ignore[arg-type]
        )
    missing = [pid for pid in player_ids if pid not in rows]
    before = states_before(date=table.date, sequence=table.sequence, player_ids=missing) if missing else {}
    players = {e.player.pk: e.player for e in table.entries.select_related("player")}
    openings = dict(
        (pid, state) for pid, state in table.entries.values_list("player_id", "player__opening_state__state")
    )
    records: dict[int, ListRecord] = {}
    outcomes: list[engine.PlayerOutcome] = []
    for number, pid in enumerate(player_ids, start=1):
        row = rows.get(pid)
        state = state_from_json(row.state_before) if row is not None else before[pid]
        records[number] = player_list_record(players[pid], openings.get(pid), state)
        if row is not None:
            outcomes.append(
                engine.PlayerOutcome(
                    key=number,
                    method=row.method,  # type: ignore[arg-type]
                    before=state,
                    after=state_from_json(row.state_after),
                    change=row.change,
                    performance=row.performance,
                    games=(),
                    promotions=tuple(found.get(pid, ())),
                )
            )
    result = engine.TableResult(outcomes=tuple(outcomes), sweeps=0)
    return write_result_table(turnering, records, result, file=f"table {table.pk}")
