"""Writing rating rows fast: plain tuples, JSON made once, COPY on PostgreSQL, one prepared INSERT on SQLite.

The ORM's bulk_create builds a model instance and a parameter list per row and spends more time on that than
the database spends writing; a full re-rate writes 10^5 rows or more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection

from ratings import engine
from ratings.models import RatingRow

from .replay import Item, TableInfo, chunks, json_text

ROW_COLUMNS = (
    "table_id", "player_id", "date", "sequence", "method", "rating_before", "rating_after", "change", "performance",
    "rated_games", "score", "games_before", "games_after", "grade_before", "grade_after", "state_before",
    "state_after", "detail",
)  # fmt: skip
"""The columns of a row tuple for ``rating_rows_insert``; the last three are JSON text."""


def rating_rows_insert(rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert rating rows given as ``ROW_COLUMNS`` tuples (dates as the connection wants them)."""
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(RatingRow._meta.db_table)
    columns = ", ".join(quote(RatingRow._meta.get_field(c).column) for c in ROW_COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(ROW_COLUMNS))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)  # noqa: S608


def detail_json(g: engine.GameDetail) -> dict[str, Any]:
    """A game's explanation as the rating row keeps it (the engine's GameDetail, field for field)."""
    return {
        "round": g.round, "opponent": g.opponent, "score": g.score, "opponent_rating": g.opponent_rating,
        "effective_rating": g.effective_rating, "handicap": g.handicap, "handicap_given": g.handicap_given,
        "rating_before_game": g.rating_before_game, "expected": g.expected, "k": g.k, "change": g.change,
        "upset": g.upset, "bonus": g.bonus,
    }  # fmt: skip


class RowWriter:
    """Replaces the rows of redone tables in batches, so that a full re-rate never holds them all at once.

    ``replace_all``: the whole history is redone; every row goes first, in one statement.
    """

    BATCH = 20000

    def __init__(self, *, replace_all: bool) -> None:
        self.replace_all = replace_all
        self.rows: list[tuple[Any, ...]] = []
        self.tables: list[int] = []
        self.written = 0
        self.peaks: dict[int, int] = {}  # each player's highest rating after a table among the rows written
        if replace_all:
            RatingRow.objects.all()._raw_delete(RatingRow.objects.db)  # no signals or cascades to honour

    def add(self, table: TableInfo, items: list[Item]) -> None:
        """The new rows of a redone table (none when it failed: its old rows go all the same)."""
        self.tables.append(table.pk)
        date = connection.ops.adapt_datefield_value(table.date)
        peaks = self.peaks
        for o, before_text, after_text, _data in items:
            b, a = o.before, o.after
            if a.rating > peaks.get(o.key, 0):
                peaks[o.key] = a.rating
            detail = json_text([detail_json(g) for g in o.games])
            # In ROW_COLUMNS order.
            row = (table.pk, o.key, date, table.sequence, o.method, b.rating, a.rating, o.change, o.performance,
                   len(o.games), o.score, b.games, a.games, b.grade, a.grade, before_text, after_text,
                   detail)  # fmt: skip
            self.rows.append(row)
        if len(self.rows) >= self.BATCH:
            self.flush()

    def flush(self) -> None:
        if not self.replace_all:
            for chunk in chunks(self.tables):
                RatingRow.objects.filter(table_id__in=chunk)._raw_delete(RatingRow.objects.db)
        rating_rows_insert(self.rows)
        self.written += len(self.rows)
        self.rows, self.tables = [], []
