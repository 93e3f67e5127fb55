"""Writing rating rows fast: plain tuples, JSON made once, COPY on PostgreSQL, one prepared INSERT on SQLite.

The ORM's bulk_create builds a model instance and a parameter list per row and spends more time on that than
the database spends writing; a full re-rate writes 10^5 rows or more. And the writing overlaps the rating:
``RowWriter`` hands each batch to a thread of its own that writes it through the same database connection,
inside the same transaction, while the engine rates the next tables. Python holds one thread at a time, but
the database's share of the work (PostgreSQL's server process, SQLite's own code, which releases it) runs
beside the engine on another core.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
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
    """Replaces the rows of redone tables in batches, each written in the background while the replay goes on.

    ``replace_all``: the whole history is redone; every row goes first, in one statement. Use it as a context
    manager and touch the database only after it is closed: until then its thread may be using the connection
    (the replay itself reads nothing). Leaving the block waits for the last write and raises its error.
    """

    BATCH = 20000

    def __init__(self, *, replace_all: bool) -> None:
        self.replace_all = replace_all
        self.rows: list[tuple[Any, ...]] = []
        self.tables: list[int] = []
        self.written = 0
        self.peaks: dict[int, int] = {}  # each player's highest rating after a table among the rows written
        self._sql = _Statements()
        connection.ensure_connection()
        self._raw = connection.connection  # the same connection, hence the same transaction, in the thread
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rating-rows")
        self._job: Future[None] | None = None
        if replace_all:
            self._submit(lambda cursor: self._sql.delete(cursor, None))

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:
            if kind is None:
                self.flush()
            self._wait(raise_error=kind is None)
        finally:
            self._thread.shutdown(wait=True)

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
        """Hand the rows gathered so far to the thread (after the batch before them is written)."""
        rows, tables = self.rows, None if self.replace_all else self.tables
        self.rows, self.tables = [], []
        self.written += len(rows)

        def write(cursor: Any) -> None:
            if tables:
                self._sql.delete(cursor, tables)
            self._sql.insert(cursor, rows)

        self._submit(write)

    def _submit(self, work: Callable[[Any], None]) -> None:
        self._wait(raise_error=True)

        def run() -> None:
            with closing(self._raw.cursor()) as cursor:
                work(cursor)

        self._job = self._thread.submit(run)

    def _wait(self, *, raise_error: bool) -> None:
        job, self._job = self._job, None
        if job is None:
            return
        error = job.exception()  # waits
        if error is not None and raise_error:
            raise error
