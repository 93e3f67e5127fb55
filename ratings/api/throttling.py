"""How many API requests a client may make: ``API_ANON_RATE`` per address, and ``API_SUBMIT_RATE`` per access
token's owner on the directors' submission endpoints (settings, docs/api.md).

Past the limit the answer is 429 with a Retry-After header (Django REST framework's own handling). The count is
kept in the ``api-throttle`` cache (Redis in production, shared by every web process). While that cache cannot
be reached, each process counts in its own memory instead, so the API keeps answering and keeps a limit; a
warning says so, at most once a minute per process.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from redis.exceptions import RedisError
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle

from federation.proxy import client_address

logger = logging.getLogger(__name__)

WARN_EVERY_SECONDS = 60.0
LOCAL_COUNT = LocMemCache("api-throttle-local", {})
_last_warning = [float("-inf")]


class SharedCountThrottle(SimpleRateThrottle):
    """Counts in the ``api-throttle`` cache, or in this process while it cannot be reached."""

    rate_setting = ""

    def get_rate(self) -> str:
        # Read at each request rather than when the class is defined, so that the site's setting, and a
        # test's override of it, is the one in force.
        return str(getattr(settings, self.rate_setting))

    def allow_request(self, request: Any, view: Any) -> bool:
        self.cache = caches["api-throttle"]  # the site's, looked up at each request as settings are
        try:
            return super().allow_request(request, view)
        except (RedisError, OSError) as exc:
            now = time.monotonic()
            if now - _last_warning[0] >= WARN_EVERY_SECONDS:
                _last_warning[0] = now
                logger.warning("API throttle: its cache cannot be reached (%s); counting in this process", exc)
            self.cache = LOCAL_COUNT
            return super().allow_request(request, view)


class ApiAnonThrottle(SharedCountThrottle, AnonRateThrottle):
    """Counts per client address: behind a trusted proxy the address it saw (federation/proxy.py)."""

    scope = "api-anon"
    rate_setting = "API_ANON_RATE"

    def get_ident(self, request: Request) -> str:
        return client_address(request._request)


class ApiSubmitThrottle(SharedCountThrottle):
    """Counts per access token's owner: a director's previews and submits, whichever of his tokens sends them."""

    scope = "api-submit"
    rate_setting = "API_SUBMIT_RATE"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.user is None or not request.user.is_authenticated:
            return None  # refused before any work: the authentication answers
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}
