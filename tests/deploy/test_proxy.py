"""The client's address behind the reverse proxy: X-Forwarded-For is believed only from a trusted proxy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from axes.helpers import get_client_ip_address
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


def test_compose_trusts_its_networks_gateway_for_every_use_of_the_clients_address(settings: Any) -> None:
    """Behind a proxy on the host, compose's containers see Docker's gateway: without it trusted, every visitor
    would share one API and subscription count; the login throttling reads the address by the same rule."""
    compose = yaml.safe_load((Path(__file__).resolve().parents[2] / "compose.yaml").read_text())
    (network,) = compose["networks"]["default"]["ipam"]["config"]
    trusted = compose["services"]["web"]["environment"]["TRUSTED_PROXIES"]
    settings.TRUSTED_PROXIES = trusted.removeprefix("${TRUSTED_PROXIES:-").removesuffix("}").split(",")
    for service in ("web", "worker", "beat"):
        assert compose["services"][service]["environment"]["TRUSTED_PROXIES"] == trusted
    request = RequestFactory().post(
        "/admin/login/", REMOTE_ADDR=network["gateway"], HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.7"
    )
    assert client_address(request) == "203.0.113.7"
    assert get_client_ip_address(request) == "203.0.113.7"  # django-axes: the same rule, no PROXY_COUNT of its own
    direct = RequestFactory().post("/admin/login/", REMOTE_ADDR="192.0.2.9", HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert get_client_ip_address(direct) == "192.0.2.9"
