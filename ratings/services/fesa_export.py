"""A table's result table in FESA's format. (The rating list's files are read by ratings/selectors/list_files.py.)"""

from __future__ import annotations

from ratings import engine
from ratings.fesa_files.ratingliste import ListRecord
from ratings.fesa_files.result_table import write_result_table
from ratings.models import Promotion, PromotionStatus, RatingRow, Table, TableStatus
from ratings.selectors.states import states_before
from ratings.services.fesa_state import player_list_record
from ratings.services.fesa_tables import table_turnering
from ratings.states import state_from_json


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
