"""Fixtures of the pipeline tests: a database shared with other processes, a real Redis and a real worker.

**The database.** The worker (and, in the kill test, a ``manage.py rerate`` process) must see what the test
writes, so tests that start another process are transactional (``django_db(transaction=True)``: their writes
are committed) and the test database must be one other processes can open:

* on PostgreSQL (``DATABASE_URL=postgres://...``, as ``make test-postgres`` runs) pytest-django's test
  database already is; the other processes get its name;
* on SQLite (the default) pytest-django keeps the test database in memory, which no other process can open.
  Importing this conftest therefore gives it a file (``DATABASES["default"]["TEST"]["NAME"]``, in /dev/shm
  where there is one with room) before the session creates it. The session's other tests then run on that
  file too: a little slower, otherwise the same, and pytest-django deletes it at the end. Writers wait for each other
  through SQLite's own locking (IMMEDIATE transactions, federation/settings.py).

**Redis.** The machine's Redis at 127.0.0.1:6379, or ``REDIS_URL``'s host; without one the tests that need it
skip (fail on CI, ``REQUIRE_SERVICES=1``). The session (each pytest-xdist worker's) claims a database number
nobody uses (empty when it starts, ``claimed_redis_database``) and a queue name of its own, and flushes that
database at the end.

**The worker.** ``celery -A federation worker --pool=solo --concurrency=1`` on that queue, started once for
the module that asks for it (or by a test, ``started_worker``) and always terminated, killed if it does not
stop. Until a test opens ``worker.publishing()`` its own tasks still run in-process, so it can build a rated
history quickly; inside, the Celery app publishes to the worker's Redis and queue (put back afterwards).
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlparse

import kombu.pools
import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from tests.conftest import skip_or_fail

REPO = Path(__file__).resolve().parents[2]
_default = settings.DATABASES["default"]
if _default["ENGINE"] == "django.db.backends.sqlite3" and not _default.get("TEST", {}).get("NAME"):
    # In memory-backed /dev/shm where the machine has one with room (a container's is often 64 MB): the
    # transactional tests commit often, and a commit there waits for no disk.
    _shm = Path("/dev/shm")
    _in_memory = _shm.is_dir() and shutil.disk_usage(_shm).free > 2**30
    _folder = tempfile.mkdtemp(prefix="federation-tests-", dir=_shm if _in_memory else None)
    atexit.register(shutil.rmtree, _folder, ignore_errors=True)  # pytest-django deletes the file, not its folder
    _default.setdefault("TEST", {})["NAME"] = str(Path(_folder) / "test_db.sqlite3")


def closed_port() -> int:
    """A local port nothing listens on (bound, then released): a broker that is down."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url() -> str:
    """The URL of the test database, for another process (call once the test database exists)."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    auth = quote(s["USER"] or "") + (f":{quote(s['PASSWORD'])}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def process_env(**extra: str) -> dict[str, str]:
    """The environment of another Django process on the test database (test settings, no broker)."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(DJANGO_SETTINGS_MODULE="federation.test_settings", DATABASE_URL=database_url(), PYTHONPATH=str(REPO))
    # The other process reads the clock the tests run on (tests/conftest.py), from this moment: a worker compares
    # the times the test process wrote (a re-rate's request time) with its own.
    env["TESTS_CLOCK"] = timezone.now().isoformat()
    env.update(extra)
    return env


@dataclass
class RedisForTests:
    url: str  # with the database number
    queue: str


@contextmanager
def claimed_redis_database() -> Iterator[str]:
    """The URL of a database of the machine's Redis (or ``REDIS_URL``'s server) that nobody uses: empty when
    claimed, flushed when the block ends. Skips (fails on CI) without a Redis or a free database."""
    import redis

    base = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    parsed = urlparse(base)
    server = f"{parsed.scheme}://{parsed.netloc}"
    try:
        redis.Redis.from_url(f"{server}/0", socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        skip_or_fail(f"no Redis at {server}: {exc}")
    claim = uuid.uuid4().hex
    for number in (9, 10, 11, 12, 13, 14, 15, 8, 7, 6, 5):
        client = redis.Redis.from_url(f"{server}/{number}")
        # Claimed by a key set only if absent: test processes that start together (pytest-xdist's workers,
        # other checkouts) may all see the same database empty, and only one of them gets it.
        if client.dbsize() == 0 and client.set("rerate-tests-claimed", claim, nx=True):
            break
    else:
        skip_or_fail(f"no empty Redis database at {server}")
    try:
        yield f"{server}/{number}"
    finally:
        client.flushdb()


@pytest.fixture(scope="session")
def redis_for_tests() -> Iterator[RedisForTests]:
    with claimed_redis_database() as url:
        yield RedisForTests(url=url, queue=f"rerate-tests-{uuid.uuid4().hex[:8]}")


@contextmanager
def celery_pointed_at(broker_url: str, queue: str | None = None) -> Iterator[None]:
    """Make the test process's Celery app publish to ``broker_url`` (and ``queue``) instead of running eagerly."""
    from federation.celery import app

    keys = ("broker_url", "task_always_eager", "task_default_queue")
    saved = {k: app.conf[k] for k in keys}

    def reset_pools() -> None:
        kombu.pools.reset()  # close and forget every connection and producer pool (kombu keeps them globally)
        app._after_fork()  # and the app's references to them

    app.conf.update(broker_url=broker_url, task_always_eager=False, task_default_queue=queue or "celery")
    reset_pools()
    try:
        yield
    finally:
        reset_pools()
        app.conf.update(saved)


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    log: Path
    redis: RedisForTests

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def publishing(self) -> AbstractContextManager[None]:
        """While open, the test process's tasks go to this worker (not run in-process)."""
        return celery_pointed_at(self.redis.url, self.redis.queue)

    def queue_empty(self) -> bool:
        import redis

        return int(redis.Redis.from_url(self.redis.url).llen(self.redis.queue)) == 0


SOLO = ("--pool=solo", "--concurrency=1", "--without-mingle", "--without-gossip", "--without-heartbeat")
"""A test worker's options: one process, and no chatter with other workers."""


@contextmanager
def started_worker(
    redis_for_tests: RedisForTests, log: Path, *, options: tuple[str, ...] = SOLO, queues: str = "", **extra_env: str
) -> Iterator[Worker]:
    """A real worker on the test database, terminated on leaving (killed if it does not stop).

    RERATE_LOCK_TIMEOUT is 1 s, so that a lock held by the test turns into retries quickly, and the quiet
    moment before a run (RERATE_QUIET_SECONDS) 1 s. ``options``: the worker's own (one process unless said);
    ``queues``: those it serves (the tests' queue unless said).
    """
    env = process_env(REDIS_URL=redis_for_tests.url, RERATE_LOCK_TIMEOUT="1", RERATE_QUIET_SECONDS="1", **extra_env)
    command = [
        str(Path(sys.executable).parent / "celery"), "-A", "federation", "worker", *options,
        "-Q", queues or redis_for_tests.queue, "--loglevel=INFO", f"--hostname={log.stem}-{uuid.uuid4().hex[:6]}@%h",
    ]  # fmt: skip
    with running_process(command, env, log, ready=lambda: " ready." in log.read_text(errors="replace")) as process:
        yield Worker(process, log, redis_for_tests)


@contextmanager
def running_process(command: list[str], env: dict[str, str], log: Path, *, ready: Any) -> Iterator[Any]:
    """A process of the project started with ``env``, its output in ``log``, once ``ready()``; terminated on
    leaving (killed if it does not stop in 30 s). Fails the test with the log if it ends before it is ready."""
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: ready() or process.poll() is not None, timeout=60, what=f"{Path(command[0]).name} to start")
        if process.poll() is not None:
            pytest.fail(f"{Path(command[0]).name} did not start:\n{log.read_text(errors='replace')}")
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def celery_worker(
    redis_for_tests: RedisForTests, django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Worker]:
    """One worker for the module's tests."""
    with started_worker(redis_for_tests, tmp_path_factory.mktemp("worker") / "worker.log") as worker:
        yield worker


def wait_for(
    condition: Any, *, timeout: float = 30.0, what: str = "the condition", worker: Worker | None = None
) -> None:
    """Poll ``condition()`` until it is true; fail with ``what`` (and the worker's log) after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            log = f"\nworker log:\n{worker.output()[-6000:]}" if worker is not None else ""
            pytest.fail(f"timed out after {timeout:g} s waiting for {what}{log}")
        time.sleep(0.1)
