"""Players' states at a point of the history: before a table position, or before the first table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import Q

from ratings import engine
from ratings.db import as_date, date_param, id_batches, ids_condition, ids_in, json_column, json_value, raw_rows
from ratings.engine.types import prior_grade_read
from ratings.models import OpeningState, Player, RatingRow, db_column
from ratings.models.states import state_from_json


def prior_grade_of(player: Player) -> engine.PriorGrade | None:
    return prior_grade_read(player.prior_grade_kind, player.prior_grade_level)


def starting_states(player_ids: Iterable[int]) -> dict[int, engine.PlayerState]:
    """Each player's state before the first table the site holds: his opening state, or a new player's.

    A new player carries his current prior grade, which decides his first rating (docs/rules.md §6). Read as
    values: a full re-rate asks for every player, and making a Player and an OpeningState instance for each
    was half of this function's time.
    """
    ids = set(player_ids)
    out: dict[int, engine.PlayerState] = {}
    openings = OpeningState.objects.filter(player_id__in=ids_in(sorted(ids))).values_list(
        "player_id", "state", "player__prior_grade_kind", "player__prior_grade_level"
    )
    for pid, data, kind, level in openings:
        state = state_from_json(data)
        if state.games == 0:
            # A migrated player who never played: his prior grade is still to be used, so the one on his
            # record (which a rating officer may have corrected since) is the one that counts.
            state = state._replace(prior_grade=prior_grade_read(kind, level))
        out[pid] = state
    missing = ids - out.keys()
    if missing:
        players = Player.objects.filter(pk__in=ids_in(sorted(missing))).values_list(
            "pk", "prior_grade_kind", "prior_grade_level"
        )
        for pid, kind, level in players:
            out[pid] = engine.PlayerState(prior_grade=prior_grade_read(kind, level))
    return out


def before_position(date: dt.date, sequence: int) -> Q:
    """Rating rows of tables that come before the position (date, sequence)."""
    return Q(date__lt=date) | Q(date=date, sequence__lt=sequence)


def states_before(*, date: dt.date, sequence: int, player_ids: Iterable[int]) -> dict[int, engine.PlayerState]:
    """Each player's state as it stood before the table position (date, sequence)."""
    ids = set(player_ids)
    out = {pid: state_from_json(state) for pid, state in states_before_json(date, sequence, ids).items()}
    missing = ids - out.keys()
    if missing:
        out.update(starting_states(missing))
    return out


def states_before_json(
    date: dt.date, sequence: int, player_ids: Iterable[int], links: dict[int, dt.date | None] | None = None
) -> dict[int, dict[str, Any]]:
    """The state after (as stored JSON) of each player's latest rating row before the position (date,
    sequence); a player with no such row is left out (his state is his starting state). ``links``, if given,
    gets each found row's ``valid_until`` by player (None: found only by the search for his latest row).

    The row a player's state before the position comes from is valid on the position's date: its
    ``valid_until``, the date of his next row, is on or after it (ratings/services/rerate/validity.py). So it
    is found by one short range of the validity index per player, instead of a sort of every row he has before
    the position; a correction one year back asks this for the thousands of players of the later tables. A
    player found that way is not looked for again; the others (most of them have no row before the position at
    all) by their latest row, which also covers a row whose next row was deleted and not re-rated yet.
    """
    ids = sorted(set(player_ids))
    n = rating_row_columns()
    day = date_param(date)
    before = f"({n['date']} < %s OR ({n['date']} = %s AND {n['sequence']} < %s))"
    out: dict[int, dict[str, Any]] = {}
    at: dict[int, tuple[Any, int]] = {}
    for batch in id_batches(ids, as_array=True):
        players, params = ids_condition(n["player"], batch)
        rows = _fetch(
            f"SELECT {n['player']}, {n['date']}, {n['sequence']}, {n['valid']}, {n['after']} "  # noqa: S608
            f"FROM {n['table']} WHERE {players} AND {n['valid']} >= %s AND {before}",
            [*params, day, day, day, sequence],
        )
        for pid, row_date, row_sequence, valid, state in rows:
            if pid not in at or (row_date, row_sequence) > at[pid]:
                at[pid], out[pid] = (row_date, row_sequence), state
                if links is not None:
                    links[pid] = as_date(valid)
    missing = [pid for pid in ids if pid not in out]
    for batch in id_batches(missing, as_array=True):
        players, params = ids_condition(n["player"], batch)
        rows = _fetch(
            f"SELECT player_id, state FROM (SELECT {n['player']} AS player_id, {n['after']} AS state, "  # noqa: S608
            f"ROW_NUMBER() OVER (PARTITION BY {n['player']} ORDER BY {n['date']} DESC, {n['sequence']} DESC) "
            f"AS place FROM {n['table']} WHERE {players} AND {before}) AS latest WHERE place = 1",
            [*params, day, day, sequence],
        )
        out.update(rows)
        if links is not None:
            links.update((pid, None) for pid, _state in rows)
    return out


def rating_row_columns() -> dict[str, str]:
    """The rating rows' table and columns, quoted, for the raw SQL that reads or relinks them; ``after`` is
    the state after as JSON text."""
    quote = connection.ops.quote_name

    def column(name: str) -> str:
        return quote(db_column(RatingRow, name))

    return {
        "table": quote(RatingRow._meta.db_table),
        "id": column("id"),
        "table_id": column("table"),
        "player": column("player"),
        "date": column("date"),
        "sequence": column("sequence"),
        "valid": column("valid_until"),
        "after": json_column(column("state_after")),
    }


def _fetch(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """The rows, their last column JSON text parsed."""
    return [(*row[:-1], json_value(row[-1])) for row in raw_rows(sql, params)]
