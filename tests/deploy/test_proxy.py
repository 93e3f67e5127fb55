"""The client's address behind the reverse proxy: X-Forwarded-For is believed only from a trusted proxy."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import RequestFactory

from federation.proxy import client_address


@pytest.mark.parametrize(
    ("remote", "forwarded", "expected"),
    [
        ("127.0.0.1", "203.0.113.7", "203.0.113.7"),  # the proxy on the same machine says who asked
        ("127.0.0.1", "198.51.100.1, 203.0.113.7", "203.0.113.7"),  # a client's own entry comes first: ignored
        ("::1", "2001:db8::5", "2001:db8::5"),
        ("203.0.113.9", "198.51.100.1", "203.0.113.9"),  # straight to the site: the header is the client's own
        ("127.0.0.1", "", "127.0.0.1"),
        ("10.0.0.2", "203.0.113.7, 10.0.0.1", "203.0.113.7"),  # two proxies, both trusted (a network)
    ],
)
def test_client_address_believes_forwarded_for_only_from_a_trusted_proxy(
    settings: Any, remote: str, forwarded: str, expected: str
) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1", "10.0.0.0/24"]
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().get("/api/v1/players/", REMOTE_ADDR=remote, **headers)
    assert client_address(request) == expected


@pytest.mark.django_db
def test_api_throttle_counts_each_client_behind_the_proxy_apart(settings: Any, client: Any) -> None:
    """Without X-Forwarded-For from the proxy the whole world would share one limit."""
    from django.core.cache import caches  # imported here: the throttle's cache is made from the test settings

    settings.API_ANON_RATE = "2/minute"
    caches["api-throttle"].clear()

    def ask(address: str, remote: str = "127.0.0.1") -> int:
        return client.get("/api/v1/players/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=address).status_code

    assert [ask("203.0.113.1"), ask("203.0.113.1"), ask("203.0.113.1")] == [200, 200, 429]
    assert ask("203.0.113.2") == 200  # another visitor behind the same proxy has a count of his own
    # Straight to the site, a client cannot take a fresh count by claiming another address.
    assert [ask("198.51.100.1", "192.0.2.9"), ask("198.51.100.2", "192.0.2.9"), ask("x", "192.0.2.9")] == [
        200,
        200,
        429,
    ]
