"""One beat for the whole site (federation/beat_guard.py): a second beat stops at its start; the lock is given
back when the first stops, so a later one starts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from federation.beat_guard import BEAT_LOCK_KEY
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
