"""Failures: the broker down when a director submits, a run killed in the middle, two runs at once.

These tests commit for real (transactional) so that other threads and processes see the data; see conftest.py
for the database they share.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections, transaction

from ratings.models import Game, PendingRerate, Player, RatingRow, RerateRun, Table, TableStatus
from ratings.services.rerate import RerateBusy, rerate_check, rerate_from, rerate_pending
from ratings.services.rerate.rows import RowWriter
from ratings.services.tables.submit import table_changed
from tests.factories import make_player, make_table, round_robin
from tests.pipeline.conftest import REPO, celery_pointed_at, closed_port, process_env, wait_for
from tests.pipeline.histories import submit

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.fixture
def broker_down() -> Iterator[None]:
    with celery_pointed_at(f"redis://127.0.0.1:{closed_port()}/0"):
        yield


PROBE = "import sqlite3, sys; sqlite3.connect(sys.argv[1], timeout=0).execute('SELECT 1 FROM ratings_player')"
"""Exits with an error while a writer holds SQLite's pending lock (it is committing, or waiting to)."""


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


@contextlib.contextmanager
def final_write_held() -> Iterator[Callable[[], bool]]:
    """Hold, from another connection, a lock that a run's commit needs; yield "is a run waiting for it now?".

    Nothing in the run is made to wait on purpose: it does all its work and then blocks where a real run can,
    inside its transaction, until this lock is let go. On SQLite an open read transaction keeps a shared
    lock, and a writer's commit must wait for every reader to finish; a writer that has come that far holds
    the pending lock, which turns away any new reader (so a fresh connection's read fails at once). On
    PostgreSQL the pending row is locked for update: the run's compare-and-set on it, its last write, waits.
    """
    if connection.vendor == "sqlite":
        path = connection.settings_dict["NAME"]
        holder = sqlite3.connect(path, isolation_level=None, timeout=0)
        holder.execute("BEGIN")
        holder.execute("SELECT count(*) FROM ratings_pendingrerate").fetchone()

        def waiting() -> bool:
            # From another process: this one's own connections share its shared lock and would be let in.
            probe = [sys.executable, "-c", PROBE, path]
            return subprocess.run(probe, capture_output=True, check=False).returncode != 0

        try:
            yield waiting
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    holder_connection = connections.create_connection("default")
    try:
        with holder_connection.cursor() as cursor:
            cursor.execute("BEGIN")
            cursor.execute("SELECT id FROM ratings_pendingrerate WHERE id = 1 FOR UPDATE")

            def waiting() -> bool:
                with connection.cursor() as probe:
                    probe.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
                    return bool(probe.fetchone()[0])

            try:
                yield waiting
            finally:
                cursor.execute("ROLLBACK")
    finally:
        holder_connection.close()


def test_run_killed_inside_its_transaction_leaves_nothing_half_written(tmp_path: Path) -> None:
    _players, tables = history()
    correct_first_game(tables[0])  # pending: the broker is down
    before = snapshot()
    assert before["pending"]

    command = [sys.executable, "manage.py", "rerate", "--pending"]
    output = tmp_path / "rerate.log"
    with final_write_held() as run_waiting, output.open("wb") as out:
        process = subprocess.Popen(command, cwd=REPO, env=process_env(), stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_for(lambda: run_waiting() or process.poll() is not None, timeout=60, what="the run to block")
            assert process.poll() is None, output.read_text()
            os.kill(process.pid, signal.SIGKILL)  # inside the transaction: every row replaced, nothing committed
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

    def hold() -> int:
        inside.set()
        release.wait(30)
        return 0

    def first_run() -> None:
        try:
            if connection.vendor == "sqlite":
                # This thread's connection alone holds its run at the run's last write (its log line), inside
                # the transaction: a temporary trigger calling back into the test. SQLite lets readers read
                # meanwhile, as they could during a long run.
                connection.ensure_connection()
                connection.connection.create_function("hold_the_run", 0, hold)
                with connection.cursor() as cursor:
                    cursor.execute(
                        "CREATE TEMP TRIGGER hold_the_run AFTER UPDATE ON ratings_reraterun "
                        "BEGIN SELECT hold_the_run(); END"
                    )
            start = time.monotonic()
            rerate_pending()
            spans["first"] = (start, time.monotonic())
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            connection.close()

    with contextlib.ExitStack() as stack:
        if connection.vendor != "sqlite":
            run_waiting = stack.enter_context(final_write_held())
            inside_now: Callable[[], bool] = run_waiting
        else:
            inside_now = inside.is_set
        thread = threading.Thread(target=first_run)
        thread.start()
        try:
            wait_for(lambda: inside_now() or not thread.is_alive(), timeout=30, what="the first run to be held")
            assert thread.is_alive(), errors
            started = time.monotonic()
            with pytest.raises(RerateBusy):
                rerate_pending(lock_timeout=0.5)
            assert 0.4 < time.monotonic() - started < 10  # it waited for the lock, then gave up
        finally:
            release.set()
            stack.close()
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


def test_a_full_rerate_that_fails_while_writing_leaves_every_row_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rows of a full re-rate go out in batches while the replay goes on (on PostgreSQL through a COPY left
    open): an error in the middle fails the COPY with it, the error itself reaches the caller, and the
    transaction takes back the rows deleted and those already written."""
    history(tables=4)
    before = snapshot()
    monkeypatch.setattr(RowWriter, "BATCH", 1)  # every table's rows are out before the next one is rated
    add, calls = RowWriter.add, itertools.count()

    def failing_add(writer: RowWriter, table: Any, items: Any) -> None:
        if next(calls) == 2:
            raise LookupError("a bug in the middle of the replay")
        add(writer, table, items)

    monkeypatch.setattr(RowWriter, "add", failing_add)
    with pytest.raises(LookupError, match="a bug in the middle"):
        rerate_from()
    assert snapshot() == before
    assert rerate_check() == []
