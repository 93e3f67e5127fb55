"""Writing rating rows fast: plain tuples, JSON made once, COPY on PostgreSQL, one prepared INSERT on SQLite.

The ORM's bulk_create builds a model instance and a parameter list per row and spends more time on that than
the database spends writing; a full re-rate writes 10^5 rows or more. ``RowWriter`` gathers the rows of the
redone tables and writes them in batches, on the caller's thread and connection, inside its transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import closing
from types import TracebackType
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


class _Statements:
    """The SQL of the writes, made once, for the connection's own driver (its own parameter marks)."""

    def __init__(self) -> None:
        quote = connection.ops.quote_name
        self.vendor = connection.vendor
        self.table = quote(RatingRow._meta.db_table)
        self.columns = ", ".join(quote(RatingRow._meta.get_field(c).column) for c in ROW_COLUMNS)
        self.table_column = quote(RatingRow._meta.get_field("table").column)
        self.mark = "%s" if self.vendor == "postgresql" else "?"

    def insert(self, cursor: Any, rows: Sequence[tuple[Any, ...]]) -> None:
        if not rows:
            return
        if self.vendor == "postgresql":
            with cursor.copy(f"COPY {self.table} ({self.columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join([self.mark] * len(ROW_COLUMNS))
            cursor.executemany(f"INSERT INTO {self.table} ({self.columns}) VALUES ({marks})", rows)  # noqa: S608

    def delete(self, cursor: Any, table_ids: Sequence[int] | None) -> None:
        """Delete the rows of these tables (None: every row)."""
        if table_ids is None:
            cursor.execute(f"DELETE FROM {self.table}")  # noqa: S608
            return
        for chunk in chunks(table_ids):
            marks = ", ".join([self.mark] * len(chunk))
            cursor.execute(f"DELETE FROM {self.table} WHERE {self.table_column} IN ({marks})", list(chunk))  # noqa: S608


def rating_rows_insert(rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert rating rows given as ``ROW_COLUMNS`` tuples (dates as the connection wants them)."""
    connection.ensure_connection()
    with closing(connection.connection.cursor()) as cursor:
        _Statements().insert(cursor, rows)


def detail_json(g: engine.GameDetail) -> dict[str, Any]:
    """A game's explanation as the rating row keeps it (the engine's GameDetail, field for field)."""
    return {
        "round": g.round, "opponent": g.opponent, "score": g.score, "opponent_rating": g.opponent_rating,
        "effective_rating": g.effective_rating, "handicap": g.handicap, "handicap_given": g.handicap_given,
        "rating_before_game": g.rating_before_game, "expected": g.expected, "k": g.k, "change": g.change,
        "upset": g.upset, "bonus": g.bonus,
    }  # fmt: skip


class RowWriter:
    """Replaces the rows of redone tables in batches, on the caller's connection and in its transaction.

    ``replace_all``: the whole history is redone; every row goes first, in one statement. Use it as a context
    manager: leaving the block without an error writes the last batch. Everything happens on the calling
    thread: a DB-API connection is not meant to be shared between threads, and the batches make the
    writing cheap enough that overlapping it with the rating is not worth that risk.
    """

    BATCH = 20000

    def __init__(self, *, replace_all: bool) -> None:
        self.replace_all = replace_all
        self.rows: list[tuple[Any, ...]] = []
        self.tables: list[int] = []
        self.written = 0
        self.peaks: dict[int, int] = {}  # each player's highest rating after a table among the rows written
        self._sql = _Statements()
        if replace_all:
            connection.ensure_connection()
            with closing(connection.connection.cursor()) as cursor:
                self._sql.delete(cursor, None)

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if kind is None:
            self.flush()

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
        """Write the rows gathered so far, after deleting the old rows of their tables."""
        rows, tables = self.rows, None if self.replace_all else self.tables
        self.rows, self.tables = [], []
        self.written += len(rows)
        connection.ensure_connection()
        # The driver's own cursor: Django's wrapper would check and convert every parameter of 10^5 rows.
        with closing(connection.connection.cursor()) as cursor:
            if tables:
                self._sql.delete(cursor, tables)
            self._sql.insert(cursor, rows)
