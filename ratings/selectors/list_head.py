"""A past date's rating list read from its top: its first players in list order, and how many it holds, without
reading every player's row of that date.

``list_values`` (list_values.py) gives each public player his values of a past date: those of his rating row
valid on it, else those of his opening state (a migrated FESA list). Ordering all of them by rating reads one row
per player, 20,000 index searches at 20,000 players, to show fifty. Here the rows valid on the date are read
highest rating first from the index on the rows' rating (``rating_row_rating_idx``), so the first page stops
after a thousand or so index entries; the players whose values still come from their opening state (the migrated
list's players, in its first two years) are read apart and merged in. How many the list holds is counted from
the index on the rows' date (``rating_row_date_valid_idx``).

Only the FESA list (active players) is read so: it holds only rows dated within the two years before its date.
Every player's list (``active=False``) holds every row valid on the date and is read whole.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

from django.db import connection

from ratings.db import date_param, index_hint, raw_rows
from ratings.engine.categories import category_of_games, is_ranked
from ratings.models import LEFT_OUT_OF_LISTS, OpeningState, Player, RatingRow, db_column
from ratings.selectors.list_values import active_cutoff
from ratings.selectors.states import rating_row_columns

HeadRow = tuple[int, str, str]  # (player, nationality, category)


def list_head(date: dt.date, limit: int) -> list[HeadRow]:
    """The first ``limit`` players of the FESA list of the past ``date`` in list order (highest rating, then
    the state list's order, then id), as ``list_order`` reads them of ``list_values``: one query."""
    n, left_out = _names(), _left_out()
    hint = index_hint("rating_row_rating_idx")  # see _names
    by_row = (
        f"SELECT r.{n['player']}, p.{n['nationality']}, r.{n['rating']}, p.{n['list_order']}, "  # noqa: S608
        f"r.{n['method']} = %s, r.{n['games']} "
        f"FROM {n['rows']} r {hint} JOIN {n['players']} p ON p.{n['pk']} = r.{n['player']} "
        f"WHERE {_valid_rows('r.', n, left_out[0])} "
        f"ORDER BY r.{n['rating']} DESC, p.{n['list_order']}, r.{n['player']} LIMIT %s"
    )
    by_opening = (
        f"SELECT o.{n['o_player']}, p.{n['nationality']}, o.{n['o_rating']}, p.{n['list_order']}, "
        f"o.{n['o_unrated']}, o.{n['o_games']} {_openings(n, left_out[0], ordered=True)} "
        f"ORDER BY o.{n['o_rating']} DESC, p.{n['list_order']}, o.{n['o_player']} LIMIT %s"
    )
    rows_params, openings_params = _params(date, left_out[1])
    rows = raw_rows(
        f"SELECT * FROM ({by_row}) a UNION ALL SELECT * FROM ({by_opening}) b",  # noqa: S608
        [RatingRow.Method.PERFORMANCE, *rows_params, limit, *openings_params, limit],
    )
    head = sorted(rows, key=lambda r: (-r[2], r[3], r[0]))[:limit]
    return [
        (pk, country, category_of_games(games, on_result_list=bool(unrated)))
        for pk, country, _rating, _order, unrated, games in head
    ]


def list_counts(date: dt.date) -> tuple[int, int]:
    """(players, ranked players) on the FESA list of the past ``date``: the players of ``list_head`` without a
    limit, and those of them whose rating rests on enough games (docs/rules.md §8): one query."""
    n, left_out = _names(), _left_out()
    by_row = (
        f"SELECT COUNT(*), COUNT(CASE WHEN {n['method']} <> %s THEN 1 END) FROM {n['rows']} "  # noqa: S608
        f"WHERE {_valid_rows('', n, left_out[0])}"
    )
    by_opening = f"SELECT COUNT(*), COUNT(CASE WHEN NOT o.{n['o_unrated']} THEN 1 END) {_openings(n, left_out[0])}"
    rows_params, openings_params = _params(date, left_out[1])
    counts = raw_rows(
        f"{by_row} UNION ALL {by_opening}", [RatingRow.Method.PERFORMANCE, *rows_params, *openings_params]
    )
    return sum(c[0] for c in counts), sum(c[1] for c in counts)


def ranked_head(date: dt.date, wanted: int) -> list[HeadRow]:
    """The list's first players in list order, as many as hold its first ``wanted`` ranked players (or the whole
    list): the players rated by performance among them take no public rank but count for the others' ranks."""
    limit = wanted + 50
    while True:
        head = list_head(date, limit)
        if len(head) < limit or sum(is_ranked(category) for _pk, _country, category in head) >= wanted:
            return head
        limit *= 2


def _valid_rows(alias: str, n: dict[str, str], left_out: str) -> str:
    """The rating rows valid on the date (``date <= D < valid_until``), dated on or after the cutoff, of players
    not ``left_out`` (a query of ids): the list's players by their row."""
    return (
        f"{alias}{n['date']} <= %s AND {alias}{n['date']} >= %s AND {alias}{n['valid']} > %s "
        f"AND {alias}{n['player']} NOT IN ({left_out})"
    )


def _openings(n: dict[str, str], left_out: str, *, ordered: bool = False) -> str:
    """FROM and WHERE of the players on the list by their opening state: dated within the two years before the
    date, and without a rating row valid on it (``list_values``: the row's values come first); ``ordered``: with
    their players, to be read in the list's order.

    A player has a row valid on the date if and only if he has one dated on or before it (his latest such row is
    valid until his next row's date, after it: ratings/services/rerate/validity.py): if his first row's date,
    which his opening state keeps (``first_rated``) and both indexes carry, is on or before it: looking for such a
    row instead reads every row up to the date."""
    if ordered:  # in the list's order: by the index on their rating, highest first (see _names)
        hint = index_hint("opening_state_rating_idx")
        source = f"{n['openings']} o {hint} JOIN {n['players']} p ON p.{n['pk']} = o.{n['o_player']}"
    else:  # counted: by the index on their date
        source = f"{n['openings']} o"
    return (
        f"FROM {source} "
        f"WHERE o.{n['o_last_played']} <= %s AND o.{n['o_last_played']} >= %s "
        f"AND o.{n['o_player']} NOT IN ({left_out}) "
        f"AND (o.{n['o_first_rated']} IS NULL OR o.{n['o_first_rated']} > %s)"
    )


def _params(date: dt.date, left_out: tuple[Any, ...]) -> tuple[list[Any], list[Any]]:
    """The parameters of ``_valid_rows`` and of ``_openings``, in their order (``left_out``: those of its query)."""
    day, cutoff = _day(date), _day(active_cutoff(date))
    return [day, cutoff, day, *left_out], [day, cutoff, *left_out, day]


def _left_out() -> tuple[str, tuple[Any, ...]]:
    """The query of the players the public lists leave out (``LEFT_OUT_OF_LISTS``: professionals and merged
    records, a few, read from their own index), and its parameters."""
    players = Player.objects.filter(LEFT_OUT_OF_LISTS).order_by().values("pk")
    return players.query.sql_with_params()


def _day(date: dt.date) -> Any:
    return date_param(date)


def _names() -> dict[str, str]:
    """The tables and columns the SQL names, quoted.

    SQLite is told which index to read the list's players from in its order (``INDEXED BY``): with its
    statistics it takes the rows of the two years by their date and sorts them all, where a first page needs
    only its top rows from the index. PostgreSQL's planner takes the indexes on the rating by itself for a LIMIT.
    """
    quote = connection.ops.quote_name
    row, player, opening = partial(db_column, RatingRow), partial(db_column, Player), partial(db_column, OpeningState)
    rows = rating_row_columns()  # the rows' table, player, date and validity
    return {
        **rows,
        "rows": rows["table"],
        "players": quote(Player._meta.db_table),
        "openings": quote(OpeningState._meta.db_table),
        "pk": quote(player("id")),
        "nationality": quote(player("nationality")),
        "list_order": quote(player("list_order")),
        "rating": quote(row("rating_after")),
        "games": quote(row("games_after")),
        "method": quote(row("method")),
        "o_player": quote(opening("player")),
        "o_rating": quote(opening("rating")),
        "o_games": quote(opening("games")),
        "o_unrated": quote(opening("rated_by_performance")),
        "o_last_played": quote(opening("last_played")),
        "o_first_rated": quote(opening("first_rated")),
    }
