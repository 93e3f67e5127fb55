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

The writer also tells whose rows it changed (``changes``): a partial re-rate's DELETE returns the old rows'
figures, compared with the new ones table by table; a full re-rate reads the old figures once, as they go, before
it deletes them: a small part of its time, next to rating and writing every row.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from types import TracebackType
from typing import Any

from ratings import engine
from ratings.db import RowStream, date_param, json_text, rows_delete, rows_insert, rows_read
from ratings.models import VALID_FOREVER, RatingRow

from .replay import Item, TableInfo

ROW_COLUMNS = (
    "table_id", "player_id", "date", "sequence", "method", "rating_before", "rating_after", "change", "performance",
    "rated_games", "score", "games_before", "games_after", "grade_before", "grade_after", "state_before",
    "state_after", "detail",
)  # fmt: skip
"""The columns of a row tuple for ``rating_rows_insert``; the last three are JSON text."""
FIGURES = slice(4, 15)
"""A row tuple's figures, as a subscriber reads them: method to grade after, in ``ROW_COLUMNS`` order. Not the
states, whose inner counters a reader never sees, nor the per-game detail: a game's result or opponent that
changed moves the score, the rated games or the rating, and the detail is most of a row's bytes, which a full
re-rate would read back."""
FIGURE_COLUMNS = ("table_id", "player_id", *ROW_COLUMNS[FIGURES])
_MASK = (1 << 64) - 1


def rating_rows_insert(rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert rating rows given as ``ROW_COLUMNS`` tuples (dates as the connection wants them)."""
    rows_insert(RatingRow, ROW_COLUMNS, rows)


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
        self._forever = date_param(VALID_FOREVER)
        self._stream = RowStream(RatingRow, (*ROW_COLUMNS, "valid_until"))
        # The players whose rows came, went or changed their figures, with those tables (``changes``). A full
        # re-rate tells them by an order-free sum of their rows' hashes, before and after: its 10^6 old rows
        # are read once as they go, not kept.
        self._changed: dict[int, set[int]] = defaultdict(set)
        self._sums: tuple[dict[int, int], dict[int, int]] = ({}, {})

    def __enter__(self) -> RowWriter:
        if self.replace_all:
            before = self._sums[0]
            for table_id, pid, *figures in rows_read(RatingRow, FIGURE_COLUMNS):
                before[pid] = (before.get(pid, 0) + hash((table_id, pid, *figures))) & _MASK
            rows_delete(RatingRow, "table_id", None)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if kind is not None:
            assert error is not None
            self._stream.abort(kind, error, trace)  # the COPY fails with the error
            return
        self.flush(last=True)
        self._stream.close()

    def add(self, table: TableInfo, items: list[Item]) -> None:
        """The new rows of a redone table (none when it failed: its old rows go all the same)."""
        self.tables.append(table.pk)
        date = date_param(table.date)
        peaks = self.peaks
        for pid, o, before_text, after_text, _data in items:
            b, a = o.before, o.after
            if a.rating > peaks.get(pid, 0):
                peaks[pid] = a.rating
            detail = json_text([detail_json(g) for g in o.games])
            # In ROW_COLUMNS order.
            row: tuple[Any, ...] = (
                table.pk, pid, date, table.sequence, o.method, b.rating, a.rating, o.change, o.performance,
                len(o.games), o.score, b.games, a.games, b.grade, a.grade, before_text, after_text, detail,
            )  # fmt: skip
            if self.replace_all:
                self._link(pid, date)
                after = self._sums[1]
                after[pid] = (after.get(pid, 0) + hash((table.pk, pid, *row[FIGURES]))) & _MASK
            else:
                valid = self.links.get((table.pk, pid))
                row = (*row, self._forever if valid is None else date_param(valid))
            self.rows.append(row)
        if len(self.rows) - self._held >= self.BATCH:
            self.flush()

    def changes(self) -> dict[int, set[int]]:
        """The players whose rows the writer changed: a row of theirs came, went or has other figures
        (``FIGURES``), with those tables; after a full re-rate, without the tables."""
        if not self.replace_all:
            return self._changed
        before, after = self._sums
        return {pid: set() for pid in before.keys() | after.keys() if before.get(pid) != after.get(pid)}

    def _compare(self, deleted: Sequence[tuple[Any, ...]], rows: Sequence[tuple[Any, ...]]) -> None:
        """Note the players whose rows in these tables came, went or changed (the old ones ``deleted``)."""
        old = {(table_id, pid): tuple(figures) for table_id, pid, *figures in deleted}
        for row in rows:
            if old.pop((row[0], row[1]), None) != row[FIGURES]:
                self._changed[row[1]].add(row[0])
        for table_id, pid in old:
            self._changed[pid].add(table_id)

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
            self._stream.close()  # the previous batch's rows must be in before this one's tables are emptied
            self._compare(rows_delete(RatingRow, "table_id", tables, returning=FIGURE_COLUMNS), rows)
        self._stream.write(rows)
