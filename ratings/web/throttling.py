"""How often one client may use a public form that sends e-mail (the players' subscriptions): ``rate`` requests
("10/hour") per client address, counted in fixed windows in the ``api-throttle`` cache that the API's limit uses
(Redis in production, shared by every web process). While that cache cannot be reached, each process counts in
its own memory, as the API does (ratings/api/throttling.py)."""

from __future__ import annotations

import logging
import time

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest
from redis.exceptions import RedisError

from federation.proxy import client_address

logger = logging.getLogger(__name__)

PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
LOCAL_COUNT = LocMemCache("form-throttle-local", {})


def _count(cache: object, key: str, seconds: int) -> int:
    cache.add(key, 0, timeout=seconds)  # type: ignore[attr-defined]
    try:
        return int(cache.incr(key))  # type: ignore[attr-defined]
    except ValueError:  # evicted between the two calls: this request starts the window again
        cache.set(key, 1, timeout=seconds)  # type: ignore[attr-defined]
        return 1


def form_allowed(request: HttpRequest, *, scope: str, rate: str) -> bool:
    """Count this request against the client's ``rate`` for ``scope``; False once past it."""
    number, period = rate.split("/")
    seconds = PERIODS[period]
    window = int(time.time() // seconds)
    key = f"form-throttle:{scope}:{client_address(request)}:{window}"
    try:
        count = _count(caches["api-throttle"], key, seconds)
    except (RedisError, OSError) as exc:
        logger.warning("form throttle: its cache cannot be reached (%s); counting in this process", exc)
        count = _count(LOCAL_COUNT, key, seconds)
    return count <= int(number)
