"""The client's address behind the reverse proxy, believed only when the proxy itself says it.

``X-Forwarded-For`` is a list any client can start: only the entries appended by the proxies the site trusts
(``TRUSTED_PROXIES``, the loopback addresses by default: the documented proxy on the same machine) are read,
from the right, and the first address that is not one of those proxies is the client. A request that reaches
the site directly (not from a trusted proxy) is counted by its own address, whatever header it sends, so a
client cannot pick the address the API counts it under (ratings/api/throttling.py).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(request: HttpRequest) -> str:
    """The address of the client the request comes from, as the site's trusted proxies saw it."""
    remote = request.META.get("REMOTE_ADDR", "")
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    if not _trusted(remote, networks):
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    for address in reversed(forwarded):
        if not _trusted(address, networks):
            return address
    return forwarded[0] if forwarded else remote
