"""Rate limits counted in the ``api-throttle`` cache (Redis in production, shared by every web process), through
Django REST framework's throttles: the API's (ratings/api/throttling.py) and the public forms that send e-mail
(ratings/web/throttling.py). While that cache cannot be reached, each process counts in its own memory instead,
so the site keeps answering and keeps a limit; a warning says so, at most once a minute per process."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from redis.exceptions import RedisError
from rest_framework.throttling import SimpleRateThrottle

logger = logging.getLogger(__name__)

WARN_EVERY_SECONDS = 60.0
LOCAL_COUNT = LocMemCache("throttle-local", {})
_last_warning = [float("-inf")]


class SharedCountThrottle(SimpleRateThrottle):
    """Counts in the ``api-throttle`` cache, or in this process while it cannot be reached; the rate is the
    setting named by ``rate_setting`` ("10/hour")."""

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
                logger.warning("throttle: its cache cannot be reached (%s); counting in this process", exc)
            self.cache = LOCAL_COUNT
            return super().allow_request(request, view)
