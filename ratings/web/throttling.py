"""How often one client may use a public form that sends e-mail (the players' subscriptions): the setting named
by ``rate_setting`` per client address, counted as the API's limits are (federation/throttling.py)."""

from __future__ import annotations

from typing import Any

from federation.proxy import client_address
from federation.throttling import SharedCountThrottle


class SubscribeThrottle(SharedCountThrottle):
    """``SUBSCRIBE_RATE`` per client address: behind a trusted proxy the address it saw (federation/proxy.py)."""

    scope = "subscribe"
    rate_setting = "SUBSCRIBE_RATE"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_address(request)}


class ReportThrottle(SubscribeThrottle):
    """Reports of mistakes: the same rate per client address (``SUBSCRIBE_RATE``), counted apart."""

    scope = "report"
