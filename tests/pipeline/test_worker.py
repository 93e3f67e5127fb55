"""End to end with a real Redis and a real Celery worker (conftest.py starts them and explains the database).

The worker waits for a quiet second after the last request before it re-rates, and its re-rate lock times
out after 1 s, so that these tests take seconds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from ratings.models import Game, PendingRerate, Player, RatingRow, RerateRun, Table, TableStatus
from ratings.services.rerate import rerate_check
from ratings.services.rerate.run import RERATE_LOCK_KEY
from ratings.services.tables.submit import table_changed
from tests.factories import make_director, make_player, make_table, make_tournament, round_robin
from tests.pipeline.conftest import (
    RedisForTests,
    Worker,
    celery_pointed_at,
    closed_port,
    started_worker,
    wait_for,
)
from tests.pipeline.histories import submit

pytestmark = [pytest.mark.slow, pytest.mark.services, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def drained(worker: Worker) -> bool:
    """Nothing pending, nothing queued: every request has been served."""
    return not PendingRerate.objects.exists() and worker.queue_empty()


def rated_history(weeks: int = 4) -> tuple[list[Player], list[Table]]:
    """Six players in a few tables, rated in-process as each is submitted (before the worker is used)."""
    players = [make_player() for _ in range(6)]
    tables = []
    for i in range(weeks):
        chosen = players[i % 2 : i % 2 + 5]
        table = make_table(chosen, date=dt.date(2024, 3, 2) + dt.timedelta(days=7 * i))
        round_robin(table, chosen, winner_first=i % 2 == 0)
        submit(table)
        tables.append(table)
    return players, tables


@contextmanager
def rerate_lock_held() -> Iterator[None]:
    """Hold the re-rate lock from the test process, as another run would."""
    with transaction.atomic():  # on SQLite an IMMEDIATE transaction: the write lock
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RERATE_LOCK_KEY])
        yield


def test_admin_submit_is_rated_by_the_worker_and_the_public_numbers_change(celery_worker: Worker) -> None:
    director = make_director()
    players = [make_player() for _ in range(4)]
    table = make_table(players, tournament=make_tournament(directors=[director]))
    round_robin(table, players)
    client = Client()
    client.force_login(director)

    with celery_worker.publishing():
        response = client.post(reverse("admin:ratings_table_submit", args=[table.pk]))
        assert response.status_code == 302
        table.refresh_from_db()
        assert table.status in (TableStatus.SUBMITTED, TableStatus.RATED)  # the worker may already be done
        wait_for(lambda: drained(celery_worker), what="the worker to rate the table", worker=celery_worker)

    table.refresh_from_db()
    assert table.status == TableStatus.RATED and table.first_rated_at is not None
    # The numbers the public lists show: four newcomers now have ratings; seat 1 won every game.
    ratings = dict(Player.objects.filter(pk__in=[p.pk for p in players]).values_list("pk", "rating"))
    assert ratings[players[0].pk] > ratings[players[1].pk] > ratings[players[2].pk] > ratings[players[3].pk] == 1
    assert RatingRow.objects.filter(table=table).count() == 4
    assert rerate_check() == []


def test_ten_edits_in_a_row_take_at_most_two_runs_and_the_last_sees_them_all(celery_worker: Worker) -> None:
    _players, tables = rated_history()
    runs_before = RerateRun.objects.count()
    games = list(Game.objects.filter(table__in=tables, second__isnull=False).order_by("table__date", "round"))

    with celery_worker.publishing():
        for game in games[:10]:  # ten separate edits, each its own transaction and its own queued task
            with transaction.atomic():
                game.result = "draw" if game.result != "draw" else "first"
                game.save()
                table_changed(table=game.table)
        wait_for(lambda: drained(celery_worker), what="the burst to be served", worker=celery_worker)

    runs = RerateRun.objects.count() - runs_before
    assert 1 <= runs <= 2, celery_worker.output()[-4000:]
    assert rerate_check() == []  # the last run saw all ten edits


def test_worker_retries_with_backoff_while_another_run_holds_the_lock(celery_worker: Worker) -> None:
    _players, tables = rated_history(weeks=2)
    runs_before = RerateRun.objects.count()
    with celery_worker.publishing():
        with transaction.atomic():
            game = Game.objects.filter(table=tables[0]).order_by("round").first()
            game.result = "draw"
            game.save()
            table_changed(table=tables[0])
        with rerate_lock_held():
            # The worker's run (after its quiet second) waits 1 s for the lock, then retries later.
            wait_for(lambda: "Retry in" in celery_worker.output(), timeout=20, what="a retry", worker=celery_worker)
            assert RerateRun.objects.count() == runs_before
        wait_for(lambda: drained(celery_worker), what="the retry to re-rate", worker=celery_worker)
    assert RerateRun.objects.count() == runs_before + 1
    assert rerate_check() == []


def test_worker_that_starts_serves_a_request_left_pending_while_the_broker_was_down(
    redis_for_tests: RedisForTests, tmp_path: Path
) -> None:
    players = [make_player() for _ in range(4)]
    table = make_table(players)
    round_robin(table, players)
    with celery_pointed_at(f"redis://127.0.0.1:{closed_port()}/0"):
        submit(table)  # the broker is down: saved, pending, nothing queued
    assert PendingRerate.objects.exists()

    with started_worker(redis_for_tests, tmp_path / "late-worker.log") as worker:
        wait_for(lambda: drained(worker), what="the starting worker to serve it", worker=worker)
    table.refresh_from_db()
    assert table.status == TableStatus.RATED
    assert rerate_check() == []
