"""Two Celery workers on one database and one Redis, as on two machines: every task is served by one of them,
re-rates one at a time under the one lock, and the result is what one worker alone would give."""

from __future__ import annotations

import gzip
import json
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from django.db import transaction

from ratings.models import Game, PendingRerate, RerateRun
from ratings.selectors.history_dump import history_tables
from ratings.services.history_files import JSON_NAME
from ratings.services.rerate import rerate_check
from ratings.services.tables.submit import table_changed
from tests.pipeline.conftest import RedisForTests, Worker, process_env, redis_for_tests, wait_for
from tests.pipeline.test_worker import rated_history

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

ROOT = Path(__file__).resolve().parent.parent.parent
__all__ = ["redis_for_tests"]  # the session's Redis database and queue (tests/pipeline/conftest.py)


def downloads_true() -> bool:
    """The history download written by whichever worker last wrote it holds the history as it is now."""
    try:
        written = json.loads(gzip.decompress((Path(settings.DOWNLOADS_DIR) / JSON_NAME).read_bytes()))
    except (FileNotFoundError, EOFError, json.JSONDecodeError):
        return False
    return bool(written["tables"] == json.loads(json.dumps(list(history_tables()), default=str)))


@contextmanager
def worker_started(redis: RedisForTests, log: Path) -> Iterator[Worker]:
    """A worker as the site runs it (deploy/systemd/fesa-worker.service) on the tests' Redis database: the
    tests' queue, and Celery's default one, where a worker queues the downloads' rewrite after its run."""
    env = process_env(REDIS_URL=redis.url, RERATE_LOCK_TIMEOUT="1", RERATE_QUIET_SECONDS="1")
    command = [
        str(Path(sys.executable).parent / "celery"), "-A", "federation", "--quiet", "worker", "--concurrency=1",
        "-Q", f"{redis.queue},celery", "--loglevel=INFO", f"--hostname={log.stem}-{uuid.uuid4().hex[:6]}@%h",
    ]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    worker = Worker(process, log, redis)
    try:
        wait_for(lambda: " ready." in worker.output() or process.poll() is not None, timeout=60, what="a worker")
        assert process.poll() is None, worker.output()
        yield worker
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def two_workers(redis_for_tests: RedisForTests, tmp_path: Path) -> Iterator[tuple[Worker, Worker]]:
    with (
        worker_started(redis_for_tests, tmp_path / "first.log") as first,
        worker_started(redis_for_tests, tmp_path / "second.log") as second,
    ):
        yield first, second


def test_two_workers_share_the_tasks_and_rerate_one_at_a_time(two_workers: tuple[Worker, Worker]) -> None:
    first, second = two_workers
    _players, tables = rated_history()
    runs_before = RerateRun.objects.count()
    games = list(Game.objects.filter(table__in=tables, second__isnull=False).order_by("table__date", "round"))

    with first.publishing():
        for game in games[:10]:  # ten edits, each queuing its own task, for whichever worker is free
            with transaction.atomic():
                game.result = "draw" if game.result != "draw" else "first"
                game.save()
                table_changed(table=game.table)
        wait_for(
            lambda: not PendingRerate.objects.exists() and first.queue_empty(),
            timeout=90,
            what="the edits to be served",
            worker=first,
        )
        wait_for(lambda: downloads_true(), timeout=60, what="the downloads of the last run", worker=second)

    logs = {"first": first.output(), "second": second.output()}
    for name, log in logs.items():
        assert "received" in log, f"the {name} worker took no task:\n{log[-3000:]}"
        assert "raised unexpected" not in log and "ERROR" not in log, log[-3000:]
    assert RerateRun.objects.count() > runs_before
    assert rerate_check() == []  # as if one worker had served every edit
