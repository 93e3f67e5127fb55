"""One beat for the whole site (federation/beat_guard.py): a second beat stops at its start; the lock is given
back when the first stops, so a later one starts."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.core.cache import caches
from django.core.management import call_command

from federation.beat_guard import BEAT_LOCK_KEY, beat_guard_take, beat_lock_renew
from tests.conftest import skip_or_fail

pytestmark = [pytest.mark.services, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A Redis database nobody uses (empty), emptied afterwards."""
    try:
        for db in range(15, 0, -1):
            client = redis.Redis(host="127.0.0.1", port=6379, db=db, socket_connect_timeout=1)
            if client.dbsize() == 0:
                break
        else:
            skip_or_fail("no empty Redis database")
    except redis.RedisError:
        skip_or_fail("needs Redis at 127.0.0.1:6379")
    yield f"redis://127.0.0.1:6379/{db}"
    client.flushdb()


def start_beat(redis_url: str, folder: Path, name: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL"}}
    env.update(DEBUG="1", REDIS_URL=redis_url, LOG_FORMAT="text", DJANGO_SETTINGS_MODULE="federation.settings")
    schedule = folder / f"{name}-schedule"
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "federation", "--quiet", "beat", "--schedule", str(schedule)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def wait_until(condition, seconds: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.2)


def test_a_second_beat_stops_and_a_later_one_starts_after_the_first(redis_url: str, tmp_path: Path) -> None:
    client = redis.Redis.from_url(redis_url)
    first = start_beat(redis_url, tmp_path, "first")
    try:
        wait_until(lambda: client.get(BEAT_LOCK_KEY) is not None)
        holder = client.get(BEAT_LOCK_KEY)
        assert holder is not None and holder.decode().endswith(f":{first.pid}")

        second = start_beat(redis_url, tmp_path, "second")
        output, _ = second.communicate(timeout=120)
        assert second.returncode == 1, output
        assert "another beat runs" in output and str(first.pid) in output
        assert first.poll() is None and client.get(BEAT_LOCK_KEY) == holder  # the first keeps running, and its lock
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    assert client.get(BEAT_LOCK_KEY) is None  # given back at once, not left to expire

    third = start_beat(redis_url, tmp_path, "third")
    try:
        wait_until(lambda: (client.get(BEAT_LOCK_KEY) or b"").decode().endswith(f":{third.pid}"))
    finally:
        third.send_signal(signal.SIGTERM)
        third.communicate(timeout=60)


@pytest.mark.django_db
def test_rewrite_derived_files_forgets_the_pages_and_nothing_else_in_their_redis(redis_url: str, settings: Any) -> None:
    """With broker and page cache in one database, FLUSHDB erased the beat lock and the queue."""
    settings.CACHES = {
        **settings.CACHES,
        "pages": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "pages",
        },
    }
    client = redis.Redis.from_url(redis_url)
    client.set(BEAT_LOCK_KEY, "host:1", ex=90)
    client.lpush("celery", "a queued task")
    caches["pages"].set("page:/players/1/", "kept", 600)
    assert caches["pages"].get("page:/players/1/") == "kept"
    call_command("rewrite_derived_files", stdout=io.StringIO())
    assert caches["pages"].get("page:/players/1/") is None
    assert client.get(BEAT_LOCK_KEY) == b"host:1" and client.llen("celery") == 1


def test_a_beat_whose_lock_is_gone_takes_it_again_and_stops_if_another_has_it(redis_url: str, settings: Any) -> None:
    settings.REDIS_URL = redis_url
    client = redis.Redis.from_url(redis_url)
    lock = beat_guard_take()
    assert lock is not None
    me = client.get(BEAT_LOCK_KEY).decode()
    try:
        client.delete(BEAT_LOCK_KEY)  # what a FLUSHDB of the broker's database did
        assert beat_lock_renew(lock, me) is True
        assert client.get(BEAT_LOCK_KEY).decode() == me and client.ttl(BEAT_LOCK_KEY) > 0
        client.set(BEAT_LOCK_KEY, "other-host:7", ex=90)  # another beat took it meanwhile
        assert beat_lock_renew(lock, me) is False
        assert client.get(BEAT_LOCK_KEY) == b"other-host:7"  # not taken from it
    finally:
        client.delete(BEAT_LOCK_KEY)
