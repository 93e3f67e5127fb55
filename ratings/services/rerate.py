"""Re-rating: replay the history from a table position and replace the derived rows.

The contract: after a run, every rated table's rows are what rating the whole history from scratch would
give (``rerate_check`` verifies it). How:

* An edit calls ``rerate_request`` in its own transaction: the earliest position asked for is kept in the
  single ``PendingRerate`` row (its ``generation`` bumped), the edited tables are flagged ``needs_rerate``,
  and a task is queued after commit.
* ``rerate_pending`` takes the re-rate lock, loads the players' states as they stood before the position,
  replays every submitted or rated table from there in order through the engine, and replaces the rows of
  the tables it redid, all in one transaction. A table that is not flagged and whose players all enter with
  the states they had last time is left as it is — that is what makes a correction cheap.
* The pending row is cleared only if no request came in meanwhile (compare-and-set on ``generation``);
  otherwise it stays and the next run, already queued by that request, sees everything.

Locking rules: one re-rate at a time. On PostgreSQL a transaction-level advisory lock, polled until
``RERATE_LOCK_TIMEOUT``; on SQLite the IMMEDIATE transaction itself serialises writers. A lock that cannot
be had raises ``RerateBusy``, which the task turns into a retry with backoff.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from ratings import engine
from ratings.models import (
    PendingRerate,
    RatingRow,
    RerateRun,
    Table,
    TableEntry,
    TableStatus,
)
from ratings.selectors import starting_states, states_before
from ratings.services.players import players_refresh
from ratings.services.tables import engine_games, tables_games_by_table
from ratings.states import state_from_json, state_to_json

log = logging.getLogger(__name__)

RERATE_LOCK_KEY = 0x5E5A_0001  # advisory lock id, any constant unique to this purpose
RATED_STATUSES = [TableStatus.SUBMITTED, TableStatus.RATED]


class RerateBusy(Exception):
    """Another re-rate holds the lock; try again later."""


@dataclass
class RerateOutcome:
    from_position: tuple[dt.date, int] | None
    tables_rated: int = 0
    tables_unchanged: int = 0
    rows_written: int = 0
    errors: dict[int, str] = field(default_factory=dict)
    cleared: bool = True


def rerate_request(*, date: dt.date, sequence: int, table_ids: Sequence[int]) -> None:
    """Record "re-rate needed from (date, sequence)" in the caller's transaction; enqueue the task on commit."""
    now = timezone.now()
    with transaction.atomic():
        if table_ids:
            Table.objects.filter(pk__in=table_ids).update(needs_rerate=True)
        pending = PendingRerate.objects.select_for_update().filter(pk=1).first()
        if pending is None:
            PendingRerate.objects.create(pk=1, from_date=date, from_sequence=sequence, requested_at=now, generation=1)
        else:
            if (date, sequence) < (pending.from_date, pending.from_sequence):
                pending.from_date, pending.from_sequence = date, sequence
            pending.requested_at = now
            pending.generation = F("generation") + 1
            pending.save()
        transaction.on_commit(_enqueue)


def _enqueue() -> None:
    """Queue the task; a broker that is down is logged, not raised: the pending row keeps the request."""
    from ratings.tasks import task_rerate_pending

    try:
        task_rerate_pending.delay()
    except Exception:  # the broker may be unreachable in many ways; the beat schedule retries
        log.warning("could not queue the re-rate; it stays pending until the broker is back", exc_info=True)


@contextmanager
def rerate_lock(timeout: float | None = None) -> Iterator[None]:
    """Hold the re-rate lock for the current transaction (call inside ``transaction.atomic``)."""
    if connection.vendor != "postgresql":
        yield  # SQLite: the IMMEDIATE transaction already excludes every other writer
        return
    limit = settings.RERATE_LOCK_TIMEOUT if timeout is None else timeout
    deadline = time.monotonic() + limit
    delay = 0.05
    with connection.cursor() as cursor:
        while True:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [RERATE_LOCK_KEY])
            if cursor.fetchone()[0]:
                break
            if time.monotonic() >= deadline:
                raise RerateBusy(f"another re-rate held the lock for more than {limit:.0f} s")
            time.sleep(delay)
            delay = min(delay * 2, 1.0)
    yield


def rerate_pending(*, lock_timeout: float | None = None) -> RerateOutcome | None:
    """Re-rate from the pending position, if any. Returns None when nothing was pending."""
    if not PendingRerate.objects.filter(pk=1).exists():
        return None
    with transaction.atomic(), rerate_lock(lock_timeout):
        pending = PendingRerate.objects.filter(pk=1).first()
        if pending is None:
            return None  # another run did it while we waited for the lock
        generation = pending.generation
        outcome = _rerate_locked(date=pending.from_date, sequence=pending.from_sequence)
        # Compare-and-set: clear only what we have seen; a request that came in meanwhile stays pending.
        cleared = PendingRerate.objects.filter(pk=1, generation=generation).delete()[0] == 1
        if cleared:
            Table.objects.filter(needs_rerate=True).update(needs_rerate=False)
        outcome.cleared = cleared
        return outcome


def rerate_from(*, date: dt.date | None = None, sequence: int = 1, lock_timeout: float | None = None) -> RerateOutcome:
    """Re-rate from a position (None: the whole history), whatever is pending."""
    with transaction.atomic(), rerate_lock(lock_timeout):
        return _rerate_locked(date=date, sequence=sequence)


def _rerate_locked(*, date: dt.date | None, sequence: int) -> RerateOutcome:
    started = timezone.now()
    run = RerateRun.objects.create(started_at=started, from_date=date, from_sequence=sequence if date else None)
    outcome = RerateOutcome(from_position=(date, sequence) if date else None)

    tables_qs = Table.objects.filter(status__in=RATED_STATUSES)
    if date is not None:
        tables_qs = tables_qs.filter(Q(date__gt=date) | Q(date=date, sequence__gte=sequence))
    tables = list(tables_qs.order_by("date", "sequence").select_related("tournament"))
    table_ids = [t.pk for t in tables]

    entries: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id in (
        TableEntry.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "seat")
        .values_list("table_id", "player_id")
    ):
        entries[table_id].append(player_id)
    games = tables_games_by_table(table_ids)
    all_players = {pid for ids in entries.values() for pid in ids}

    if date is None:
        states = starting_states(all_players)
        stored: dict[int, dict[int, tuple[dict, dict]]] = {}
    else:
        states = states_before(date=date, sequence=sequence, player_ids=all_players)
        stored = defaultdict(dict)
        for table_id, player_id, before, after in RatingRow.objects.filter(table_id__in=table_ids).values_list(
            "table_id", "player_id", "state_before", "state_after"
        ):
            stored[table_id][player_id] = (before, after)

    new_rows: list[RatingRow] = []
    redone: list[Table] = []
    found_promotions: list[tuple[int, int, engine.Promotion]] = []
    for table in tables:
        rated_games = engine_games(games.get(table.pk, []))
        playing = {g.first for g in rated_games} | {g.second for g in rated_games}
        if not table.needs_rerate and table.status == TableStatus.RATED and table.pk in stored:
            previous = stored[table.pk]
            if previous.keys() == playing and all(previous[pid][0] == state_to_json(states[pid]) for pid in playing):
                for pid in playing:
                    states[pid] = state_from_json(previous[pid][1])
                outcome.tables_unchanged += 1
                continue
        redone.append(table)
        try:
            result = engine.rate_table(
                engine.TableInput(
                    name=str(table),
                    date=table.date,
                    players=entries.get(table.pk, []),
                    states={pid: states[pid] for pid in playing},
                    games=rated_games,
                )
            )
        except engine.EngineError as exc:
            # The table cannot be rated (it did not settle, or its data went bad): its players pass through
            # unchanged, exactly as a from-scratch run would do, and the error is shown on the table.
            outcome.errors[table.pk] = str(exc)
            continue
        for o in result.outcomes:
            states[o.key] = o.after
            new_rows.append(_rating_row(table, o))
            found_promotions.extend((o.key, table.pk, p) for p in o.promotions)
        outcome.tables_rated += 1

    redone_ids = [t.pk for t in redone]
    RatingRow.objects.filter(table_id__in=redone_ids).delete()
    RatingRow.objects.bulk_create(new_rows, batch_size=2000)
    outcome.rows_written = len(new_rows)

    now = timezone.now()
    ok_ids = [t for t in redone_ids if t not in outcome.errors]
    Table.objects.filter(pk__in=ok_ids, first_rated_at__isnull=True).update(first_rated_at=now)
    Table.objects.filter(pk__in=ok_ids).update(status=TableStatus.RATED, last_rerated_at=now, rating_error="")
    for table_id, message in outcome.errors.items():
        Table.objects.filter(pk=table_id).update(status=TableStatus.SUBMITTED, rating_error=message)
    # Tables that did not change still become "rated" if they were waiting (a re-submitted table, say).
    Table.objects.filter(pk__in=table_ids, status=TableStatus.SUBMITTED).exclude(pk__in=outcome.errors).update(
        status=TableStatus.RATED, last_rerated_at=now
    )

    from ratings.services.grades import promotions_sync

    touched_players = {row.player_id for row in new_rows}
    promotions_sync(tables=redone_ids, found=found_promotions)
    players_refresh(touched_players)

    run.finished_at = timezone.now()
    run.tables_rated = outcome.tables_rated
    run.tables_unchanged = outcome.tables_unchanged
    run.outcome = RerateRun.Outcome.DONE if not outcome.errors else RerateRun.Outcome.FAILED
    run.error = "\n".join(f"table {k}: {v}" for k, v in outcome.errors.items())
    run.save()
    return outcome


def _rating_row(table: Table, o: engine.PlayerOutcome) -> RatingRow:
    return RatingRow(
        table=table,
        player_id=o.key,
        date=table.date,
        sequence=table.sequence,
        method=o.method,
        rating_before=o.before.rating,
        rating_after=o.after.rating,
        change=o.change,
        performance=o.performance,
        rated_games=len(o.games),
        score=o.score,
        games_before=o.before.games,
        games_after=o.after.games,
        grade_before=o.before.grade,
        grade_after=o.after.grade,
        state_before=state_to_json(o.before),
        state_after=state_to_json(o.after),
        detail=[game_detail_to_json(g) for g in o.games],
    )


def game_detail_to_json(g: engine.GameDetail) -> dict[str, object]:
    return {
        "round": g.round,
        "opponent": g.opponent,
        "score": g.score,
        "opponent_rating": g.opponent_rating,
        "effective_rating": g.effective_rating,
        "handicap": g.handicap,
        "handicap_given": g.handicap_given,
        "rating_before_game": g.rating_before_game,
        "expected": g.expected,
        "k": g.k,
        "change": g.change,
        "upset": g.upset,
        "bonus": g.bonus,
    }


@dataclass
class CheckDifference:
    player_id: int
    table_id: int | None
    what: str


def rerate_check() -> list[CheckDifference]:
    """Re-rate the whole history in memory and list every stored row or player that differs. Writes nothing."""
    tables = list(Table.objects.filter(status__in=RATED_STATUSES).order_by("date", "sequence"))
    table_ids = [t.pk for t in tables]
    entries: dict[int, list[int]] = defaultdict(list)
    for table_id, player_id in (
        TableEntry.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "seat")
        .values_list("table_id", "player_id")
    ):
        entries[table_id].append(player_id)
    games = tables_games_by_table(table_ids)
    states = starting_states({pid for ids in entries.values() for pid in ids})
    stored: dict[tuple[int, int], dict] = {
        (t, p): after
        for t, p, after in RatingRow.objects.filter(table_id__in=table_ids).values_list(
            "table_id", "player_id", "state_after"
        )
    }
    differences: list[CheckDifference] = []
    expected_keys: set[tuple[int, int]] = set()
    for table in tables:
        rated_games = engine_games(games.get(table.pk, []))
        playing = {g.first for g in rated_games} | {g.second for g in rated_games}
        try:
            result = engine.rate_table(
                engine.TableInput(
                    name=str(table),
                    date=table.date,
                    players=entries.get(table.pk, []),
                    states={pid: states[pid] for pid in playing},
                    games=rated_games,
                )
            )
        except engine.EngineError:
            continue
        for o in result.outcomes:
            states[o.key] = o.after
            key = (table.pk, o.key)
            expected_keys.add(key)
            want = state_to_json(o.after)
            have = stored.get(key)
            if have is None:
                differences.append(CheckDifference(o.key, table.pk, "no stored row"))
            elif have != want:
                differences.append(CheckDifference(o.key, table.pk, f"stored {have} != recomputed {want}"))
    for key in stored.keys() - expected_keys:
        differences.append(CheckDifference(key[1], key[0], "stored row that the history does not produce"))
    return differences
