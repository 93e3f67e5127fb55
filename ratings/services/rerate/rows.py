"""Writing rating rows fast: plain tuples, JSON made once, COPY on PostgreSQL, one prepared INSERT on SQLite.

The ORM's bulk_create builds a model instance and a parameter list per row and spends more time on that than
the database spends writing; a full re-rate writes 10^5 rows or more. ``RowWriter`` gathers the rows of the
redone tables and writes them in batches, on the caller's connection, inside its transaction.

On PostgreSQL the rows of a batch go through a COPY that stays open while the replay goes on, with psycopg's
queued writer: the rows go into the writer's queue and a thread of psycopg's sends them, so the server stores one
batch while the engine rates the next. The two take about as long (10^5 rows: some seconds each), and running
them side by side, on two cores, is most of what brings a full re-rate within twice the time of writing its rows
alone. A partial re-rate ends the COPY before the next batch deletes the old rows of its tables; a full re-rate
deletes every row first, and one COPY takes all its rows. While a COPY is open the connection can run nothing
else: a query made meanwhile is refused with an error (psycopg would wait for the COPY's lock forever).

In a full re-rate the writer also gives every row its ``valid_until`` (the date of the player's next row,
ratings/services/rerate/validity.py) as it goes: it sees every row in the order of the history, so the rows
come out linked and the set-based UPDATE that links the rows of a partial re-rate is not needed. A player's
latest row is held back until his next row, or the end, tells its ``valid_until``, so every row is written once
and never updated (at most one row a player is held). In a partial re-rate a row takes the link of the
player's old row in its table (the caller relinks the players for whom that is not right).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from contextlib import ExitStack, closing
from functools import partial
from types import TracebackType
from typing import Any

from django.db import connection
from psycopg.copy import QueuedLibpqWriter

from ratings import engine
from ratings.models import VALID_FOREVER, RatingRow, db_column

from .replay import Item, TableInfo, chunks, json_text

ROW_COLUMNS = (
    "table_id", "player_id", "date", "sequence", "method", "rating_before", "rating_after", "change", "performance",
    "rated_games", "score", "games_before", "games_after", "grade_before", "grade_after", "state_before",
    "state_after", "detail",
)  # fmt: skip
"""The columns of a row tuple for ``rating_rows_insert``; the last three are JSON text."""


class _Statements:
    """The SQL of the writes, made once, for the connection's own driver (its own parameter marks)."""

    def __init__(self, columns: Sequence[str] = ROW_COLUMNS) -> None:
        quote = connection.ops.quote_name
        column = partial(db_column, RatingRow)
        self.vendor = connection.vendor
        self.table = quote(RatingRow._meta.db_table)
        self.width = len(columns)
        self.columns = ", ".join(quote(column(c)) for c in columns)
        self.table_column = quote(column("table"))
        self.mark = "%s" if self.vendor == "postgresql" else "?"

    def copy(self, cursor: Any, **kwargs: Any) -> Any:
        """PostgreSQL: the COPY of rows into the table (a context manager), with psycopg's options."""
        return cursor.copy(f"COPY {self.table} ({self.columns}) FROM STDIN", **kwargs)

    def insert(self, cursor: Any, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        if self.vendor == "postgresql":
            with self.copy(cursor) as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join([self.mark] * self.width)
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

    ``replace_all``: the whole history is redone; every row goes first, in one statement, and the rows are
    written with their ``valid_until`` (``linked`` is then True: the caller need not link them). Use it as a
    context manager: leaving the block without an error writes the last batch.

    On PostgreSQL a batch's COPY stays open after its rows are queued, until the next batch must delete the
    old rows of its tables, or the block ends (a full re-rate deletes nothing: one COPY takes all its rows).
    Meanwhile no other query may run on the connection: the module's docstring says why.
    """

    BATCH = 5000

    def __init__(self, *, replace_all: bool, links: dict[tuple[int, int], dt.date] | None = None) -> None:
        self.replace_all = self.linked = replace_all
        # Partial re-rate: the valid_until a new row takes, by (table, player): his old row's in that table,
        # right unless his rows came or went (the caller relinks those players); until further notice if none.
        self.links = links if links is not None else {}
        self.rows: list[tuple[Any, ...]] = []
        self.tables: list[int] = []
        self.written = 0
        self.peaks: dict[int, int] = {}  # each player's highest rating after a table among the rows written
        # Full re-rate only: each row's valid_until, by index in ``rows``, and each player's latest row, as its
        # index in ``rows``: that row stays in ``rows`` (held) until a later row of his gives its valid_until.
        self._valid: list[Any] = []
        self._latest: dict[int, int] = {}
        self._held = 0  # rows kept back by the last flush, at the start of ``rows``
        self._forever = connection.ops.adapt_datefield_value(VALID_FOREVER)
        self._sql = _Statements((*ROW_COLUMNS, "valid_until"))
        self._copying = ExitStack()  # the open COPY, its cursor and the guard against other queries
        self._open_copy: Any = None  # the open COPY, if any

    def __enter__(self) -> RowWriter:
        if self.replace_all:
            connection.ensure_connection()
            with closing(connection.connection.cursor()) as cursor:
                self._sql.delete(cursor, None)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if kind is not None:
            self._open_copy = None
            self._copying.__exit__(kind, error, trace)  # the COPY fails with the error
            return
        self.flush(last=True)
        self._end_copy()

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
            if self.replace_all:
                self._link(o.key, date)
            else:
                valid = self.links.get((table.pk, o.key))
                row = (*row, self._forever if valid is None else connection.ops.adapt_datefield_value(valid))
            self.rows.append(row)
        if len(self.rows) - self._held >= self.BATCH:
            self.flush()

    def _link(self, player: int, date: Any) -> None:
        """The player's previous row is valid until ``date``; the row about to be added, until further notice."""
        previous = self._latest.get(player)
        if previous is not None:
            self._valid[previous] = date
        self._latest[player] = len(self.rows)
        self._valid.append(self._forever)

    def flush(self, *, last: bool = False) -> None:
        """Write the rows gathered so far, after deleting the old rows of their tables; in a full re-rate, all
        but each player's latest row unless ``last``."""
        rows, tables = self.rows, None if self.replace_all else self.tables
        if self.replace_all:
            kept = [] if last else sorted(self._latest.values())  # each player's latest row, held back
            moved = {at: i for i, at in enumerate(kept)}  # its index in ``rows`` after the flush
            rows = [(*row, self._valid[i]) for i, row in enumerate(self.rows) if i not in moved]
            self.rows = [self.rows[i] for i in kept]
            self._valid = [self._valid[i] for i in kept]
            self._latest = {} if last else {player: moved[at] for player, at in self._latest.items()}
            self._held = len(kept)
        else:
            self.rows = []
        self.tables = []
        self.written += len(rows)
        if tables:
            self._end_copy()  # the previous batch's rows must be in before this one's tables are emptied
        connection.ensure_connection()
        if self._sql.vendor != "postgresql":
            with closing(connection.connection.cursor()) as cursor:
                if tables:
                    self._sql.delete(cursor, tables)
                self._sql.insert(cursor, rows)
            return
        if tables:
            with closing(connection.connection.cursor()) as cursor:
                self._sql.delete(cursor, tables)
        if rows:
            copy = self._copy()
            for row in rows:
                copy.write_row(row)

    def _copy(self) -> Any:
        """The open COPY, opened if need be, with psycopg's queued writer: a row written goes into its queue."""
        if self._open_copy is None:
            with ExitStack() as stack:
                # The driver's own cursor: Django's wrapper would check and convert every parameter of 10^5 rows.
                cursor = stack.enter_context(closing(connection.connection.cursor()))
                self._open_copy = stack.enter_context(self._sql.copy(cursor, writer=QueuedLibpqWriter(cursor)))
                stack.enter_context(connection.execute_wrapper(_refused_during_copy))
                self._copying = stack.pop_all()
        return self._open_copy

    def _end_copy(self) -> None:
        """End the open COPY, if any: wait until the server has every row queued (or raise its error)."""
        self._open_copy = None
        self._copying.close()


def _refused_during_copy(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
    """Django's queries while the writer's COPY is open: an error, rather than waiting forever."""
    raise RuntimeError(f"the rating rows' COPY holds the connection until the writer ends it; refused: {sql[:80]}")
