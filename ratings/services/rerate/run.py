"""Requests, the lock and the runs: ``rerate_request``, ``rerate_pending``, ``rerate_from``."""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

from django.conf import settings
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from ratings import engine
from ratings.db import (
    LockWaitExceeded,
    batched_load,
    gc_paused,
    id_batches,
    ids_in,
    json_text,
    locked_transaction,
    raw_values,
    rows_update,
    statistics_refresh,
)
from ratings.models import (
    LIVE_PROMOTION_STATUSES,
    PendingRerate,
    Player,
    Promotion,
    RatingRow,
    RerateChange,
    RerateRun,
    Table,
)
from ratings.models.states import state_to_json
from ratings.selectors.derived import players_differing
from ratings.selectors.states import starting_states, states_before_json
from ratings.services.grades.promotions import promotions_sync
from ratings.services.players import openings_first_rated, players_refresh, players_write
from ratings.services.queue import enqueue

from .marks import tables_mark
from .replay import (
    RATED_STATUSES,
    History,
    Item,
    Position,
    Replay,
    links_broken,
    name_off_scale,
)
from .rows import RowWriter
from .sparse import SparseReplay
from .validity import rating_rows_link

log = logging.getLogger(__name__)

__all__ = ["RATED_STATUSES", "RerateBusy", "RerateOutcome", "rerate_from", "rerate_pending", "rerate_request"]

RERATE_TASK = "ratings.tasks.task_rerate_pending"  # the name ratings/tasks.py registers it under
RERATE_LOCK_KEY = 0x5E5A_0001  # advisory lock id, any constant unique to this purpose
PASSES = 3  # runs one call makes while requests keep coming in; the task queued by the last request follows
FIGURE_FIELDS = ("rating", "grade", "games")  # a player's figures a subscriber is told of, before and after
CHANGES_BATCH = 2000


class RerateBusy(Exception):
    """Another re-rate holds the lock; try again later."""


@dataclass
class RerateOutcome:
    """What one run did. ``cleared``: the pending request it served is cleared (none came in meanwhile)."""

    start: Position | None
    tables_rated: int = 0
    tables_unchanged: int = 0
    rows_written: int = 0
    errors: dict[int, str] = field(default_factory=dict)
    cleared: bool = False
    run_id: int | None = None
    seconds: dict[str, float] = field(default_factory=dict)


def rerate_request(*, date: dt.date, sequence: int, table_ids: Sequence[int]) -> None:
    """Record "re-rate needed from (date, sequence)" in the caller's transaction; enqueue the task on commit.

    ``table_ids`` are the edited tables: they are redone even if their players' states did not change.
    """
    now = timezone.now()
    with transaction.atomic():
        pending, created = PendingRerate.objects.select_for_update().get_or_create(
            pk=1, defaults={"from_date": date, "from_sequence": sequence, "requested_at": now, "generation": 1}
        )
        if not created:
            if (date, sequence) < (pending.from_date, pending.from_sequence):
                pending.from_date, pending.from_sequence = date, sequence
            pending.requested_at = now
            pending.generation = F("generation") + 1
            pending.save()
        if table_ids:
            Table.objects.filter(pk__in=table_ids).update(needs_rerate=True)
        # The pending row keeps the request if the broker is down: the beat or a worker's start catches up.
        enqueue(RERATE_TASK, failure="could not queue the re-rate; it stays pending until the broker is back")


@contextmanager
def _locked_transaction(timeout: float | None) -> Iterator[None]:
    """A transaction holding the re-rate lock; RerateBusy if it cannot be had within ``timeout`` seconds.

    The wait is short (RERATE_LOCK_TIMEOUT, a few seconds) and is the database's own, not a loop: a run that
    finds the lock taken gives up, and the task's retry with backoff does the waiting, with no transaction
    open in the meantime.
    """
    limit = float(settings.RERATE_LOCK_TIMEOUT if timeout is None else timeout)
    try:
        with locked_transaction(RERATE_LOCK_KEY, limit):
            yield
    except LockWaitExceeded as exc:
        raise RerateBusy(str(exc)) from exc


def rerate_pending(*, lock_timeout: float | None = None, quiet: float = 0.0) -> RerateOutcome | None:
    """Re-rate from the pending position, if any; None when nothing was pending.

    ``quiet``: first wait until no request came in for that many seconds (at most ten times as long), so that
    a burst of edits is served by one run. A request that comes in during a run makes the call run again, up
    to ``PASSES`` runs; the last outcome is returned. ``lock_timeout`` defaults to RERATE_LOCK_TIMEOUT.
    """
    outcome = None
    for _ in range(PASSES):
        if quiet > 0:
            _wait_for_quiet(quiet)
        if not PendingRerate.objects.filter(pk=1).exists():
            break
        with _locked_transaction(lock_timeout):
            pending = PendingRerate.objects.filter(pk=1).first()
            if pending is None:
                break  # another run served it while this one waited for the lock
            start = (pending.from_date, pending.from_sequence)
            outcome = _rerate_locked(start, clears=pending, skip_unchanged=True)
        if outcome.cleared:
            break
    return outcome


def _wait_for_quiet(quiet: float) -> None:
    deadline = time.monotonic() + quiet * 10
    while True:
        requested = PendingRerate.objects.filter(pk=1).values_list("requested_at", flat=True).first()
        if requested is None:
            return
        idle = (timezone.now() - requested).total_seconds()
        left = deadline - time.monotonic()
        if idle >= quiet or left <= 0:
            return
        time.sleep(min(quiet - idle, left))


def rerate_from(*, date: dt.date | None = None, sequence: int = 1, lock_timeout: float | None = None) -> RerateOutcome:
    """Re-rate every table from the position (date, sequence), or the whole history if ``date`` is None.

    Unlike a pending run it skips nothing: every table from there is rated again (after a change of the
    rules' code, say). A pending request at or after that position is served and cleared.
    """
    start = None if date is None else (date, sequence)
    with _locked_transaction(lock_timeout):
        pending = PendingRerate.objects.filter(pk=1).first()
        covered = pending is not None and (start is None or start <= (pending.from_date, pending.from_sequence))
        return _rerate_locked(start, clears=pending if covered else None, skip_unchanged=False)


def _rerate_locked(start: Position | None, *, clears: PendingRerate | None, skip_unchanged: bool) -> RerateOutcome:
    """One run, inside the locked transaction; ``skip_unchanged``: leave tables whose players enter unchanged."""
    clock = time.perf_counter()
    now = timezone.now()
    run = RerateRun.objects.create(started_at=now, from_date=start and start[0], from_sequence=start and start[1])
    outcome = RerateOutcome(start=start, run_id=run.pk)

    # Rows of a table sent back to draft count for nothing any more.
    # (Queries here name their tables by id: right after a full re-rate PostgreSQL's statistics are stale, and
    # a join or subquery may then be planned as a scan of every rating row.)
    refresh: set[int] = set()
    gone: dict[int, set[int]] = defaultdict(set)  # player -> tables whose rows of his went
    for chunk in id_batches(list(Table.objects.exclude(status__in=RATED_STATUSES).values_list("pk", flat=True))):
        stray = RatingRow.objects.filter(table_id__in=chunk).order_by()
        for pid, table_id in stray.values_list("player_id", "table_id"):
            gone[pid].add(table_id)
        refresh.update(gone)
        stray.delete()

    links: dict[tuple[int, int], dt.date] = {}
    replay: Replay | SparseReplay
    if start is not None and skip_unchanged:
        replay, writer, relink = _sparse_run(start, refresh, links, outcome, clock)
        outcome.tables_unchanged = len(replay.history.tables) - len(replay.redone)
    else:
        with gc_paused():  # 10^5..10^6 objects made and kept: the collector would walk them again and again
            history, initial, entered, relink = _loaded(start, refresh, links)
        outcome.seconds["load"] = time.perf_counter() - clock
        replay = Replay(history, initial, {}, texts=True)  # no stored rows: every table is redone
        replay.enter(entered)
        with gc_paused(), RowWriter(replace_all=start is None, links=links) as writer:
            for table, items in replay.run():
                writer.add(table, items)
                if start is not None:
                    # A player whose row in this table came or went: his next and previous rows change.
                    relink.update(item[0] for item in items)
        name_off_scale(replay.errors, replay.off_scale)  # a query: not while the writer held the connection
    if start is not None:
        refresh |= _left_behind(start, replay)
        # The other players' rows went back with the links they had (``links``): their rows are in the same
        # tables, at the same places, as when those links were made.
        rating_rows_link(since=start[0], players=relink | refresh)
        # A player whose rows came, went or moved may have lost his last table (deleted) and kept an unchanged
        # one in the range: his columns still count the lost one.
        refresh |= relink
    if start is None:
        # Every row is new: without fresh statistics the planner takes the next small query on rating rows
        # for a scan of them all (autovacuum catches up only later, if it runs at all). SQLite keeps no
        # statistics until asked, and without them reads "not merged" players through the index of merges,
        # which nearly all of them share: its ANALYZE covers every table.
        statistics_refresh(RatingRow)
    outcome.seconds["replay"] = time.perf_counter() - clock - outcome.seconds["load"]
    outcome.seconds["engine"] = replay.engine_seconds  # part of the replay
    outcome.tables_rated = len(replay.redone) - len(replay.errors)
    outcome.rows_written = writer.written
    outcome.errors = replay.errors

    tables_mark(replay, now)
    changed = writer.changes()
    for pid, tables in gone.items():
        changed.setdefault(pid, set()).update(tables)
    lap = time.perf_counter()
    promoted = _promotions_update(replay.redone, replay.found, everything=start is None)
    outcome.seconds["promotions"] = time.perf_counter() - lap
    lap = time.perf_counter()
    # The figures a subscriber reads, before and after, of every player the run may have changed.
    looked_at = None if start is None else set(changed) | promoted | replay.touched | refresh
    before = _figures(looked_at)
    _players_update(start, replay, writer, refresh)
    outcome.seconds["players"] = time.perf_counter() - lap
    _changes_record(run, changed, promoted, before, _figures(looked_at))

    if clears is not None:
        # Compare-and-set: clear only what this run has seen; a request that came in meanwhile stays pending.
        outcome.cleared = PendingRerate.objects.filter(pk=1, generation=clears.generation).delete()[0] == 1
        if outcome.cleared:
            Table.objects.filter(needs_rerate=True).update(needs_rerate=False)
    run.finished_at = timezone.now()
    run.tables_rated, run.tables_unchanged = outcome.tables_rated, outcome.tables_unchanged
    run.outcome = RerateRun.Outcome.FAILED if outcome.errors else RerateRun.Outcome.DONE
    run.error = "\n".join(f"table {k}: {v}" for k, v in outcome.errors.items())
    run.save()
    outcome.seconds["total"] = time.perf_counter() - clock
    log.info(
        "re-rated from %s: %d tables redone, %d unchanged, %d rows, %d errors in %.2f s",
        start or "scratch",
        outcome.tables_rated,
        outcome.tables_unchanged,
        outcome.rows_written,
        len(outcome.errors),
        outcome.seconds["total"],
    )
    return outcome


def _loaded(
    start: Position | None, refresh: set[int], links: dict[tuple[int, int], dt.date]
) -> tuple[History, dict[int, engine.PlayerState], dict[int, dict[str, Any]], set[int]]:
    """For a run that redoes every table from ``start``: the history, the players' states before ``start`` (as
    engine states, or as stored JSON, made engine states only for the players of the tables the replay
    redoes), and the players whose stored links do not hold any more. The players of the stored rows from
    ``start`` go to ``refresh``."""
    history = History(start)
    if start is not None:
        for chunk in id_batches([t.pk for t in history.tables]):
            refresh.update(RatingRow.objects.filter(table_id__in=chunk).order_by().values_list("player_id", flat=True))
    players = history.playing_all()
    entered: dict[int, dict[str, Any]] = {}
    before: dict[int, dt.date | None] = {}
    if start is not None:
        entered = states_before_json(start[0], start[1], players, before)  # chunked as the database needs
    broken = links_broken(history, {}, links, before)
    return history, batched_load(starting_states, players - entered.keys()), entered, broken


def _sparse_run(
    start: Position, gone: set[int], links: dict[tuple[int, int], dt.date], outcome: RerateOutcome, clock: float
) -> tuple[SparseReplay, RowWriter, set[int]]:
    """A pending run from ``start``: only the tables the change reaches are read and replayed (the preview's
    ``SparseReplay``), their rows written; return the replay, the writer and the players to relink.

    A table none of whose players enters with another state than his stored row's is not read at all: a
    correction one year back redoes a few dozen of the thousands of tables after it. The edited tables are
    flagged (``rerate_request``), so their players are looked at from the start, as are the players whose rows
    in a table sent back to draft went (``gone``): their later rows start from a row that is no more."""
    history = History(start, load=False)
    with gc_paused():
        replay = SparseReplay(history, start, fixed=gone, overrides={}, keep_outcomes=True, compare_starts=True)
    outcome.seconds["load"] = time.perf_counter() - clock
    with gc_paused():
        replay.run()  # it reads as it goes: the writer, which holds the connection, comes after
    # The players whose links do not hold, and those of the edited tables (moved, perhaps, since their rows were
    # linked: ``SparseReplay`` reads their states, not their links, before the start).
    relink = set(replay.broken)
    for table in history.tables:
        if table.flagged:
            relink |= history.playing(table.pk) | replay.valid.get(table.pk, {}).keys()
    tables = {t.pk: t for t in history.tables}
    for pk in replay.redone:
        links.update(((pk, pid), valid) for pid, valid in replay.valid.get(pk, {}).items())
    with gc_paused(), RowWriter(replace_all=False, links=links) as writer:
        for pk in replay.redone:
            items = [_item(o) for o in replay.outcomes[pk]]
            writer.add(tables[pk], items)
            # A player whose row in this table came or went: his next and previous rows change.
            relink.update({item[0] for item in items}.symmetric_difference(replay.valid.get(pk, ())))
    return replay, writer, relink


def _item(o: engine.PlayerOutcome) -> Item:
    """A player's part in a redone table, as ``Replay.run`` gives it to the writer."""
    data = state_to_json(o.after)
    return cast(int, o.key), o, json_text(state_to_json(o.before)), json_text(data), data


def _players_update(
    start: Position | None, replay: Replay | SparseReplay, writer: RowWriter, refresh: set[int]
) -> None:
    """Bring the players' derived columns up to date: those of every player the run may have changed.

    Their values are computed from the replay's final states (a player without a table in the range keeps
    his stored state) and compared with what is stored; ``players_refresh`` rewrites only those that differ,
    since rewriting 10^4 unchanged players costs more than a full re-rate's rating.
    """
    if start is None:
        states = replay.final_state(replay.in_range)
        others = set(Player.objects.values_list("pk", flat=True)) - states.keys()
        states.update(batched_load(starting_states, others))
        peaks = writer.peaks
    else:
        # Only the players of the redone tables, and those whose rows went with a table (``refresh``), can
        # have changed: every other player of the range entered each of his tables as before.
        states = replay.final_state(replay.touched | (refresh & replay.in_range))
        refresh -= states.keys()  # not in the range: refreshed from their stored rows
        peaks = {}
        for chunk in id_batches(sorted(states), as_array=True):
            rows = RatingRow.objects.filter(player_id__in=ids_in(chunk)).order_by()
            by_player = rows.values("player_id").annotate(peak=Max("rating_after"))
            peaks.update(by_player.values_list("player_id", "peak"))
    # Those that differ are written from the replay's states, which their latest rows now hold; the others
    # (a draft's or a deleted table's players outside the range) are read again.
    differing = sorted(players_differing(states, peaks))
    for chunk in id_batches(differing):
        players_write({pid: states[pid] for pid in chunk}, peaks)
    for chunk in id_batches(sorted(refresh.difference(differing))):
        players_refresh(chunk)
    # The players whose rows the run wrote or removed: their first row's date may have moved.
    if start is None:
        openings_first_rated()
    else:
        for chunk in id_batches(sorted(states)):
            openings_first_rated(chunk)


def _figures(ids: set[int] | None) -> dict[int, dict[str, int]]:
    """The players' figures a subscriber is told of (None: every player's)."""
    players = Player.objects.order_by()
    out = {}
    for chunk in [None] if ids is None else id_batches(sorted(ids), as_array=True):
        subset = players if chunk is None else players.filter(pk__in=ids_in(chunk))
        for pk, *rest in subset.values_list("pk", *FIGURE_FIELDS):
            out[pk] = dict(zip(FIGURE_FIELDS, rest, strict=True))
    return out


def _changes_record(
    run: RerateRun,
    changed: dict[int, set[int]],
    promoted: set[int],
    before: dict[int, dict[str, int]],
    after: dict[int, dict[str, int]],
) -> None:
    """Record the players whose stored figures the run changed: a rating row of theirs came, went or moved, a
    promotion record of theirs was found or dropped, or their rating, grade or games counted differ. The others
    the run passed over (a redone table's players whose rows came out the same) have nothing to be told."""
    ids = set(changed) | promoted | {pid for pid, figures in after.items() if before.get(pid) != figures}
    RerateChange.objects.bulk_create(
        (
            RerateChange(
                run=run,
                player_id=pid,
                before=before.get(pid, after[pid]),
                after=after[pid],
                tables=sorted(changed.get(pid, ())),
            )
            for pid in sorted(ids)
            if pid in after
        ),
        batch_size=CHANGES_BATCH,
    )


def _left_behind(start: Position, replay: Replay | SparseReplay) -> set[int]:
    """Players a table deleted since it was rated leaves behind: they last played on or after the start, yet
    have no table in the range. Their columns, and the validity of their last row, still count that table."""
    since = Player.objects.filter(last_played__gte=start[0]).order_by().values_list("pk", flat=True)
    return set(since) - replay.in_range


def _promotions_update(
    redone: Sequence[int], found: list[tuple[int, int, engine.Promotion]], everything: bool
) -> set[int]:
    """Hand grades.promotions_sync the redone tables whose promotions differ from their live records; return
    the players of the promotions found or dropped.

    A table whose promotions match its live records exactly (all still supported) is one the sync would leave
    as it is, and most redone tables are such; skipping them spares the sync locking and reading every record
    of their players. A table whose promotions differ from its records in their interpolated ratings alone is
    one the sync would only write the new ratings of, with no audit row: those are written here, set-based,
    without reading and locking the records (a grade officer's decision writes other columns); a merge of a
    long career moves the ratings of 10^4 records so.
    """
    want: dict[int, dict[tuple[Any, ...], float]] = defaultdict(dict)
    for pid, table_id, p in found:
        want[table_id][pid, p.grade, p.round, p.game_number, p.route, True, ""] = p.rating
    have: dict[int, dict[tuple[Any, ...], tuple[float, int]]] = defaultdict(dict)
    records = Promotion.objects.filter(status__in=LIVE_PROMOTION_STATUSES)
    fields = ("table_id", "player_id", "grade", "round", "game_number", "route", "supported", "flag_reason")
    for chunk in [None] if everything else id_batches(list(redone), as_array=True):
        subset = records if chunk is None else records.filter(table_id__in=ids_in(chunk))
        for table_id, *key, rating, pk in raw_values(subset, *fields, "rating", "pk"):
            # "supported" may be 1 for True: equal, and of equal hash
            have[table_id][tuple(key)] = (rating, pk)
    changed: set[int] = set()
    ratings: list[tuple[int, float]] = []  # (record, its new rating)
    players: set[int] = set()
    for pk in redone:
        wanted, held = want.get(pk, {}), have.get(pk, {})
        if wanted.keys() != held.keys():
            changed.add(pk)
            players.update(key[0] for key in wanted.keys() ^ held.keys())
            continue
        ratings.extend((record, wanted[key]) for key, (rating, record) in held.items() if rating != wanted[key])
    rows_update(Promotion, ("rating",), ratings)
    if changed:
        promotions_sync(tables=sorted(changed), found=[f for f in found if f[1] in changed])
    return players
