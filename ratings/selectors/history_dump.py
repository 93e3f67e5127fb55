"""The whole rating history, table by table, for the bulk downloads (ratings/services/history_files.py).

Every rated table in rating order (date, then sequence), with its tournament, its players and their rating
through it, and its games. Read a chunk of tables at a time, in three queries a chunk and one for the players,
so that the memory used does not grow with the history. Only what the public pages show: never a date of birth,
nor who entered or decided anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ratings.models import Game, Player, RatingRow, Table, TableEntry, TableStatus

CHUNK = 500  # tables a chunk: a few thousand games, far below every database's parameter limit

PLAYER_FIELDS = ("federation_id", "family_name", "given_name", "nationality")
ROW_FIELDS = (
    "method",
    "rating_before",
    "rating_after",
    "change",
    "performance",
    "rated_games",
    "score",
    "games_before",
    "games_after",
)
GAME_FIELDS = ("round", "result", "handicap", "handicap_giver", "played", "replay_draw")


def _players() -> dict[int, dict[str, str]]:
    return {
        pk: dict(zip(PLAYER_FIELDS, rest, strict=True))
        for pk, *rest in Player.objects.values_list("pk", *PLAYER_FIELDS)
    }


def _table_record(table: Table) -> dict[str, Any]:
    tournament = table.tournament
    return {
        "id": table.pk,
        "date": table.date.isoformat(),
        "sequence": table.sequence,
        "name": table.name,
        "tournament": {
            "id": tournament.pk,
            "name": tournament.name,
            "city": tournament.city,
            "country": tournament.country.code or "",
            "start_date": tournament.start_date.isoformat(),
            "end_date": tournament.end_date.isoformat(),
        },
        "players": [],
        "games": [],
    }


def history_tables(chunk: int = CHUNK) -> Iterator[dict[str, Any]]:
    """Each rated table as a plain record (JSON-ready), oldest first: ``players`` in seat order, each with his
    rating row's values (None for a player without a rated game there), and ``games`` in round order, the
    players named by federation id (``second`` None for a bye or an absence)."""
    players = _players()
    tables = Table.objects.filter(status=TableStatus.RATED).select_related("tournament").order_by("date", "sequence")
    last: tuple[Any, int] | None = None
    while True:
        page = tables if last is None else tables.filter(date__gte=last[0]).exclude(date=last[0], sequence__lte=last[1])
        batch = list(page[:chunk])
        if not batch:
            return
        yield from _records(batch, players)
        last = (batch[-1].date, batch[-1].sequence)


def _records(batch: list[Table], players: dict[int, dict[str, str]]) -> Iterator[dict[str, Any]]:
    ids = [t.pk for t in batch]
    rows = {
        (table_id, player_id): dict(zip(ROW_FIELDS, rest, strict=True))
        for table_id, player_id, *rest in RatingRow.objects.filter(table_id__in=ids).values_list(
            "table_id", "player_id", *ROW_FIELDS
        )
    }
    records = {t.pk: _table_record(t) for t in batch}
    no_row = dict.fromkeys(ROW_FIELDS)
    entries = TableEntry.objects.filter(table_id__in=ids).order_by("table_id", "seat")
    for table_id, player_id, seat in entries.values_list("table_id", "player_id", "seat"):
        row = rows.get((table_id, player_id), no_row)
        records[table_id]["players"].append({"seat": seat, **players[player_id], **row})
    games = Game.objects.filter(table_id__in=ids).order_by("table_id", "round", "id")
    for table_id, first, second, *rest in games.values_list("table_id", "first_id", "second_id", *GAME_FIELDS):
        game = dict(zip(GAME_FIELDS, rest, strict=True))
        first_id = players[first]["federation_id"]
        second_id = players[second]["federation_id"] if second is not None else None
        records[table_id]["games"].append({"round": game.pop("round"), "first": first_id, "second": second_id, **game})
    yield from (records[t.pk] for t in batch)
