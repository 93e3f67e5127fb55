"""The worker's heartbeat: a time stamp in Redis that only a running worker renews.

Beat queues ``federation.worker_heartbeat`` every ``HEARTBEAT_SECONDS`` and a worker writes it when it starts, so
the readiness probe (federation/health.py) can tell a worker that consumes tasks from one that is gone or stuck.
"""

from __future__ import annotations

import time

import redis
from django.conf import settings

HEARTBEAT_KEY = "ratings:worker-heartbeat"
HEARTBEAT_SECONDS = 30.0


def _client() -> redis.Redis:
    if not settings.REDIS_URL:
        raise RuntimeError("REDIS_URL is unset: no worker writes a heartbeat")
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)


def heartbeat_record() -> None:
    """Write the time now; the key expires by itself long after any probe's limit. Without a broker (tasks run
    in-process) there is no worker to report on."""
    if not settings.REDIS_URL:
        return
    _client().set(HEARTBEAT_KEY, repr(time.time()), ex=24 * 3600)


def heartbeat_age() -> float | None:
    """Seconds since a worker last wrote its heartbeat, or None if none ever did (within a day)."""
    raw = _client().get(HEARTBEAT_KEY)
    return None if raw is None else max(0.0, time.time() - float(raw))
