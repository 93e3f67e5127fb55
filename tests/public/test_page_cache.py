"""The server-side cache of the public pages (ratings/web/caching.py): anonymous visitors share a page made once
per data version, URL and language; a change of the data shows at once; officers are never served from it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import Promotion, PromotionStatus, Table
from ratings.selectors.search import player_search
from ratings.services.grades.promotions import promotion_approve
from ratings.web import caching as page_cache
from ratings.web.caching import PAGE_CACHE
from tests.factories import make_grade_officer, make_player, make_rating_officer
from tests.public.conftest import days_ago, seasoned

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.django_db


def get(client: Client, url: str, **extra: Any) -> tuple[Any, int]:
    """(the response, the queries it took)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **extra)
    return response, len(captured.captured_queries)


def made(response: Any) -> bool:
    """Whether the view made the page (its templates rendered), rather than the cache giving it."""
    return response.context is not None


@pytest.fixture
def two_players(rated_round_robin: Callable[..., Table]) -> Table:
    a, b = seasoned(1600, family_name="Alpha"), seasoned(1500, family_name="Beta")
    return rated_round_robin([a, b], days_ago(10))


def test_an_anonymous_page_is_made_once_then_served_with_the_same_headers(client: Client, two_players: Table) -> None:
    url = reverse("ratings:rating_list")
    first, _ = get(client, url)
    again, queries = get(client, url)
    assert made(first) and not made(again)
    assert queries == 1  # the data version, for the validators and the key
    assert again.status_code == 200 and again.content == first.content
    for header in ("ETag", "Last-Modified", "Cache-Control", "Content-Type"):
        assert again[header] == first[header], header
    assert "max-age=60" in again["Cache-Control"]
    # The validators still answer a conditional GET before the cache is read.
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_every_cached_public_page_costs_one_query(client: Client, two_players: Table) -> None:
    player = two_players.entries.first().player  # type: ignore[union-attr]
    urls = [
        reverse("ratings:rating_list") + "?sort=name&country=FR",
        reverse("ratings:rating_list_of", args=[two_players.date.isoformat()]),
        reverse("ratings:player", args=[player.federation_id]),
        reverse("ratings:table", args=[two_players.pk]),
        reverse("ratings:tournaments"),
        reverse("ratings:tournament", args=[two_players.tournament_id]),
        reverse("ratings:promotions"),
        reverse("ratings:search") + "?q=a",
        reverse("ratings:statistics"),
    ]
    for url in urls:
        first, _ = get(client, url)
        assert first.status_code == 200 and made(first), url
        again, queries = get(client, url)
        assert not made(again) and queries == 1, url
        assert again.content == first.content, url


def test_the_same_query_in_another_order_is_the_same_page(client: Client, two_players: Table) -> None:
    url = reverse("ratings:rating_list")
    assert made(client.get(url + "?country=FR&sort=name"))
    assert not made(client.get(url + "?sort=name&country=FR"))
    assert made(client.get(url + "?sort=-name&country=FR"))


def test_each_language_has_its_own_page(client: Client, two_players: Table) -> None:
    url = reverse("ratings:rating_list")
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
    assert made(english) and made(french)
    assert not made(client.get(url, HTTP_ACCEPT_LANGUAGE="fr"))
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="en").content == english.content


def test_a_rerate_shows_at_once(client: Client, rated_round_robin: Callable[..., Table]) -> None:
    a, b = seasoned(1600, family_name="Alpha"), seasoned(1500, family_name="Beta")
    rated_round_robin([a, b], days_ago(10))
    url = reverse("ratings:player", args=[b.federation_id])
    before = client.get(url)
    assert not made(client.get(url))
    rated_round_robin([b, a], days_ago(5))  # Beta wins a table: a new re-rate run
    after = client.get(url)
    assert made(after)
    assert after.content != before.content
    assert after["ETag"] != before["ETag"]


def test_a_grade_decision_shows_at_once(client: Client, pending_first_dan: Promotion) -> None:
    promotion = pending_first_dan
    url = reverse("ratings:rating_list")
    client.get(url)
    cached = client.get(url)
    assert not made(cached) and b"1 Dan pending" in cached.content
    promotion_approve(promotion=promotion, user=make_grade_officer(), expected=None)
    assert Promotion.objects.get(pk=promotion.pk).status == PromotionStatus.APPROVED
    after = client.get(url)
    assert made(after)
    assert b"1 Dan pending" not in after.content


def test_an_officer_is_never_served_nor_stores_the_anonymous_page(client: Client, two_players: Table) -> None:
    url = reverse("ratings:tournaments")
    officer = Client()
    officer.force_login(make_rating_officer())
    assert made(officer.get(url))
    assert made(officer.get(url))  # his pages are not kept
    assert made(client.get(url))  # nor given to anonymous visitors
    assert not made(client.get(url))
    assert made(officer.get(url))  # and the anonymous page is not given to him


def test_head_is_served_from_the_cache(client: Client, two_players: Table) -> None:
    url = reverse("ratings:promotions")
    client.get(url)
    head = client.head(url)
    assert head.status_code == 200 and not made(head)


def test_a_search_that_goes_to_the_player_is_kept_as_its_redirect(client: Client, two_players: Table) -> None:
    url = reverse("ratings:search") + "?q=alpha"
    first = client.get(url)
    assert first.status_code == 302
    again, queries = get(client, url)
    assert again.status_code == 302 and again["Location"] == first["Location"] and queries == 1


def test_errors_are_not_kept(client: Client, two_players: Table) -> None:
    caches[PAGE_CACHE].clear()  # the list orders the re-rate's task built for the first visitors
    missing = reverse("ratings:player", args=["NOSUCH99"])
    assert client.get(missing).status_code == 404
    assert client.get(missing).status_code == 404
    bad = reverse("ratings:rating_list") + "?grade_min=nonsense"
    assert client.get(bad).status_code == 400
    assert made(client.get(bad))
    kept = caches[PAGE_CACHE]._cache  # type: ignore[attr-defined]  # the local-memory cache's store
    assert [key for key in kept if ":page:" in key] == []  # (what the data version builds is kept beside)


def test_a_streamed_download_is_kept_and_still_streamed(client: Client, two_players: Table) -> None:
    url = reverse("ratings:rating_list_csv") + "?country=FR"
    first = b"".join(client.get(url).streaming_content)
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url)
        body = b"".join(again.streaming_content)
    assert body == first and b"Alpha" in body
    assert len(captured.captured_queries) == 1
    assert again["Content-Disposition"].startswith("attachment;")


def test_a_cache_that_fails_leaves_the_pages_served(
    client: Client, two_players: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ConnectionError("cache down")

    monkeypatch.setattr(caches[PAGE_CACHE], "get", broken)
    monkeypatch.setattr(caches[PAGE_CACHE], "set", broken)
    response = client.get(reverse("ratings:rating_list"))
    assert response.status_code == 200 and made(response)


def _pages_cache(env: dict[str, str]) -> str:
    """The ``pages`` cache backend of the real settings with ``env``."""
    code = "from django.conf import settings; print(settings.CACHES['pages']['BACKEND'])"
    clean = {"PATH": "/usr/bin:/bin", "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "federation.settings"}
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


@pytest.mark.slow
def test_the_page_cache_is_local_unless_a_redis_url_is_given() -> None:
    assert _pages_cache({}).endswith("LocMemCache")
    assert _pages_cache({"PAGE_CACHE_URL": "redis://127.0.0.1:6379/2"}).endswith("RedisCache")
    assert _pages_cache({"PAGE_CACHE": "0"}).endswith("DummyCache")


def test_the_search_index_follows_the_data(client: Client) -> None:
    make_player("Zorn", "Ida")
    url = reverse("ratings:search")
    assert client.get(url, {"q": "zor"}).status_code == 302  # one match: his page
    later = make_player("Zorner", "Ole")  # an audited edit: a new data version, a new index
    response = client.get(url, {"q": "zor"})
    assert response.status_code == 200 and later.federation_id in response.content.decode()
    assert [p.pk for p in player_search(later.federation_id.lower()).players] == [later.pk]


def test_the_year_numbers_follow_the_data(client: Client, rated_round_robin: Callable[..., Table]) -> None:
    a, b = seasoned(1600, family_name="Alpha"), seasoned(1500, family_name="Beta")
    rated_round_robin([a, b], days_ago(10))
    url = reverse("ratings:statistics")
    assert sum(y.tables for y in client.get(url).context["years"]) == 1
    rated_round_robin([b, a], days_ago(5))
    assert sum(y.tables for y in client.get(url, {"country": "FR"}).context["years"]) == 2


def test_an_api_answer_is_kept_counted_and_follows_the_data(
    client: Client, rated_round_robin: Callable[..., Table], settings: Any
) -> None:
    settings.API_ANON_RATE = "3/minute"
    a, b = seasoned(1600, family_name="Alpha"), seasoned(1500, family_name="Beta")
    rated_round_robin([a, b], days_ago(10))
    url = reverse("api-v1:player", args=[b.federation_id])
    # An address of its own: earlier tests' API requests count against the address they came from.
    address = {"REMOTE_ADDR": "192.0.2.77"}
    first, _ = get(client, url, **address)
    again, queries = get(client, url, **address)
    assert queries == 1 and again.content == first.content
    assert again["ETag"] == first["ETag"] and again["Cache-Control"] == first["Cache-Control"]
    rated_round_robin([b, a], days_ago(5))
    after = client.get(url, **address)
    assert after.status_code == 200 and after.json()["rating"] != first.json()["rating"]
    assert client.get(url, **address).status_code == 429  # a kept answer still counts against the client's limit


def test_large_bodies_are_kept_compressed_or_not_at_all(
    client: Client, two_players: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = reverse("ratings:tournaments")
    monkeypatch.setattr(page_cache, "COMPRESS_FROM", 0)
    first = client.get(url)
    again = client.get(url)
    assert not made(again) and again.content == first.content
    monkeypatch.setattr(page_cache, "MAX_STORED", 100)
    other = reverse("ratings:promotions")
    client.get(other)
    assert made(client.get(other))  # too large to keep


UNREACHABLE_CACHE = {
    "BACKEND": "django.core.cache.backends.redis.RedisCache",
    "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there: every read and write fails at once
    "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
}


def test_a_cache_outage_is_one_warning_with_its_cause_however_many_pages(
    client: Client, two_players: Table, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """While the shared cache is down every page is made without it; the process says so once, at WARNING,
    naming the cause, and says once more (INFO) when it answers again."""
    working = settings.CACHES
    settings.CACHES = {**working, PAGE_CACHE: UNREACHABLE_CACHE}
    urls = [reverse("ratings:rating_list"), reverse("ratings:tournaments"), reverse("ratings:statistics")]
    with caplog.at_level("INFO"):
        for _ in range(3):
            for url in urls:
                assert client.get(url).status_code == 200
        outage = [r for r in caplog.records if r.levelno >= 30]
        settings.CACHES = working
        assert client.get(urls[0]).status_code == 200
    assert [r.levelname for r in outage] == ["WARNING"], [r.getMessage()[:200] for r in outage]
    assert "Connection" in outage[0].getMessage() and outage[0].exc_info is None  # the cause, not 3 KB of trace
    assert any("answers again" in r.getMessage() for r in caplog.records if r.levelname == "INFO")


def test_a_failing_ready_probe_is_not_an_error(client: Client, settings: Any, caplog: pytest.LogCaptureFixture) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    with caplog.at_level("INFO"):
        assert client.get("/health/ready").status_code == 503
    assert not [r for r in caplog.records if r.levelno >= 30], [r.getMessage() for r in caplog.records]
