"""One beat for the whole site: a second one refuses to start.

Each Celery beat queues every task of the schedule, so two (on two machines, or a unit enabled twice) queue
everything twice. When beat starts it takes a lock in the broker's Redis (``BEAT_LOCK_KEY``, expiring after
``BEAT_LOCK_SECONDS``) and renews it every ``BEAT_RENEW_SECONDS`` while it runs; a beat that finds the lock held
by another logs an ERROR naming the holder and exits, and systemd's or compose's restart tries again later. A beat
that stops gives the lock back; one that dies leaves it to expire, so a waiting one takes over within
``BEAT_LOCK_SECONDS``. A running beat that finds its lock gone at a renewal (the key deleted, e.g. by a FLUSHDB of
the broker's database, or expired while Redis was away) takes it again; if another beat took it meanwhile, this
one stops (SIGTERM to itself) and its unit's restart waits for the lock. Without a broker (tasks in-process)
there is no beat to guard.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import signal
import socket
import threading

import redis
from django.conf import settings
from redis.exceptions import LockNotOwnedError
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
            (holder.decode() if isinstance(holder, bytes) else holder) or "unknown",
        )
        raise AnotherBeatRuns(1)

    def renew() -> None:
        stop = threading.Event()
        while not stop.wait(BEAT_RENEW_SECONDS):
            if not beat_lock_renew(lock, me):
                os.kill(os.getpid(), signal.SIGTERM)  # beat's own clean stop; systemd's Restart= starts it again
                return

    threading.Thread(target=renew, name="beat-lock", daemon=True).start()
    atexit.register(_release, lock)  # a beat stopped or restarted lets the next one start at once
    log.info("took the beat lock as %s", me)
    return lock


def beat_lock_renew(lock: Lock, me: str) -> bool:
    """Renew the lock, or take it again if it is gone; False when another beat holds it (this one must stop)."""
    try:
        lock.reacquire()
        return True
    except LockNotOwnedError:
        pass
    except redis.RedisError:  # Redis away: the lock may expire meanwhile, and the next renewal finds out
        log.warning("could not renew the beat lock", exc_info=True)
        return True
    try:
        if lock.acquire(blocking=False, token=me):
            log.warning("the beat lock was gone (%s): took it again", BEAT_LOCK_KEY)
            return True
        holder = lock.redis.get(BEAT_LOCK_KEY)
    except redis.RedisError:
        log.warning("could not take the beat lock again", exc_info=True)
        return True
    log.error(
        "another beat took the lock (%s): this one stops; one beat serves the whole site (docs/deploy.md)",
        holder.decode() if holder else "unknown",
    )
    return False


def _release(lock: Lock) -> None:
    with contextlib.suppress(redis.RedisError):  # expired, taken over, or Redis gone: nothing to give back
        lock.release()
