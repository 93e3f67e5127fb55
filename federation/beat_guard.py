"""One beat for the whole site: a second one refuses to start.

Each Celery beat queues every task of the schedule, so two (on two machines, or a unit enabled twice) queue
everything twice. When beat starts it takes a lock in the broker's Redis (``BEAT_LOCK_KEY``, expiring after
``BEAT_LOCK_SECONDS``) and renews it every ``BEAT_RENEW_SECONDS`` while it runs; a beat that finds the lock held
by another logs an ERROR naming the holder and exits, and systemd's or compose's restart tries again later. A beat
that stops gives the lock back; one that dies leaves it to expire, so a waiting one takes over within
``BEAT_LOCK_SECONDS``. Without a broker (tasks in-process) there is no beat to guard.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import socket
import threading

import redis
from django.conf import settings
from redis.lock import Lock

log = logging.getLogger(__name__)

BEAT_LOCK_KEY = "ratings:beat-lock"
BEAT_LOCK_SECONDS = 90.0
BEAT_RENEW_SECONDS = 30.0


class AnotherBeatRuns(SystemExit):
    """Raised at beat's start when another beat holds the lock: the process ends with status 1."""


def beat_guard_take() -> Lock | None:
    """Take the beat lock and keep it renewed in a thread of this process; AnotherBeatRuns if another has it."""
    if not settings.REDIS_URL:
        return None
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5, socket_connect_timeout=5)
    me = f"{socket.gethostname()}:{os.getpid()}"
    lock = Lock(client, BEAT_LOCK_KEY, timeout=BEAT_LOCK_SECONDS, thread_local=False)
    if not lock.acquire(blocking=False, token=me):
        holder = client.get(BEAT_LOCK_KEY)
        log.error(
            "another beat runs (%s): this one stops; one beat serves the whole site (docs/deploy.md)",
            holder.decode() if holder else "unknown",
        )
        raise AnotherBeatRuns(1)

    def renew() -> None:
        stop = threading.Event()
        while not stop.wait(BEAT_RENEW_SECONDS):
            try:
                lock.reacquire()
            except redis.RedisError:
                log.warning("could not renew the beat lock", exc_info=True)

    threading.Thread(target=renew, name="beat-lock", daemon=True).start()
    atexit.register(_release, lock)  # a beat stopped or restarted lets the next one start at once
    log.info("took the beat lock as %s", me)
    return lock


def _release(lock: Lock) -> None:
    with contextlib.suppress(redis.RedisError):  # expired, taken over, or Redis gone: nothing to give back
        lock.release()
