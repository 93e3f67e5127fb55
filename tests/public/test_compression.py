"""Compressed answers: pages, JSON and CSV are sent gzipped to a client that accepts it, the same content."""

from __future__ import annotations

import gzip

import pytest
from django.test import Client
from django.urls import reverse

from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def body(response) -> bytes:  # type: ignore[no-untyped-def]
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.parametrize(
    ("name", "kind"),
    [("ratings:rating_list", "text/html"), ("ratings:rating_list_csv", "text/csv"), ("api-v1:rating_list", "json")],
)
def test_answers_are_compressed_for_a_client_that_accepts_it(client: Client, name: str, kind: str) -> None:
    for i in range(40):  # a body worth compressing
        seasoned(1500 + 10 * i, family_name=f"Player{i}", last_played=days_ago(30))
    plain = client.get(reverse(name))
    packed = client.get(reverse(name), headers={"accept-encoding": "gzip, deflate"})
    assert kind in packed["Content-Type"]
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    plain_body, packed_body = body(plain), body(packed)
    assert gzip.decompress(packed_body) == plain_body
    assert len(packed_body) < len(plain_body)


def test_a_compressed_page_still_answers_a_conditional_get_with_304(client: Client) -> None:
    seasoned(1500)
    url = reverse("ratings:rating_list")
    first = client.get(url, headers={"accept-encoding": "gzip"})
    assert first["Content-Encoding"] == "gzip"
    again = client.get(url, headers={"accept-encoding": "gzip", "if-none-match": first["ETag"]})
    assert again.status_code == 304
