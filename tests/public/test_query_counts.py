"""No public page makes a query per row: each page costs the same number of queries with 1 item as with 3.

The exact numbers are pinned too, so that a new query on a page is a conscious change.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import Club, ClubMembership, Player, Promotion, StoredList, Table
from ratings.selectors.versions import data_version
from tests.factories import make_tournament
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def queries(client: Client, url: str, params: dict[str, str] | None = None) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params or {})
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
    assert response.status_code == 200, url
    return len(captured.captured_queries)


TOP = 26  # 6 Dan: never promoted, so the engine adds no promotion of its own to the ones a test makes


def veteran(rating: int) -> Player:
    return seasoned(rating, grade=TOP, last_played=days_ago(900))


def rated_players(count: int, rated_round_robin: Callable[..., Table], first_day: int) -> list[Player]:
    """``count`` players, each of whom played a rated table (with one opponent who is then on the list too), each
    a member of a club of his own."""
    players = [veteran(1500 + i) for i in range(count)]
    for i, player in enumerate(players):
        opponent = veteran(1000 + i)
        for member in (player, opponent):
            club = Club.objects.create(name=f"Club {member.pk}", country="FR")
            ClubMembership.objects.create(player=member, club=club, since=days_ago(1000))
        rated_round_robin([player, opponent], days_ago(first_day - i))
    return players


# (page, expected queries): the rating list reads only the rows it shows, from its stored rows. The front page is
# 4: the data version, the stored list (which holds how many players it has and ranks: the note under the list
# counts the others, the pager the ranked), the page's rows, and the clubs their lines hold; the recent list
# dates and the countries and clubs the filters offer are in the shared cache. Filtered, one more: the filtered
# lines' counts. Today's list is written by the re-rate's task; a past date's list the first time it is asked for
# (``first_views`` below). An export: the version, the stored list, every row, the clubs of the list's date
# (the CSV reads that date from its first row's list: the view does not hand it; all.txt no clubs, and the FESA
# nationalities only of players without a country). The same list asked for again costs only the version (the
# page cache).
LIST_PAGES = [
    ("ratings:rating_list", {}, 4),
    ("ratings:rating_list", {"date": days_ago(50).isoformat()}, 4),
    ("ratings:rating_list", {"date": days_ago(50).isoformat(), "country": "FR", "q": "player"}, 5),
    ("ratings:rating_list", {"sort": "-games", "active": "all"}, 4),
    ("ratings:rating_list_csv", {"country": "FR"}, 4),
    ("ratings:rating_list_json", {"date": days_ago(50).isoformat()}, 4),
    ("files:rating_list", {"format": "all.txt"}, 3),
]


@pytest.mark.parametrize(("name", "params", "expected"), LIST_PAGES)
@pytest.mark.slow
def test_rating_list_queries_do_not_grow_with_rows(
    client: Client, rated_round_robin: Callable[..., Table], name: str, params: dict[str, str], expected: int
) -> None:
    rated_players(1, rated_round_robin, first_day=100)
    client.get(reverse(name), {**params, "page_size": "9"})  # the list written, as its first visitor writes it
    one = queries(client, reverse(name), params)
    rated_players(2, rated_round_robin, first_day=90)
    client.get(reverse(name), {**params, "page_size": "9"})
    three = queries(client, reverse(name), params)
    assert (one, three) == (expected, expected)
    # Asked again, the page (or file) is the one the page cache keeps for this version of the data: the data
    # version alone.
    assert queries(client, reverse(name), params) == 1


def test_player_page_queries_do_not_grow_with_tables_or_games(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    player = veteran(1500)
    others = [veteran(1400) for _ in range(6)]
    rated_round_robin([player, others[0]], days_ago(60))
    url = reverse("ratings:player", args=[player.federation_id])
    one = queries(client, url)
    rated_round_robin([player, others[1]], days_ago(50))
    rated_round_robin([player, *others[2:]], days_ago(40))  # five more opponents, each a game
    many = queries(client, url)
    # the data version (ETag), the player with his pending Dan grade, his promotions, his rating rows (without
    # the games' explanations, which the table's own page shows), his imported rows, his official list
    # entries, his corrections, his clubs, his best wins (his won games by their opponents' rows), his standing today
    # (today's stored list, made by the re-rate's follow-ups, his line on it with his ranks and percentiles, his
    # latest state): no query per table, and none for the games or their opponents
    assert (one, many) == (12, 12)
    with CaptureQueriesContext(connection) as captured:
        client.get(url, {"fresh": "1"})  # another URL: made afresh, not the page cache's copy
    rating_rows = [q["sql"] for q in captured.captured_queries if "ratings_ratingrow" in q["sql"]]
    assert rating_rows and not any('"detail"' in sql for sql in rating_rows)


def test_player_table_page_queries_do_not_grow_with_games(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    player = veteran(1500)
    small = rated_round_robin([player, veteran(1400)], days_ago(60))
    large = rated_round_robin([player, *(veteran(1400 - i) for i in range(5))], days_ago(40))
    urls = [reverse("ratings:player_table", args=[player.federation_id, t.pk]) for t in (small, large)]
    counts = [queries(client, url) for url in urls]
    # the data version, the player with his pending Dan grade, his rating row of the table, its opponents, his
    # tables' dates (the links to the tables before and after)
    assert counts == [5, 5]


def test_table_page_queries_do_not_grow_with_players(client: Client, rated_round_robin: Callable[..., Table]) -> None:
    def table_of(size: int, days: int) -> Table:
        players = [veteran(1500 + i) for i in range(size)]
        table = rated_round_robin(players, days_ago(days))
        for player in players[: size - 1]:
            Promotion.objects.create(
                player=player, grade=5, table=table, game_number=41, route="upper_bound", rating=500, status="effective"
            )
        return table

    small, large = table_of(2, 30), table_of(6, 20)
    # the data version, the table, its entries with players, rating rows, held Dan grades (2), games, promotions,
    # namesakes, its corrections, the tables of its day (which of them it is)
    assert queries(client, reverse("ratings:table", args=[small.pk])) == 11
    assert queries(client, reverse("ratings:table", args=[large.pk])) == 11


@pytest.mark.slow
def test_tournament_list_queries_do_not_grow_with_tournaments(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    players = [veteran(1500), veteran(1400)]

    def tournament(days: int) -> None:
        event = make_tournament(date=days_ago(days))
        rated_round_robin(players, days_ago(days), tournament=event)
        rated_round_robin(players, days_ago(days), sequence=2, tournament=event)

    url = reverse("ratings:tournaments")
    tournament(300)
    one = queries(client, url)
    tournament(200)
    tournament(100)
    three = queries(client, url)
    # the data version, the first and last years, the countries of the filter, the count, the page, its tables
    assert (one, three) == (6, 6)


def test_promotion_page_queries_do_not_grow_with_promotions(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    def promoted(days: int) -> None:
        a, b = veteran(1500), veteran(1900)
        table = rated_round_robin([a, b], days_ago(days))
        Promotion.objects.create(
            player=a, grade=15, table=table, game_number=41, route="upper_bound", rating=1500, status="effective"
        )
        Promotion.objects.create(
            player=b, grade=21, table=table, game_number=41, route="upper_bound", rating=1900, status="pending"
        )

    url = reverse("ratings:promotions")
    promoted(30)
    one = queries(client, url)
    promoted(20)
    promoted(10)
    three = queries(client, url)
    # the data version, a page of tables (one more read to know whether there is an older page: no count), their
    # promotions, their players' namesakes, pending count and page
    assert (one, three) == (6, 6)


def test_a_list_is_written_on_its_first_view_and_read_after(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    rated_players(2, rated_round_robin, first_day=100)
    url = reverse("ratings:rating_list")
    computed = StoredList.objects.filter(kind=StoredList.Kind.COMPUTED, version=data_version().key)
    prepared = computed.count()  # today's two lists and the latest list dates', written by the re-rate's follow-ups
    assert prepared >= 2
    assert queries(client, url) == 4  # read: no query over the players or their history
    past = days_ago(60).isoformat()
    assert queries(client, url, {"date": past, "sort": "name"}) > 5  # another date's list: written once
    assert queries(client, url, {"date": past, "sort": "games", "country": "FR"}) == 5
    assert computed.count() == prepared + 1
