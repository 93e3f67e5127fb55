"""What-ifs for the rating commission: FESA's rules with other constants (the K table, the weak-player bonus,
the handicaps in grades) replayed over the whole history, in memory, never written (docs/rules.md §11).

``whatif_request`` records the question (a ``WhatIfReport`` keyed by the constants and the data version: the
same question on the same data is answered once) and queues the task after commit; ``whatif_compute``, which
the task calls, replays the history with those constants through the re-rate's own replay (ratings/services/
rerate/replay.py) with nothing stored to skip by, predicts each rated table's games from the what-if's ratings
before it, exactly as FESA's own predictions are read from the stored ratings (ratings/selectors/predictions.py),
and scores both with the comparison's figures (ratings/engine/systems/compare.py). It ends with the players
whose rating or grade would differ most today. The one row it writes is its report's.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterator
from typing import Any

from django.db import IntegrityError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone

from ratings import engine
from ratings.db import batched_load, gc_paused, id_batches
from ratings.engine.rules import RuleConstants
from ratings.engine.systems.base import PairGame
from ratings.engine.systems.compare import HistoryGame, HistoryTable, compare
from ratings.models import Player, TableStatus, WhatIfReport
from ratings.selectors.predictions import fesa_expected, prediction_history, prediction_tables_count
from ratings.selectors.states import starting_states
from ratings.selectors.versions import data_version

from .queue import enqueue
from .rerate.replay import History, Replay, TableInfo

log = logging.getLogger(__name__)

WHATIF_TASK = "ratings.tasks.task_whatif_compute"  # the name ratings/tasks.py registers it under
STALLED = dt.timedelta(minutes=30)
PROGRESS_EVERY = 100
KEEP = 20
"""Finished what-ifs kept (each some 100 KB of figures), the newest first; one under way is always kept."""
TOP = 20
"""The players shown by how far the what-if would move their rating."""
GRADES_KEPT = 100
"""The players with another grade kept, the largest differences first (the count says how many there are)."""


def whatif_request(*, rules: RuleConstants, user: Any = None, queue: bool = True) -> WhatIfReport:
    """The what-if of ``rules`` on the current data: the stored one (done or under way), or a new one queued.

    A failed one, or one stalled for ``STALLED`` (a worker killed in the middle), is queued again. Without
    ``queue`` nothing is queued: the caller computes it itself (``manage.py compare_ratings --what-if``).
    """
    version = data_version().key
    now = timezone.now()
    requested_by = user if getattr(user, "is_authenticated", False) else None
    with transaction.atomic():
        try:
            with transaction.atomic():
                report = WhatIfReport.objects.create(
                    rules_key=rules.key,
                    rules=rules.as_json(),
                    version=version,
                    requested_by=requested_by,
                    requested_at=now,
                    updated_at=now,
                )
        except IntegrityError:  # asked already on this data
            report = WhatIfReport.objects.get(rules_key=rules.key, version=version)
            again = Q(status=WhatIfReport.Status.FAILED) | Q(
                status__in=[WhatIfReport.Status.QUEUED, WhatIfReport.Status.RUNNING], updated_at__lt=now - STALLED
            )
            taken = (
                WhatIfReport.objects.filter(again, pk=report.pk)
                .filter(status=report.status, updated_at=report.updated_at)
                .update(status=WhatIfReport.Status.QUEUED, updated_at=now, tables_done=0, error="")
            )
            report.refresh_from_db()
            if not taken:
                return report
        if queue:
            enqueue(
                WHATIF_TASK,
                report.pk,
                failure="could not queue the what-if; it stays queued, and asking again later queues it again",
            )
    return report


def whatif_compute(*, report_id: int) -> WhatIfReport:
    """Compute the what-if ``report_id`` unless another run has it (compare-and-set on its state)."""
    now = timezone.now()
    report = WhatIfReport.objects.get(pk=report_id)
    waiting = report.status == WhatIfReport.Status.QUEUED
    stalled = report.status == WhatIfReport.Status.RUNNING and report.updated_at < now - STALLED
    if not (waiting or stalled):
        return report
    total = prediction_tables_count()
    taken = WhatIfReport.objects.filter(pk=report.pk, status=report.status, updated_at=report.updated_at).update(
        status=WhatIfReport.Status.RUNNING, updated_at=now, tables_done=0, tables_total=total, error=""
    )
    if not taken:
        report.refresh_from_db()
        return report

    def progress(done: int) -> None:
        # For the page only: a write that cannot be made now (SQLite busy) must not cost the run.
        try:
            WhatIfReport.objects.filter(pk=report.pk).update(tables_done=done, updated_at=timezone.now())
        except OperationalError:
            log.warning("could not record the what-if's progress", exc_info=True)

    try:
        result = whatif_result(RuleConstants.from_json(report.rules), progress=progress)
    except Exception as exc:
        log.exception("the what-if %s failed", report.pk)
        WhatIfReport.objects.filter(pk=report.pk).update(
            status=WhatIfReport.Status.FAILED, error=repr(exc)[:2000], updated_at=timezone.now()
        )
        raise
    now = timezone.now()
    WhatIfReport.objects.filter(pk=report.pk).update(
        status=WhatIfReport.Status.DONE, result=result, finished_at=now, updated_at=now, tables_done=total
    )
    report.refresh_from_db()
    _prune()
    log.info("what-if computed", extra={"report": report.pk, "rules": report.rules_key, "version": report.version})
    return report


def _prune() -> None:
    keep = list(
        WhatIfReport.objects.filter(status=WhatIfReport.Status.DONE)
        .order_by("-finished_at", "-id")
        .values_list("pk", flat=True)[:KEEP]
    )
    WhatIfReport.objects.filter(status__in=[WhatIfReport.Status.DONE, WhatIfReport.Status.FAILED]).exclude(
        pk__in=keep
    ).delete()


def whatif_result(rules: RuleConstants, *, progress: Callable[[int], object] | None = None) -> dict[str, Any]:
    """The figures of FESA's rules with ``rules`` beside those of the stored ratings, and who would move.

    Plain values (JSON): ``{"rules", "differences", "whatif": compare's answer, "actual": compare's answer,
    "unrated": tables the what-if could not rate, "players": [...], "grades": [...], "grades_count": n}``.
    """
    with gc_paused():  # 10^5..10^6 states made and kept, as in a re-rate
        history = History(None)
        players = history.playing_all()
        replay = Replay(history, batched_load(starting_states, players), {}, texts=False, rules=rules)
        whatif = compare(_whatif_tables(history, replay, rules), [], progress=progress, every=PROGRESS_EVERY)
    actual = compare(prediction_history(), [])
    players_moved, grades, grades_count = _moved(replay.final_states())
    return {
        "rules": rules.as_json(),
        "differences": {name: list(pair) for name, pair in rules.differences().items()},
        "whatif": whatif,
        "actual": actual,
        "unrated": len(replay.errors),
        "players": players_moved,
        "grades": grades,
        "grades_count": grades_count,
    }


def _whatif_tables(history: History, replay: Replay, rules: RuleConstants) -> Iterator[HistoryTable]:
    """The rated tables in the history's order, each game predicted from the what-if's ratings before its
    table, as ``prediction_history`` predicts from the stored ones; a submitted table is replayed (its players
    go on from it, as in the stored history) but not scored, as it is not in the stored figures either."""
    ready: list[HistoryTable] = []
    handicaps = rules.handicap_values

    def before(table: TableInfo, _playing: set[int]) -> None:
        if table.status != TableStatus.RATED:
            return
        games = []
        for game in history.games.get(table.pk, ()):
            first, second = replay.state_of(game.first), replay.state_of(game.second)  # type: ignore[arg-type]
            handicap = game.handicap
            expected = fesa_expected(
                first.rating,
                second.rating,
                handicap=handicap.code if handicap is not None else "",
                giver_is_first=handicap is not None and handicap.giver == game.first,
                handicaps=handicaps,
            )
            pair = PairGame(game.round, game.first, game.second, game.score, handicap=handicap is not None)
            games.append(HistoryGame(pair, counted=first.games > 0 and second.games > 0, stored=expected))
        if games:  # as prediction_history, which knows a table by its games
            ready.append(HistoryTable(table.date, games))

    for _table, _items in replay.run(before=before):
        yield from ready
        ready.clear()


def _moved(states: dict[int, engine.PlayerState]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """The players whose what-if state differs from their stored one today: the ``TOP`` whose rating moves
    most, and those whose grade (the rules' own, before any officer's decision) would differ."""
    moved: list[dict[str, Any]] = []
    stored = [
        row
        for chunk in id_batches(sorted(states))
        for row in Player.objects.filter(pk__in=chunk).values_list("pk", "rating", "fesa_grade")
    ]
    for pid, rating, grade in stored:
        state = states[pid]
        if state.rating != rating or state.grade != grade:
            moved.append(
                {
                    "player": pid,
                    "rating": rating,
                    "whatif_rating": state.rating,
                    "change": state.rating - rating,
                    "grade": grade,
                    "whatif_grade": state.grade,
                }
            )
    by_rating = sorted((m for m in moved if m["change"]), key=lambda m: (-abs(m["change"]), m["player"]))[:TOP]
    graded = [m for m in moved if m["grade"] != m["whatif_grade"]]
    graded.sort(key=lambda m: (-abs(m["whatif_grade"] - m["grade"]), -abs(m["change"]), m["player"]))
    return by_rating, graded[:GRADES_KEPT], len(graded)
