"""The replay of only the tables a change reaches, for a preview: what ``Replay`` computes, reading far less.

``Replay`` reads every table from the start with its games and stored states, and compares each player's state
with the stored one at each table. A merge of a player with 20 years of history so read the whole federation's
games and rows to redo a quarter of its tables. Here a table is read only when the replay must look at it:

- a player is *clean* while his state is the one his stored rows give: then the next of his stored rows starts
  from it (the re-rate writes each row's state before equal to the state after of the player's previous row),
  and a table all of whose players are clean is one the full replay would skip, so it is not read at all;
- a player is *dirty* (his state kept here) from a redone table that leaves him with another state than his
  stored row's, from a table he has no stored row in, and where his stored rows' order no longer holds: a row
  whose ``valid_until`` is not the date of his next row in the history's order (a table moved or deleted since
  the rows were written, as ``links_broken`` finds them for the re-rate). Each dirty player's next table is
  looked at, and compared with its stored states exactly as ``Replay`` compares them;
- the changed (flagged) tables, the tables not rated yet and the players given (a merged player) are looked
  at from the start, their players' states read as they stood before it.

The tables looked at are read in batches: the ones waiting to be looked at, with the few tables after the next
one of each dirty player (a player's state mostly differs for a few tables before it is the stored one again).
"""

from __future__ import annotations

import bisect
import datetime as dt
import heapq
import itertools
import logging
import time
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, cast

from django.db import connection

from ratings import engine
from ratings.db import (
    arrays,
    as_date,
    batched_load,
    date_param,
    id_batches,
    ids_condition,
    json_column,
    json_value,
    raw_rows,
)
from ratings.models import VALID_FOREVER, RatingRow, TableStatus, db_column
from ratings.models.states import state_from_json, state_to_json
from ratings.selectors.states import rating_row_columns, starting_states, states_before

from .replay import (
    History,
    Position,
    StoredRows,
    TableInfo,
    cycle_json,
    failure_message,
    live_resolutions,
    name_off_scale,
    stored_rows,
)

log = logging.getLogger(__name__)

AHEAD = 4  # tables after a dirty player's next one read with it: a change mostly goes on a few tables
Entering = engine.PlayerState | dict[str, Any]
"""A player's state as he enters a table: kept here as the engine's, or read from his stored row as JSON."""


class SparseReplay:
    """Replays ``history`` (made with ``load=False``) from ``start``; ``fixed``: players whose state before
    ``start`` is read from the database and kept from the start (``overrides``: given instead).

    After ``run()``: ``redone`` (tables), ``found`` (promotions), ``errors``, ``unsettled`` and ``ruled``,
    ``touched`` (players of the redone tables, before or after) and ``final_state(ids)``, as ``Replay`` has
    them; ``outcomes`` (the engine's, by redone table, none for a table that failed) when ``keep_outcomes``
    (a re-rate writes them); ``broken``, the players whose stored rows' links do not hold (a re-rate relinks
    them); ``in_range``, the players of the history's tables.

    ``compare_starts``: also look at the first table of each player whose row before ``start`` is not found,
    if the state his first stored row there starts from is not his starting state. A re-rate needs it: a
    deleted table's rows went with it, and nothing else names its players; a preview names them (``fixed``).
    """

    def __init__(
        self,
        history: History,
        start: Position,
        *,
        fixed: set[int],
        overrides: dict[int, engine.PlayerState],
        keep_outcomes: bool = False,
        compare_starts: bool = False,
    ) -> None:
        self.history, self.start = history, start
        self.keep_outcomes = keep_outcomes
        self.outcomes: dict[int, Sequence[engine.PlayerOutcome]] = {}
        self.unsettled: dict[int, dict[str, Any]] = {}  # redone tables that did not settle: their cycles
        self.ruled: set[int] = set()  # those of them rated by the rule, as resolved
        self.broken: set[int] = set()
        self.redone: list[int] = []
        self.errors: dict[int, str] = {}
        self.off_scale: dict[int, tuple[TableInfo, engine.RatingOffScale]] = {}  # their players named after the run
        self.found: list[tuple[int, int, engine.Promotion]] = []
        self.touched: set[int] = set()
        self.unchanged = 0
        self.batches = 0
        self.engine_seconds = 0.0
        self.resolved = live_resolutions()
        self.stored: StoredRows = {}
        tables = history.tables
        # Every stored row of the history's tables, without its states: (table, player) -> valid_until.
        self.valid = _row_links(tables, start[0])
        self.rows_of: dict[int, list[int]] = defaultdict(list)  # player -> indexes of the tables of his rows
        for i, t in enumerate(tables):
            for pid in self.valid.get(t.pk, ()):
                self.rows_of[pid].append(i)
        self.waiting: list[int] = []  # heap of table indexes to look at
        self.marked: set[int] = set()
        self.foreseen: set[int] = set()  # tables read with the next batch: a dirty player's next few ones
        # The players kept here from the start, and the tables looked at from the start.
        first = [i for i, t in enumerate(tables) if t.flagged or t.status != TableStatus.RATED]
        kept = set(fixed) | set(overrides)
        for i in first:
            self._mark(i)
        if first:
            self._read(first[0])
        for i in first:
            kept |= history.playing(tables[i].pk) | self.valid.get(tables[i].pk, {}).keys()
        broken, linked = self._broken(kept)
        kept |= broken
        if compare_starts:
            kept |= self._starts_changed(kept | linked)
        states = batched_load(lambda ids: states_before(date=start[0], sequence=start[1], player_ids=ids), kept)
        states.update((pid, state) for pid, state in overrides.items() if pid in states)
        self.state: dict[int, engine.PlayerState] = states  # the dirty players' states
        for pid in kept:
            self._next(pid, -1)

    def _broken(self, kept: set[int]) -> tuple[set[int], set[int]]:
        """Mark the tables around each stored row whose link to the player's next row does not hold; return the
        players, not ``kept``, whose row before the start does not lead to their first row in the history, and
        those whose row before the start was found through its link."""
        tables = self.history.tables
        out = set()
        for pid, places in self.rows_of.items():
            for here, there in itertools.pairwise(places):
                if self.valid[tables[here].pk][pid] != tables[there].date:
                    self._mark(here)
                    self._mark(there)
                    self.broken.add(pid)
            if self.valid[tables[places[-1]].pk][pid] != VALID_FOREVER:
                self.broken.add(pid)
        before = _links_before(self.start, [pid for pid in self.rows_of if pid not in kept])
        for pid, valid in before.items():
            if valid != tables[self.rows_of[pid][0]].date:
                out.add(pid)
        self.broken |= out
        return out, set(before)

    def _starts_changed(self, known: set[int]) -> set[int]:
        """The players, not ``known`` (kept already, or with a row before the start found through its link),
        whose first stored row in the history does not start from his starting state: a row of his before it
        went (a deleted table's), or his link to it does not hold. They are relinked too."""
        tables = self.history.tables
        first: dict[int, list[int]] = defaultdict(list)
        for pid, places in self.rows_of.items():
            if pid not in known:
                first[tables[places[0]].pk].append(pid)
        stored = _row_states(first, "state_before")
        starting = batched_load(starting_states, [pid for pids in first.values() for pid in pids])
        changed = {pid for pid, state in starting.items() if state_to_json(state) != stored.get(pid)}
        self.broken |= changed
        return changed

    @property
    def in_range(self) -> set[int]:
        """The players of the history's tables: those of their stored rows, and those of the tables redone."""
        return self.rows_of.keys() | self.touched

    def _mark(self, i: int) -> None:
        if i not in self.marked:
            self.marked.add(i)
            heapq.heappush(self.waiting, i)

    def _next(self, pid: int, i: int) -> None:
        """Look at the table of the player's next stored row after the table at ``i``; foresee the few after."""
        places = self.rows_of.get(pid, ())
        k = bisect.bisect_right(places, i)
        if k < len(places):
            self._mark(places[k])
            self.foreseen.update(places[k + 1 : k + 1 + AHEAD])

    def _read(self, i: int) -> None:
        """Read the table at ``i`` with the others waiting and those foreseen."""
        tables = self.history.tables
        wanted = {j for j in self.waiting} | self.foreseen
        wanted.add(i)
        self.foreseen = set()
        ids = [tables[j].pk for j in sorted(wanted) if tables[j].pk not in self.stored]
        self.history.load(ids)
        self.stored.update(stored_rows(ids))
        for pk in ids:
            self.stored.setdefault(pk, {})
        self.batches += 1

    def run(self) -> None:
        tables = self.history.tables
        while self.waiting:
            i = heapq.heappop(self.waiting)
            table = tables[i]
            if table.pk not in self.stored:
                self._read(i)
            self._look(i, table)
        name_off_scale(self.errors, self.off_scale)

    def _entering(self, pid: int, rows: dict[int, tuple[dict[str, Any], dict[str, Any]]], i: int) -> Entering:
        """The player's state as he enters the table: kept here, or his stored row's state before."""
        if pid in self.state:
            return self.state[pid]
        if pid in rows:
            return rows[pid][0]
        table = self.history.tables[i]  # a clean player without a row here: his state as the rows leave it
        return states_before(date=table.date, sequence=table.sequence, player_ids=[pid])[pid]

    def _look(self, i: int, table: TableInfo) -> None:
        rows = self.stored[table.pk]
        playing = self.history.playing(table.pk)
        players = playing | rows.keys()
        entering = {pid: self._entering(pid, rows, i) for pid in players}
        unchanged = (
            bool(rows)
            and not table.flagged
            and table.status == TableStatus.RATED
            and rows.keys() == playing
            and all(_as_json(entering[pid]) == rows[pid][0] for pid in playing)
        )
        if unchanged:
            self.unchanged += 1
            after: dict[int, Entering] = {pid: rows[pid][1] for pid in rows}
        else:
            self.redone.append(table.pk)
            self.touched.update(players)
            after = dict(entering)
            after.update(self._rate(table, playing, entering))
        for pid in players:
            state = after[pid]
            row = rows.get(pid)
            clean = (
                row is not None and _as_json(state) == row[1] and self.valid[table.pk][pid] == self._next_date(pid, i)
            )
            if clean:
                self.state.pop(pid, None)
            else:
                self.state[pid] = state if isinstance(state, engine.PlayerState) else state_from_json(state)
                self._next(pid, i)

    def _next_date(self, pid: int, i: int) -> dt.date:
        """The date the player's row at ``i`` is valid until in the history's order: his next row's table's."""
        places = self.rows_of[pid]
        k = places.index(i)
        return self.history.tables[places[k + 1]].date if k + 1 < len(places) else VALID_FOREVER

    def _rate(
        self, table: TableInfo, playing: set[int], entering: dict[int, Entering]
    ) -> dict[int, engine.PlayerState]:
        """The players' states after the table; none changed when it cannot be rated (as ``Replay``)."""
        states = {pid: _as_state(entering[pid]) for pid in playing}
        given = engine.TableInput(
            name=table.label,
            date=table.date,
            players=self.history.entries.get(table.pk, []),
            # The engine only reads it; a Mapping's keys are invariant to mypy, so ints are not Hashables there.
            states=cast(Mapping[Hashable, engine.PlayerState], states),
            games=self.history.games.get(table.pk, []),
        )
        started = time.perf_counter()
        try:
            try:
                result = engine.rate_table(given)
            except engine.TableDidNotSettle as exc:
                cycle = self.unsettled[table.pk] = cycle_json(exc)
                if not exc.cycle or self.resolved.get(table.pk) != cycle:
                    raise
                self.ruled.add(table.pk)
                result = engine.rate_table(given, by_rule=True)
        except Exception as exc:  # as ``Replay.run``: the table cannot be rated, its players pass unchanged
            if not isinstance(exc, engine.EngineError):
                log.exception("table %s (%s) failed to rate", table.pk, table.label)
            self.errors[table.pk] = failure_message(table, exc)
            if isinstance(exc, engine.RatingOffScale):
                self.off_scale[table.pk] = (table, exc)
            if self.keep_outcomes:
                self.outcomes[table.pk] = ()
            return states
        finally:
            self.engine_seconds += time.perf_counter() - started
        if self.keep_outcomes:
            self.outcomes[table.pk] = result.outcomes
        for o in result.outcomes:
            pid = cast(int, o.key)  # the engine keys the outcomes as it was given the players: by their ids
            states[pid] = o.after
            self.found.extend((pid, table.pk, p) for p in o.promotions)
        return states

    def final_state(self, ids: Iterable[int]) -> dict[int, engine.PlayerState]:
        """Each player's state after the history: kept here, or his latest stored row's state after (his
        state before the start if he has no row in the history)."""
        out = {pid: self.state[pid] for pid in ids if pid in self.state}
        tables = self.history.tables
        last: dict[int, list[int]] = defaultdict(list)
        rest = [pid for pid in ids if pid not in out]
        after: dict[int, dict[str, Any]] = {}
        for pid in rest:
            places = self.rows_of.get(pid)
            if places:
                table_id = tables[places[-1]].pk
                if table_id in self.stored:  # read already
                    after[pid] = self.stored[table_id][pid][1]
                else:
                    last[table_id].append(pid)
        after.update(_row_states(last, "state_after"))
        out.update((pid, state_from_json(data)) for pid, data in after.items())
        missing = [pid for pid in rest if pid not in after]
        if missing:
            out.update(states_before(date=self.start[0], sequence=self.start[1], player_ids=missing))
        return out


def _as_json(state: Entering) -> dict[str, Any]:
    return state_to_json(state) if isinstance(state, engine.PlayerState) else state


def _as_state(state: Entering) -> engine.PlayerState:
    return state if isinstance(state, engine.PlayerState) else state_from_json(state)


def _row_links(tables: Sequence[TableInfo], since: dt.date) -> dict[int, dict[int, dt.date]]:
    """table -> player -> valid_until of the stored rows of these tables (no states: those are read later).

    Read by the rows' date (one scan, where a list of 10^4 tables was as many index searches): a table's rows
    carry its date when it was rated, on or after ``since`` unless it moved since, and a table that moved is
    flagged (``needs_rerate``) until it is rated again, so the flagged tables' rows are asked for by table.
    The two are asked for apart: by date, the rows are read from the index on their date that carries these
    columns (``rating_row_date_links_idx``), not from the wide rows themselves (a gigabyte at 20,000 players)."""
    n = rating_row_columns()
    wanted = {t.pk for t in tables}
    flagged, params = ids_condition(n["table_id"], [t.pk for t in tables if t.flagged] or [0])
    columns = f"SELECT {n['table_id']}, {n['player']}, {n['valid']} FROM {n['table']}"  # noqa: S608
    sql = f"{columns} WHERE {n['date']} >= %s UNION ALL {columns} WHERE {flagged} AND {n['date']} < %s"
    day = date_param(since)
    out: dict[int, dict[int, dt.date]] = defaultdict(dict)
    for table_id, player_id, valid in raw_rows(sql, [day, *params, day]):
        if table_id in wanted:
            out[table_id][player_id] = as_date(valid)
    return out


def _links_before(start: Position, player_ids: Sequence[int]) -> dict[int, dt.date]:
    """``valid_until`` of each player's latest row before ``start``, for those with one valid on its date."""
    n = rating_row_columns()
    day = date_param(start[0])
    before = f"({n['date']} < %s OR ({n['date']} = %s AND {n['sequence']} < %s))"
    out: dict[int, dt.date] = {}
    at: dict[int, tuple[Any, int]] = {}
    for batch in id_batches(sorted(player_ids), as_array=True):
        condition, params = ids_condition(n["player"], batch)
        rows = raw_rows(
            f"SELECT {n['player']}, {n['date']}, {n['sequence']}, {n['valid']} FROM {n['table']} "  # noqa: S608
            f"WHERE {condition} AND {n['valid']} >= %s AND {before}",
            [*params, day, day, day, start[1]],
        )
        for pid, date, sequence, valid in rows:
            if pid not in at or (date, sequence) > at[pid]:
                at[pid], out[pid] = (date, sequence), as_date(valid)
    return out


def _row_states(players_by_table: dict[int, list[int]], column: str) -> dict[int, dict[str, Any]]:
    """The stored state (``column``: state_before or state_after) of the rows (table, player) asked for, as
    JSON, by player (one row a player)."""
    n = rating_row_columns()
    state = json_column(connection.ops.quote_name(db_column(RatingRow, column)))
    wanted = {(t, p) for t, ps in players_by_table.items() for p in ps}
    select = f"SELECT {n['table_id']}, {n['player']}, {state} FROM {n['table']}"  # noqa: S608
    if arrays():
        # The pairs themselves, joined on the (table, player) unique index. Two conditions, a table among these
        # and a player among those, would read every later row of each player and test it against every id.
        pairs = sorted(wanted)
        rows = raw_rows(
            f"{select} JOIN unnest(%s::bigint[], %s::bigint[]) AS wanted (w_table, w_player) "
            f"ON {n['table_id']} = w_table AND {n['player']} = w_player",
            [[t for t, _p in pairs], [p for _t, p in pairs]],
        )
    else:  # SQLite: a list of tables at a time, their other players' rows left out here
        rows = []
        for batch in id_batches(sorted(players_by_table)):
            condition, params = ids_condition(n["table_id"], batch)
            rows += raw_rows(f"{select} WHERE {condition}", params)
    return {pid: json_value(value) for table_id, pid, value in rows if (table_id, pid) in wanted}
