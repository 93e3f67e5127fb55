"""Each rating row's validity: ``valid_until``, the date of the player's next row (ratings/models.py).

A list of a past date reads, for every player, the one row with ``date <= D < valid_until``: an indexed range
read instead of a search for each player's latest row (ratings/selectors/list_values.py). A full re-rate writes
the rows linked (ratings/services/rerate/rows.py). A partial one writes each new row with the link the player's
old row in that table had, and relinks with one set-based UPDATE (:func:`rating_rows_link`) only the players
whose rows came or went, or whose stored links no longer hold (a table of theirs deleted or moved since:
``replay.links_broken``); ``rerate --check`` compares the column with what the rows give
(:func:`rating_rows_link_differences`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from ratings.db import as_date, date_param, execute, id_batches, ids_condition, raw_rows
from ratings.models import VALID_FOREVER
from ratings.selectors.states import rating_row_columns


def _chain(since: dt.date | None, players: Sequence[int] | None = None) -> tuple[str, list[Any]]:
    """SELECT id, the stored and the right valid_until of the rows whose next row may have changed on or after
    ``since`` (None: every row). Those are, for each player with a row on or after ``since`` or pointing to
    one, his rows from the last one before ``since`` on: a suffix of his rows, so the next row is in it.
    ``players``: only these players' rows (with ``since``)."""
    n = rating_row_columns()
    forever = date_param(VALID_FOREVER)
    scope, params = "", [forever]
    if since is not None and players is not None:
        condition, ids = ids_condition(n["player"], players)
        scope = f"WHERE {n['valid']} >= %s AND {condition}"
        params += [date_param(since), *ids]
    elif since is not None:
        scope = (
            f"WHERE {n['valid']} >= %s AND {n['player']} IN (SELECT {n['player']} FROM {n['table']} "  # noqa: S608
            f"WHERE {n['date']} >= %s OR ({n['valid']} >= %s AND {n['valid']} < %s))"
        )
        params += [date_param(since), date_param(since), date_param(since), forever]
    sql = (
        f"SELECT {n['id']} AS row_id, {n['player']} AS player_id, {n['table_id']} AS table_id, "  # noqa: S608
        f"{n['valid']} AS stored, LEAD({n['date']}, 1, %s) OVER (PARTITION BY {n['player']} "
        f"ORDER BY {n['date']}, {n['sequence']}) AS next_date FROM {n['table']} {scope}"
    )
    return sql, params


def rating_rows_link(*, since: dt.date | None = None, players: Iterable[int] | None = None) -> int:
    """Set ``valid_until`` of every row whose next row may have changed on or after ``since`` (None: all);
    returns the number of rows changed. In the caller's transaction.

    ``players`` (with ``since``): only these players' rows, one UPDATE per few thousand of them. A partial
    re-rate names the players whose rows it wrote or deleted: the others' rows are linked already, and a
    correction one year back would otherwise read again every row since then of every player active since.
    """
    n = rating_row_columns()
    groups: Iterable[Sequence[int] | None] = [None]
    if players is not None and since is not None:
        groups = id_batches(sorted(set(players)), as_array=True)
    changed = 0
    for group in groups:
        chain, params = _chain(since, group)
        changed += execute(
            f"UPDATE {n['table']} SET {n['valid']} = chain.next_date FROM ({chain}) AS chain "  # noqa: S608
            f"WHERE {n['table']}.{n['id']} = chain.row_id AND {n['table']}.{n['valid']} <> chain.next_date",
            params,
        )
    return changed


def rating_rows_link_differences() -> list[tuple[int, int, dt.date, dt.date]]:
    """(player, table, stored, right) for every row whose ``valid_until`` is not the date of the next row."""
    chain, params = _chain(None)
    rows = raw_rows(f"SELECT player_id, table_id, stored, next_date FROM ({chain}) AS chain", params)  # noqa: S608
    out = []
    for player_id, table_id, stored, right in rows:
        stored, right = as_date(stored), as_date(right)
        if stored != right:
            out.append((player_id, table_id, stored, right))
    return out
