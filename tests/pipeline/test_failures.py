"""Failures: the broker down when a director submits, a run killed in the middle, two runs at once.

These tests commit for real (transactional) so that other threads and processes see the data; see conftest.py
for the database they share.
"""

from __future__ import annotations

import datetime as dt
import itertools
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction

from ratings.models import Game, PendingRerate, Player, RatingRow, RerateRun, Table, TableStatus
from ratings.services.rerate import RerateBusy, rerate_check, rerate_pending
from ratings.services.rerate import run as rerate_run
from ratings.services.tables import table_changed
from tests.factories import make_player, make_table, round_robin
from tests.pipeline.conftest import REPO, celery_pointed_at, closed_port, process_env, wait_for
from tests.pipeline.histories import submit

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def broker_down() -> Iterator[None]:
    with celery_pointed_at(f"redis://127.0.0.1:{closed_port()}/0"):
        yield


def history(tables: int = 3) -> tuple[list[Player], list[Table]]:
    """Five players in a few rated tables (rated in-process as each is submitted)."""
    players = [make_player() for _ in range(5)]
    made = []
    for i in range(tables):
        table = make_table(players, date=dt.date(2024, i + 1, 6))
        round_robin(table, players, winner_first=i % 2 == 0)
        submit(table)
        made.append(table)
    return players, made


def correct_first_game(table: Table) -> None:
    """Correct a game while the broker is down: the request stays pending."""
    with celery_pointed_at(f"redis://127.0.0.1:{closed_port()}/0"), transaction.atomic():
        game = Game.objects.filter(table=table).order_by("round").first()
        game.result = "draw"
        game.save()
        table_changed(table=table)


def snapshot() -> dict[str, Any]:
    """Everything a run writes, to tell whether anything changed."""
    return {
        "rows": sorted(
            (r["table_id"], r["player_id"], r["rating_after"], str(r["state_after"]), str(r["detail"]))
            for r in RatingRow.objects.values("table_id", "player_id", "rating_after", "state_after", "detail")
        ),
        "players": sorted(Player.objects.values_list("pk", "rating", "games", "grade", "peak_rating", "last_played")),
        "tables": sorted(Table.objects.values_list("pk", "status", "last_rerated_at", "needs_rerate")),
        "pending": list(PendingRerate.objects.values_list("from_date", "generation")),
        "runs": RerateRun.objects.count(),
    }


def test_submit_with_the_broker_down_saves_the_table_and_a_later_run_rates_it(
    broker_down: None, caplog: pytest.LogCaptureFixture
) -> None:
    players = [make_player() for _ in range(4)]
    table = make_table(players)
    round_robin(table, players)

    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="ratings"):
        submit(table)  # the director's submission: must neither fail nor hang
    assert time.monotonic() - started < 10
    assert "stays pending" in caplog.text

    table.refresh_from_db()
    assert table.status == TableStatus.SUBMITTED  # the site shows "submitted, waiting to be rated"
    assert PendingRerate.objects.filter(from_date=table.date).exists()
    assert not RatingRow.objects.exists()

    outcome = rerate_pending()  # what the beat or the worker's start does once the broker is back
    table.refresh_from_db()
    assert outcome is not None and outcome.tables_rated == 1
    assert table.status == TableStatus.RATED and RatingRow.objects.filter(table=table).count() == 4
    assert not PendingRerate.objects.exists()


def test_run_killed_inside_its_transaction_leaves_nothing_half_written(tmp_path: Path) -> None:
    _players, tables = history()
    correct_first_game(tables[0])  # pending: the broker is down
    before = snapshot()
    assert before["pending"]

    paused = tmp_path / "paused"
    env = process_env(RERATE_TEST_PAUSE_FILE=str(paused), RERATE_TEST_PAUSE_SECONDS="120")
    command = [sys.executable, "manage.py", "rerate", "--pending"]
    output = tmp_path / "rerate.log"
    with output.open("wb") as out:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: paused.exists() or process.poll() is not None, timeout=60, what="the run to pause")
        assert process.poll() is None, output.read_text()
        os.kill(process.pid, signal.SIGKILL)  # inside the transaction: rows replaced, not committed
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
    assert process.returncode == -signal.SIGKILL

    assert snapshot() == before  # the old rows, the pending mark, no log line of the dead run
    outcome = rerate_pending()
    assert outcome is not None and outcome.cleared
    assert rerate_check() == []  # the same result as a clean run from scratch


def test_two_runs_do_not_interleave_and_the_one_that_waits_is_told_busy() -> None:
    _players, tables = history()
    correct_first_game(tables[0])
    inside, release = threading.Event(), threading.Event()
    spans: dict[str, tuple[float, float]] = {}
    errors: list[BaseException] = []

    def hold() -> None:
        inside.set()
        release.wait(30)

    def first_run() -> None:
        try:
            start = time.monotonic()
            rerate_run.inside_transaction_hook = hold
            rerate_pending()
            spans["first"] = (start, time.monotonic())
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            rerate_run.inside_transaction_hook = None
            connection.close()

    thread = threading.Thread(target=first_run)
    thread.start()
    try:
        assert inside.wait(30), "the first run never reached its transaction"
        started = time.monotonic()
        with pytest.raises(RerateBusy):
            rerate_pending(lock_timeout=0.5)
        assert 0.4 < time.monotonic() - started < 10  # it waited for the lock, then gave up
    finally:
        release.set()
        thread.join(30)
    assert not errors, errors

    correct_first_game(tables[1])
    start = time.monotonic()
    outcome = rerate_pending(lock_timeout=5)
    assert outcome is not None and outcome.cleared
    assert spans["first"][1] <= start  # the second run began only after the first had committed
    runs = list(RerateRun.objects.order_by("started_at").values_list("started_at", "finished_at"))
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(runs))  # no two runs overlap
    assert rerate_check() == []
