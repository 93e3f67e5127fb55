"""How many API requests a client may make: ``API_ANON_RATE`` per address (settings, docs/api.md).

Past the limit the answer is 429 with a Retry-After header (Django REST framework's own handling).
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import caches
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle

from federation.proxy import client_address


class ApiAnonThrottle(AnonRateThrottle):
    """Counts per client address: behind a trusted proxy the address it saw (federation/proxy.py)."""

    scope = "api-anon"
    cache = caches["api-throttle"]

    def get_rate(self) -> str:
        # Read at each request rather than when the class is defined, so that the site's setting, and a
        # test's override of it, is the one in force.
        return str(settings.API_ANON_RATE)

    def get_ident(self, request: Request) -> str:
        return client_address(request._request)
