"""Two Celery workers on one database and one Redis, as on two machines: every task is served by one of them,
re-rates one at a time under the one lock, and the result is what one worker alone would give."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import transaction

from ratings.models import Game, PendingRerate, RerateRun
from ratings.selectors.history_dump import history_tables
from ratings.services.history_files import JSON_NAME
from ratings.services.rerate import rerate_check
from ratings.services.tables.submit import table_changed
from tests.pipeline.conftest import RedisForTests, Worker, redis_for_tests, started_worker, wait_for
from tests.pipeline.test_worker import rated_history

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

ROOT = Path(__file__).resolve().parent.parent.parent
AS_DEPLOYED = ("--concurrency=1",)
__all__ = ["redis_for_tests"]  # the session's Redis database and queue (tests/pipeline/conftest.py)


def downloads_true() -> bool:
    """The history download written by whichever worker last wrote it holds the history as it is now."""
    try:
        written = json.loads(gzip.decompress((Path(settings.DOWNLOADS_DIR) / JSON_NAME).read_bytes()))
    except (FileNotFoundError, EOFError, json.JSONDecodeError):
        return False
    return bool(written["tables"] == json.loads(json.dumps(list(history_tables()), default=str)))


@pytest.fixture
def two_workers(redis_for_tests: RedisForTests, tmp_path: Path) -> Iterator[tuple[Worker, Worker]]:
    """Two workers as the site runs them (deploy/systemd/fesa-worker.service): the tests' queue, and Celery's
    default one, where a worker queues the downloads' rewrite after its run."""
    queues = f"{redis_for_tests.queue},celery"
    with (
        started_worker(redis_for_tests, tmp_path / "first.log", options=AS_DEPLOYED, queues=queues) as first,
        started_worker(redis_for_tests, tmp_path / "second.log", options=AS_DEPLOYED, queues=queues) as second,
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
