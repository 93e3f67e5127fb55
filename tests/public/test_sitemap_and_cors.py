"""What other software reads: robots.txt, the sitemap of players, tournaments and lists, and CORS on the
read-only data (the API, feeds, downloads and files) but not on the pages."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Player, Table
from ratings.services.merge.apply import player_merge
from tests.factories import make_player, make_rating_officer, make_table, make_tournament, round_robin
from tests.public.conftest import days_ago

pytestmark = pytest.mark.django_db


def locations(client: Client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    return re.findall(r"<loc>([^<]+)</loc>", response.content.decode())


@pytest.fixture
def played(rate: Callable[[Table], Table]) -> tuple[Table, list[Player]]:
    players = [make_player("Sitemap", str(i)) for i in range(3)]
    table = make_table(players, tournament=make_tournament("Played Open", date=days_ago(10)), date=days_ago(10))
    round_robin(table, players)
    return rate(table), players


def test_robots_txt_keeps_crawlers_off_endless_pages_and_names_the_sitemap(client: Client) -> None:
    response = client.get("/robots.txt")
    text = response.content.decode()
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    assert "Disallow: /lists/" in text and "Allow: /lists/official/" in text
    assert "Sitemap: http://testserver/sitemap.xml" in text.splitlines()


def test_robots_txt_lets_crawlers_find_the_search_and_the_calculator_but_not_their_answers(client: Client) -> None:
    """The pages the sitemap lists are crawlable; the endless addresses with a query are not. Rules match the
    start of the path and query, "?" included (RFC 9309; Python's robotparser drops a rule's "?", so the test
    reads the rules itself: they hold no wildcard)."""
    lines = client.get("/robots.txt").content.decode().splitlines()
    disallowed = [line.removeprefix("Disallow: ") for line in lines if line.startswith("Disallow: ")]
    allowed = [line.removeprefix("Allow: ") for line in lines if line.startswith("Allow: ")]

    def crawlable(url: str) -> bool:
        longest = max((len(rule) for rule in disallowed if url.startswith(rule)), default=-1)
        return any(url.startswith(rule) and len(rule) >= longest for rule in allowed) or longest < 0

    for url in ("/search/", "/calculator/", "/", "/statistics/", "/lists/official/"):
        assert crawlable(url), url
    for url in ("/search/?q=martin", "/calculator/?player=X&form-0-opponent=Y", "/lists/?date=2024-01-01", "/api/v1/"):
        assert not crawlable(url), url
    pages = [url.removeprefix("http://testserver") for url in locations(client, reverse("sitemap", args=["pages"]))]
    assert "/search/" in pages and "/calculator/" in pages
    assert all(crawlable(url) for url in pages), pages


def test_sitemap_lists_players_who_played_and_tournaments_with_public_tables(
    client: Client, played: tuple[Table, list[Player]]
) -> None:
    table, players = played
    unplayed = make_player("Neverplayed")
    draft_only = make_tournament("Draft Cup", date=days_ago(5))
    make_table([make_player(), make_player()], tournament=draft_only, date=days_ago(5))
    sections = locations(client, reverse("sitemap-index"))
    assert {s.rsplit("/", 1)[1].split("?")[0] for s in sections} == {
        "sitemap-pages.xml",
        "sitemap-players.xml",
        "sitemap-tournaments.xml",
        "sitemap-official-lists.xml",
    }
    player_urls = locations(client, reverse("sitemap", args=["players"]))
    assert {f"http://testserver{reverse('ratings:player', args=[p.federation_id])}" for p in players} <= set(
        player_urls
    )
    assert not any(unplayed.federation_id in url for url in player_urls)
    tournament_urls = locations(client, reverse("sitemap", args=["tournaments"]))
    assert tournament_urls == [f"http://testserver{reverse('ratings:tournament', args=[table.tournament_id])}"]
    assert f"http://testserver{reverse('ratings:rating_list')}" in locations(client, reverse("sitemap", args=["pages"]))


def test_sitemap_leaves_out_a_merged_record(
    client: Client, played: tuple[Table, list[Player]], rate: Callable[[Table], Table]
) -> None:
    _table, players = played
    duplicate, other = make_player("Sitemap", "0"), make_player("Other")
    elsewhere = make_table([duplicate, other], date=days_ago(3))
    round_robin(elsewhere, [duplicate, other])
    rate(elsewhere)
    player_merge(duplicate=duplicate, kept=players[0], user=make_rating_officer(), reason="same person", expected=None)
    urls = locations(client, reverse("sitemap", args=["players"]))
    assert not any(url.endswith(f"/{duplicate.federation_id}/") for url in urls)
    assert any(url.endswith(f"/{players[0].federation_id}/") for url in urls)


@pytest.mark.parametrize("url", ["/api/v1/players/", "/feeds/tables.atom", "/downloads/", "/export.csv"])
def test_read_only_data_may_be_read_from_any_origin(client: Client, url: str) -> None:
    response = client.get(url, headers={"origin": "https://club.example"})
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response


def test_preflight_allows_reading_only(client: Client) -> None:
    response = client.options(
        "/api/v1/players/",
        headers={"origin": "https://club.example", "access-control-request-method": "GET"},
    )
    assert response["Access-Control-Allow-Origin"] == "*"
    assert set(response["Access-Control-Allow-Methods"].replace(" ", "").split(",")) == {"GET", "HEAD", "OPTIONS"}


@pytest.mark.parametrize("url", ["/", "/search/?q=ab", "/admin/login/"])
def test_pages_and_the_admin_keep_the_same_origin_rule(client: Client, url: str) -> None:
    response = client.get(url, headers={"origin": "https://club.example"})
    assert "Access-Control-Allow-Origin" not in response
