"""Bad input never gives a 500: unknown things are 404, malformed filters 400 (or ignored where harmless)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db

MALFORMED = [
    {"grade_min": "abc"},
    {"grade_max": "99"},
    {"grade_min": "20", "grade_max": "10"},
    {"country": "ZZ"},
    {"country": "<script>"},
    {"category": "great"},
    {"active": "maybe"},
    {"date": "2024-13-01"},
    {"date": "yesterday"},
    {"date": "9999-12-31"},
    {"date": "0001-01-01"},
    {"q": "x" * 101},
]


@pytest.mark.parametrize("params", MALFORMED, ids=lambda p: "&".join(f"{k}={v[:12]}" for k, v in p.items()))
def test_rating_list_rejects_a_malformed_filter_with_400_and_the_message(
    client: Client, params: dict[str, str]
) -> None:
    seasoned(1500)
    response = client.get("/", params)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="errorlist"' in html or 'class="alert"' in html
    assert "table" not in response.context or response.context.get("table") is None


@pytest.mark.parametrize("params", MALFORMED[:4], ids=str)
@pytest.mark.parametrize("path", ["/export.csv", "/export.json"])
def test_exports_reject_a_malformed_filter_with_400(client: Client, path: str, params: dict[str, str]) -> None:
    response = client.get(path, params)
    assert response.status_code == 400
    assert "errors" in response.json()


IGNORED = [
    {"page": "abc"},
    {"page": "-3"},
    {"page": "99999"},
    {"sort": "bogus"},
    {"sort": "-name,;drop table"},
    {"per_page": "0"},
    {"per_page": "100000"},
    {"q": "%_\\'\""},
    {"q": "   "},
    {"unknown": "x"},
]


@pytest.mark.parametrize("params", IGNORED, ids=str)
def test_rating_list_ignores_harmless_nonsense(client: Client, params: dict[str, str]) -> None:
    seasoned(1500)
    response = client.get("/", params)
    assert response.status_code == 200


def test_rating_list_shows_the_last_page_for_a_page_beyond_it(client: Client) -> None:
    for i in range(3):
        seasoned(1500 + i)
    table = client.get("/", {"page": "7", "per_page": "25"}).context["table"]
    assert table.page.number == 1


@pytest.mark.parametrize(
    "path",
    [
        "/players/NOSUCH/",
        "/players/NOSUCH/tables/1/",
        "/tables/0/",
        "/tables/99999999999999999999/",
        "/lists/2024-02-30/",
        "/lists/not-a-date/",
        "/no/such/page/",
    ],
)
def test_unknown_things_are_404_pages(client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "Not found" in response.content.decode()


@pytest.mark.parametrize("params", [{"year": "abc"}, {"year": "1850"}, {"country": "ZZ"}], ids=str)
def test_tournament_list_rejects_a_malformed_filter_with_400(client: Client, params: dict[str, str]) -> None:
    assert client.get("/tournaments/", params).status_code == 400


@pytest.mark.parametrize(
    "params", [{"page": "x"}, {"page": "999"}, {"page": "9" * 40}, {"pending-page": "-1"}, {"pending-sort": "x"}]
)
def test_promotion_list_ignores_bad_page_numbers(client: Client, params: dict[str, str]) -> None:
    assert client.get("/promotions/", params).status_code == 200


def test_a_future_list_date_is_refused_not_guessed(client: Client) -> None:
    seasoned(1500, last_played=days_ago(1))
    response = client.get("/", {"date": days_ago(-1).isoformat()})
    assert response.status_code == 400
    assert "future" in response.content.decode()


def test_error_pages_render_without_a_request_context() -> None:
    """Django renders 500.html (and 400.html for a SuspiciousOperation) with no context at all."""
    from django.template.loader import get_template

    assert "Server error" in get_template("500.html").render({})
    assert "Bad request" in get_template("400.html").render({})
