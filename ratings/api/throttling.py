"""How many API requests a client may make: ``API_ANON_RATE`` per address, and ``API_SUBMIT_RATE`` per access
token's owner on the directors' submission endpoints (settings, docs/api.md).

Past the limit the answer is 429 with a Retry-After header (Django REST framework's own handling). The count is
kept in the ``api-throttle`` cache (Redis in production, shared by every web process). While that cache cannot
be reached, each process counts in its own memory instead (federation/throttling.py).
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle

from federation.proxy import client_address
from federation.throttling import SharedCountThrottle


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
