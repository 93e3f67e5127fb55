"""Reads of the FESA program's records: a player's list record, a saved table as ``turnering.txt``, and a rated
table's result table (docs/fesa-files.md). The state list's import and export are ratings/services/fesa/state.py;
the rating list's files ratings/selectors/list_files.py.

A player migrated from FESA keeps what his list record needs to be written back byte for byte under the key
``"fesa"`` of his opening state's JSON (ratings/services/fesa/state.py describes it).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ratings import engine
from ratings.fesa_files.ratingliste import Home, ListRecord, read_ratingliste
from ratings.fesa_files.result_table import write_result_table
from ratings.fesa_files.turnering import Cell, HandicapMark, TablePlayer, Turnering
from ratings.fesa_files.turnering_values import Sign
from ratings.models import (
    Game,
    GameResult,
    HandicapGiver,
    Player,
    Promotion,
    PromotionStatus,
    RatingRow,
    Table,
    TableEntry,
    TableStatus,
)
from ratings.models.states import state_from_json
from ratings.selectors.states import states_before

FESA_KEY = "fesa"
_SIGN_OF_NO_GAME: dict[str, Sign] = {
    GameResult.BYE: "+",
    GameResult.ABSENT: "-",
    GameResult.HALF_BYE: "=",
    GameResult.NO_SHOW: "#",
}
_SIGN_OF_GAME: dict[GameResult, Sign] = {GameResult.FIRST_WON: "+", GameResult.SECOND_WON: "-", GameResult.DRAW: "="}
_MIRROR: dict[Sign, Sign] = {"+": "-", "-": "+", "=": "="}


def player_list_record(player: Player, opening: dict[str, Any] | None, state: engine.PlayerState) -> ListRecord:
    """The player's record as the list had it (or as a newcomer's), with the given state."""
    fesa = (opening or {}).get(FESA_KEY) or {}
    if fesa.get("record"):
        base = read_ratingliste("(" + fesa["record"] + ")", fesa.get("file") or "ratingliste")[0]
    elif fesa.get("homes") is not None:
        homes = tuple(Home(h[0], h[1], h[2], dt.date.fromisoformat(h[3]) if h[3] else None) for h in fesa["homes"])
        base = ListRecord(*player.file_name, homes, state)
    else:
        nationality = str(player.nationality or "")
        residence = str(player.residence or "") or nationality
        base = ListRecord(*player.file_name, (Home("E", nationality, residence),), state)
    family, given = player.file_name  # the Latin form of a name in another script
    record = base._replace(last_name=family, first_name=given, state=state)
    shown = record.list_nationality()
    wanted = str(player.nationality or "")
    if wanted and shown != wanted and record.homes:
        # The nationality was corrected on the site: the HOME the lists show takes it.
        index = next((i for i, h in enumerate(record.homes) if h.list == "A"), 0)
        corrected = list(record.homes)
        corrected[index] = corrected[index]._replace(nationality=wanted)
        record = record._replace(homes=tuple(corrected))
    return record


def table_turnering(table: Table) -> tuple[Turnering, list[int]]:
    """The saved table as a ``turnering.txt`` table, and the player id of each line (in seat order).

    Lines are numbered by seat order (1, 2, ...) even when seats have gaps. A round in which a player has
    no game row is shown as an absence (``0-``), which counts what it should: nothing. Games that were not
    played (forfeits) and sennichite replays show their result, as in the standings.
    """
    entries = list(TableEntry.objects.filter(table=table).select_related("player").order_by("seat"))
    number = {e.player_id: i for i, e in enumerate(entries, start=1)}
    games = list(Game.objects.filter(table=table).order_by("round", "id"))
    rounds = max((g.round for g in games), default=0)
    cells: dict[int, dict[int, Cell]] = {n: {} for n in number.values()}
    for g in games:
        first = number.get(g.first_id)
        if first is None:
            continue
        if g.second_id is None:
            cells[first].setdefault(g.round, Cell(0, _SIGN_OF_NO_GAME.get(g.result, "-")))
            continue
        second = number.get(g.second_id)
        if second is None:
            continue
        sign = _SIGN_OF_GAME[GameResult(g.result)]
        mark = None
        if g.handicap:
            mark = HandicapMark(received=g.handicap_giver == HandicapGiver.SECOND, code=g.handicap)  # type: ignore[arg-type]
        cells[first].setdefault(g.round, Cell(second, sign, mark))
        cells[second].setdefault(g.round, Cell(first, _MIRROR[sign], None if mark is None else mark.mirrored()))
    players = tuple(
        TablePlayer(
            number=n,
            last_name=e.player.file_name[0],
            first_name=e.player.file_name[1],
            cells=tuple(cells[n].get(r, Cell(0, "-")) for r in range(1, rounds + 1)),
            line=n,
        )
        for n, e in enumerate(entries, start=1)
    )
    tournament = table.tournament
    date_text = table.date.isoformat()
    start = tournament.start_date
    if start < table.date and (start.year, start.month) == (table.date.year, table.date.month):
        date_text = f"{start.isoformat()}/{table.date.day:02d}"  # as FESA prints a span: 2025-04-19/20
    turnering = Turnering(name=table.label, date=table.date, date_text=date_text, players=players, rounds=rounds)
    return turnering, [e.player_id for e in entries]


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
