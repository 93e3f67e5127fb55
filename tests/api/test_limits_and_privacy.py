"""The API's request limit, and the personal data it must never give away."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.api.conftest import BIRTHDAY, SECRET_REASON, Federation, api_urls

pytestmark = pytest.mark.django_db


def test_too_many_requests_get_429_with_retry_after(client: Client, settings: Any) -> None:
    settings.API_ANON_RATE = "3/minute"
    url = reverse("api-v1:tables")
    assert [client.get(url).status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get(url)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "throttled" in refused.json()["detail"].lower()
    assert "public" not in refused.get("Cache-Control", "")
    other_address = client.get(url, REMOTE_ADDR="192.0.2.7")
    assert other_address.status_code == 200  # the count is per client address


def test_a_forged_forwarded_for_header_does_not_escape_the_limit(client: Client, settings: Any) -> None:
    """A client that reaches the site directly (not through the trusted proxy) cannot name another address."""
    settings.API_ANON_RATE = "2/minute"
    url = reverse("api-v1:tables")
    direct = {"REMOTE_ADDR": "203.0.113.7"}
    codes = [client.get(url, headers={"X-Forwarded-For": f"198.51.100.{i}"}, **direct).status_code for i in range(3)]
    assert codes == [200, 200, 429]


def test_behind_the_trusted_proxy_each_client_has_a_limit_of_its_own(client: Client, settings: Any) -> None:
    settings.API_ANON_RATE = "2/minute"
    url = reverse("api-v1:tables")
    through_proxy = {"REMOTE_ADDR": "127.0.0.1"}  # TRUSTED_PROXIES' default
    first = [client.get(url, headers={"X-Forwarded-For": "198.51.100.1"}, **through_proxy).status_code for _ in "abc"]
    other = client.get(url, headers={"X-Forwarded-For": "198.51.100.2"}, **through_proxy).status_code
    assert (first, other) == ([200, 200, 429], 200)


def test_no_date_of_birth_decision_or_staff_name_anywhere_in_the_api(client: Client, federation: Federation) -> None:
    bodies = [client.get(url).content.decode() for url in api_urls(federation)]
    bodies.append(client.get(reverse("api-v1:schema")).content.decode())
    bodies += [client.get(reverse("api-v1:players"), {"q": "aberg"}).content.decode()]
    forbidden = [
        BIRTHDAY.isoformat(),
        BIRTHDAY.strftime("%d.%m.%Y"),
        "date_of_birth",
        "birth",
        SECRET_REASON,
        federation.officer_name,
        "decided_by",
        "decision_reason",
        "reviewed_by",
        "created_by",
        "directors",
    ]
    for body in bodies:
        assert not [word for word in forbidden if word in body]
    assert any(federation.players[0].federation_id in body for body in bodies)  # the player is there all the same
