"""The official lists in the API: the archive, a list's entries as published (paged, filtered), the player's
lines; every answer matches the published schema."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse

from ratings.models import OfficialList
from tests.official.conftest import Federation, correct_first_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_request_count() -> None:
    caches["api-throttle"].clear()


def test_the_archive(client: Client, published: OfficialList) -> None:
    body = client.get(reverse("api-v1:official_lists")).json()
    assert body["count"] == 1
    (item,) = body["results"]
    iso = published.date.isoformat()
    assert item["date"] == iso and item["title"] == "Spring list" and item["player_count"] == 4
    assert item["api"] == reverse("api-v1:official_list", args=[iso])
    assert item["all_txt"] == reverse("ratings:official_list_txt", args=[iso])
    assert "published_by" not in item


def test_a_list_as_published_paged_and_filtered(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    url = reverse("api-v1:official_list", args=[published.date.isoformat()])
    before = client.get(url).json()
    correct_first_table(federation)
    body = client.get(url).json()
    assert body == before  # a correction since does not change the published list
    assert body["list"]["title"] == "Spring list" and body["count"] == 4
    assert [r["family_name"] for r in body["results"]] == ["Anders", "Berger", "Claes", "Dupont"]
    page = client.get(url, {"page_size": 2, "page": 2}).json()
    assert [r["rank"] for r in page["results"]] == [3, 4]
    germans = client.get(url, {"country": "DE"}).json()
    assert [(r["family_name"], r["rank"], r["country_rank"]) for r in germans["results"]] == [("Claes", 3, 1)]
    assert client.get(url, {"country": "XX"}).status_code == 400
    assert client.get(reverse("api-v1:official_list", args=["2001-01-01"])).status_code == 404


def test_the_player_detail_has_his_official_lines(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    a = federation.players[0]
    body = client.get(reverse("api-v1:player", args=[a.federation_id])).json()
    entry = published.stored_list.entries.get(player=a)
    assert body["official_lists"] == [
        {
            "date": published.date.isoformat(),
            "title": "Spring list",
            "rank": entry.position,
            "country_rank": entry.country_position,
            "rating": entry.rating,
            "grade": entry.grade,
            "grade_label": "1 Kyu",
            "api": reverse("api-v1:official_list", args=[published.date.isoformat()]),
        }
    ]


def test_the_answers_match_the_schema(client: Client, federation: Federation, published: OfficialList) -> None:
    openapi = OpenAPI.from_dict(client.get(reverse("api-v1:schema")).json())
    iso = published.date.isoformat()
    urls = [
        reverse("api-v1:official_lists"),
        reverse("api-v1:official_list", args=[iso]) + "?country=FR&page_size=1",
        reverse("api-v1:player", args=[federation.players[0].federation_id]),
        reverse("api-v1:official_list", args=["2001-01-01"]),
    ]
    for url in urls:
        response = client.get(url)
        openapi.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))
    schema = client.get(reverse("api-v1:schema")).json()
    assert {"/api/v1/official-lists/", "/api/v1/official-lists/{list_date}/"} <= set(schema["paths"])
    detail = schema["paths"]["/api/v1/official-lists/{list_date}/"]["get"]
    assert {p["name"] for p in detail["parameters"]} >= {"country", "q", "page", "page_size"}
