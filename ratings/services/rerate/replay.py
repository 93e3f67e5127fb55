"""The replay: tables in order through the engine, skipping those whose players enter as they did last time.

A table is skipped when it is rated, not flagged as edited, its rated players are those of its stored rows,
and each of them enters with exactly the state stored as his "before" in those rows: the engine is a pure
function of the states and the games, so it would produce the stored rows again. Everything else is redone.
A pending re-rate and a preview skip so without reading the skipped tables (sparse.py); here the stored rows
are given (``stored``) to compare with, the reference the tests hold the sparse replay to. A re-rate from
scratch or from a position gives none: every table is redone.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db import connection
from django.db.models import Q

from ratings import engine
from ratings.db import (
    as_date,
    id_batches,
    ids_condition,
    ids_in,
    json_column,
    json_text,
    json_value,
    raw_rows,
    raw_values,
)
from ratings.engine.rules import FESA_RULES, RuleConstants
from ratings.engine.scores import first_score
from ratings.models import (
    VALID_FOREVER,
    Game,
    Player,
    RatingRow,
    Table,
    TableEntry,
    TableResolution,
    TableStatus,
    db_column,
)
from ratings.models.states import state_from_json, state_to_json

log = logging.getLogger(__name__)

Position = tuple[dt.date, int]
RATED_STATUSES = [TableStatus.SUBMITTED, TableStatus.RATED]
"""The first player's score by the result of a played game (a sennichite/jishogi replay counts as a draw)."""
StoredRows = dict[int, dict[int, tuple[dict[str, Any], dict[str, Any]]]]
"""table -> player -> (state before, state after), as JSON, of the stored rating rows."""


@dataclass(frozen=True, slots=True)
class TableInfo:
    pk: int
    date: dt.date
    sequence: int
    status: str
    flagged: bool
    label: str


def at_or_after(start: Position) -> Q:
    return Q(date__gt=start[0]) | Q(date=start[0], sequence__gte=start[1])


class History:
    """The submitted and rated tables from a position on (None: all), their seat orders and rated games.

    ``load=False``: the tables only; ``load(ids)`` reads the entries and games of those asked for (a preview
    reads only the tables its replay reaches). A table whose entries and games were set by hand (a preview's
    changed table) is to be added to ``loaded``, so that they are not read over.
    """

    def __init__(self, start: Position | None, *, load: bool = True) -> None:
        tables = Table.objects.filter(status__in=RATED_STATUSES)
        if start is not None:
            tables = tables.filter(at_or_after(start))
        self.tables = [
            TableInfo(pk, date, seq, status, flagged, f"{Table.label_of(tname, name)} ({date})")
            for pk, date, seq, status, flagged, name, tname in tables.order_by("date", "sequence").values_list(
                "pk", "date", "sequence", "status", "needs_rerate", "name", "tournament__name"
            )
        ]
        self.entries: dict[int, list[int]] = defaultdict(list)
        self.games: dict[int, list[engine.Game]] = defaultdict(list)
        self.loaded: set[int] = set()
        if load:
            self._read(tables.values("pk"))
            self.loaded.update(t.pk for t in self.tables)

    def load(self, table_ids: Iterable[int]) -> None:
        """Read the entries and games of these tables, unless read (or set) already."""
        ids = sorted(set(table_ids) - self.loaded)
        if not ids:
            return
        for batch in id_batches(ids, as_array=True):
            self._read(ids_in(batch))
        self.loaded.update(ids)

    def _read(self, ids: Any) -> None:
        for table_id, player_id in (
            TableEntry.objects.filter(table__in=ids).order_by("table_id", "seat").values_list("table_id", "player_id")
        ):
            self.entries[table_id].append(player_id)
        columns = ("round", "first_id", "second_id", "result", "handicap", "handicap_giver", "replay_draw")
        games = Game.objects.filter(table__in=ids, second__isnull=False, played=True).order_by(
            "table_id", "round", "id"
        )
        # A full re-rate loads 10^5..10^6 games, and the ORM's per-value converters and a GameFacts per game
        # would cost more than the rest of the loading: the rows are read directly and become the engine's
        # games here, exactly as tables.engine_games makes them (tests/pipeline/test_rows.py holds the two
        # equal).
        for table_id, rnd, first, second, result, code, giver, replay in raw_values(games, "table_id", *columns):
            handicap = None if not code else engine.Handicap(code, first if giver == "first" else second)
            score = first_score(result, replay_draw=replay)
            self.games[table_id].append(engine.Game(rnd, first, second, score, handicap))

    def playing(self, table_id: int) -> set[int]:
        return {p for g in self.games.get(table_id, ()) for p in (g.first, g.second)}  # type: ignore[misc]

    def playing_all(self) -> set[int]:
        return {p for t in self.tables for p in self.playing(t.pk)}


def cycle_json(error: engine.TableDidNotSettle) -> dict[str, Any]:
    """A cycle as ``Table.cycle_states`` and ``TableResolution.states`` hold it (compared as such)."""
    return {"players": list(error.players), "states": [list(state) for state in error.cycle]}


def failure_message(table: TableInfo, exc: Exception) -> str:
    """Why a table cannot be rated, as the rating officer reads it on the table. A runaway rating names the
    player by his id here: ``name_off_scale`` names him once the replay is over (it needs a query)."""
    if isinstance(exc, engine.TableDidNotSettle):
        return f"{exc}: its players pass into later tables unchanged until the rating officer resolves it"
    if isinstance(exc, engine.RatingOffScale):
        return _off_scale_message(table, exc, f"player {exc.player}")
    if isinstance(exc, engine.EngineError):
        return str(exc)
    return f"table {table.label!r} could not be rated: {type(exc).__name__}: {exc}"


def name_off_scale(errors: dict[int, str], off_scale: dict[int, tuple[TableInfo, engine.RatingOffScale]]) -> None:
    """Name the players of runaway ratings in ``errors`` as the rating officer knows them."""
    if not off_scale:
        return
    fields = ("pk", "federation_id", "family_name", "given_name")
    players = Player.objects.filter(pk__in={exc.player for _table, exc in off_scale.values()}).values_list(*fields)
    names = {pk: f"{family} {given} ({federation_id})" for pk, federation_id, family, given in players}
    for table_id, (table, exc) in off_scale.items():
        errors[table_id] = _off_scale_message(table, exc, names.get(exc.player, f"player {exc.player}"))


def _off_scale_message(table: TableInfo, error: engine.RatingOffScale, name: str) -> str:
    return (
        f"table {table.label!r} cannot be rated: {name}'s rating would reach {error.rating:g}, at or above the end "
        "of the handicap scale (9999), where the rules give no grade to convert a handicap from; the FESA program "
        "stops on it too. Its players pass into later tables unchanged until the table is corrected"
    )


def live_resolutions() -> dict[int, dict[str, Any]]:
    """The cycle each table's live resolution was taken on: the tables re-rating rates by the rule."""
    return dict(TableResolution.objects.filter(cleared_at__isnull=True).values_list("table_id", "states"))


def stored_rows(table_ids: Sequence[int], links: dict[tuple[int, int], dt.date] | None = None) -> StoredRows:
    """The stored states before and after of the rows of these tables (read as text and parsed here: the ORM's
    JSON converters were a fifth of a correction's re-rate); ``links``, if given, gets each row's
    ``valid_until`` by (table, player)."""
    out: StoredRows = defaultdict(dict)
    quote = connection.ops.quote_name
    table, player, valid_until, state_before, state_after = (
        quote(db_column(RatingRow, name)) for name in ("table", "player", "valid_until", "state_before", "state_after")
    )
    columns = ", ".join([table, player, valid_until, json_column(state_before), json_column(state_after)])
    for batch in id_batches(table_ids, as_array=True):
        condition, params = ids_condition(table, batch)
        rows = raw_rows(f"SELECT {columns} FROM {quote(RatingRow._meta.db_table)} WHERE {condition}", params)  # noqa: S608
        for table_id, player_id, valid, before, after in rows:
            out[table_id][player_id] = (json_value(before), json_value(after))
            if links is not None:
                links[table_id, player_id] = as_date(valid)
    return out


def links_broken(
    history: History,
    stored: StoredRows,
    links: dict[tuple[int, int], dt.date],
    before: dict[int, dt.date | None],
) -> set[int]:
    """Players whose stored rows from the start on, or whose row before it (``before``: its ``valid_until``;
    None: not found through it), do not each point to the date of the player's next stored row in the order of
    the history (the last one to no row): a table of theirs was deleted, moved or reordered since the rows
    were linked. A re-rate relinks them; the other players' rows keep their links."""
    broken: set[int] = set()
    pending: dict[int, dt.date | None] = dict(before)
    for table in history.tables:
        for pid in stored.get(table.pk, ()):
            if pid in pending and pending[pid] != table.date:
                broken.add(pid)
            pending[pid] = links[table.pk, pid]
    broken.update(pid for pid, valid in pending.items() if valid != VALID_FOREVER)
    return broken


Item = tuple[int, engine.PlayerOutcome, str | None, str | None, dict[str, Any]]
"""A player's part in a redone table: his id, the outcome, his states before and after as JSON text (None when
the replay makes no texts), and the state after as JSON."""


class Replay:
    """Replays ``history`` from the ``initial`` states, skipping tables that ``stored`` rows show unchanged.

    Each player's current state is kept in whichever forms were needed so far — the engine's state, its JSON,
    its JSON text — because converting 10^5 states back and forth is a good part of a full re-rate.
    """

    def __init__(
        self,
        history: History,
        initial: dict[int, engine.PlayerState],
        stored: StoredRows,
        *,
        texts: bool,
        rules: RuleConstants = FESA_RULES,
    ) -> None:
        self.history, self.stored, self.texts = history, stored, texts
        self.rules = rules  # FESA's, but for a what-if (ratings/services/whatif.py), which writes nothing
        self.state: dict[int, engine.PlayerState | None] = dict(initial)
        self.data: dict[int, dict[str, Any] | None] = {}
        self.text: dict[int, tuple[engine.PlayerState, str]] = {}  # the text of the state it was made of
        self.redone: list[int] = []
        self.errors: dict[int, str] = {}
        self.off_scale: dict[int, tuple[TableInfo, engine.RatingOffScale]] = {}  # their players named after
        self.unchanged = 0
        self.found: list[tuple[int, int, engine.Promotion]] = []  # (player, table, promotion)
        self.touched: set[int] = set()  # players of the redone tables, before or after
        self.resolved = live_resolutions()
        self.unsettled: dict[int, dict[str, Any]] = {}  # redone tables that did not settle: their cycles
        self.ruled: set[int] = set()  # those of them rated by the rule, as resolved
        self.engine_seconds = 0.0  # spent in the engine itself

    def enter(self, data: dict[int, dict[str, Any]]) -> None:
        """Players whose starting state is known as JSON (a stored row's state before), made an engine state
        only if a redone table needs it."""
        for pid, value in data.items():
            self.state[pid], self.data[pid] = None, value

    def state_of(self, pid: int) -> engine.PlayerState:
        state = self.state.get(pid)
        if state is None:
            state = self.state[pid] = state_from_json(self.data[pid])  # type: ignore[arg-type]
        return state

    def data_of(self, pid: int) -> dict[str, Any]:
        data = self.data.get(pid)
        if data is None:
            data = self.data[pid] = state_to_json(self.state[pid])  # type: ignore[arg-type]
        return data

    def text_of(self, state: engine.PlayerState, pid: int) -> str:
        cached = self.text.get(pid)
        return cached[1] if cached is not None and cached[0] is state else json_text(state_to_json(state))

    def unchanged_table(self, table: TableInfo, playing: set[int]) -> bool:
        rows = self.stored.get(table.pk)
        return (
            rows is not None
            and not table.flagged
            and table.status == TableStatus.RATED
            and rows.keys() == playing
            and all(rows[pid][0] == self.data_of(pid) for pid in playing)
        )

    def run(
        self, before: Callable[[TableInfo, set[int]], object] | None = None
    ) -> Iterator[tuple[TableInfo, list[Item]]]:
        """Yield each redone table with its players' parts (none when the table cannot be rated).

        ``before`` is shown each table and its players before it is rated, while ``state_of`` still gives
        their states before it (a what-if predicts the table's games from them)."""
        for table in self.history.tables:
            playing = self.history.playing(table.pk)
            if before is not None:
                before(table, playing)
            if self.unchanged_table(table, playing):
                for pid, (_before, after) in self.stored[table.pk].items():
                    self.state[pid], self.data[pid] = None, after
                self.unchanged += 1
                continue
            self.redone.append(table.pk)
            self.touched.update(playing, self.stored.get(table.pk, ()))
            started = time.perf_counter()
            try:
                result = self.rate(table, playing)
            except Exception as exc:  # one table's failure, whatever it is, must not stop the run
                self.engine_seconds += time.perf_counter() - started
                # It cannot be rated (it did not settle and is not resolved, its data went bad, or the engine
                # met something it should not have): its players pass through unchanged, exactly as from
                # scratch, and the error is shown on the table for the rating officer.
                if not isinstance(exc, engine.EngineError):
                    log.exception("table %s (%s) failed to rate", table.pk, table.label)
                self.errors[table.pk] = failure_message(table, exc)
                if isinstance(exc, engine.RatingOffScale):
                    self.off_scale[table.pk] = (table, exc)
                yield table, []
                continue
            self.engine_seconds += time.perf_counter() - started
            items: list[Item] = []
            for o in result.outcomes:
                pid = cast(int, o.key)  # the engine keys the outcomes as it was given the players: by their ids
                data = state_to_json(o.after)
                before_text = after_text = None
                if self.texts:
                    before_text, after_text = self.text_of(o.before, pid), json_text(data)
                    self.text[pid] = (o.after, after_text)
                items.append((pid, o, before_text, after_text, data))
                self.state[pid], self.data[pid] = o.after, data
                self.found.extend((pid, table.pk, p) for p in o.promotions)
            yield table, items

    def rate(self, table: TableInfo, playing: set[int]) -> engine.TableResult:
        """The engine's result for ``table``; by the rule if it cycles exactly as when it was resolved."""
        given = engine.TableInput(
            name=table.label,
            date=table.date,
            players=self.history.entries.get(table.pk, []),
            states={pid: self.state_of(pid) for pid in playing},
            games=self.history.games.get(table.pk, []),
        )
        try:
            return engine.rate_table(given, rules=self.rules)
        except engine.TableDidNotSettle as exc:
            cycle = self.unsettled[table.pk] = cycle_json(exc)
            if not exc.cycle or self.resolved.get(table.pk) != cycle:
                raise
        self.ruled.add(table.pk)
        return engine.rate_table(given, by_rule=True, rules=self.rules)

    def final_states(self) -> dict[int, engine.PlayerState]:
        return {pid: self.state_of(pid) for pid in self.state}

    def final_state(self, ids: Iterable[int]) -> dict[int, engine.PlayerState]:
        """These players' states after the history (each must be in ``in_range``)."""
        return {pid: self.state_of(pid) for pid in ids}

    @property
    def in_range(self) -> set[int]:
        """The players of the history's tables (and those whose stored rows are there)."""
        return set(self.state)
