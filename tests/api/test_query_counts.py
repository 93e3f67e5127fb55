"""No API endpoint makes a query per row: 1 item and 3 items cost the same, and the numbers are pinned."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import Player, Promotion, Table
from ratings.services.lists import list_stored
from tests.api.conftest import veteran
from tests.factories import make_tournament
from tests.public.conftest import days_ago

pytestmark = pytest.mark.django_db


def queries(client: Client, url: str, params: dict[str, str] | None = None) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params or {})
    assert response.status_code == 200, (url, response.content)
    return len(captured.captured_queries)


def promoted_table(rated_round_robin: Callable[..., Table], days: int) -> tuple[Table, list[Player]]:
    """A rated table of two players in a tournament of its own: one promoted, one waiting for a Dan grade."""
    players = [veteran(1500 + days), veteran(1900 + days)]
    table = rated_round_robin(players, days_ago(days), tournament=make_tournament(date=days_ago(days)))
    Promotion.objects.create(
        player=players[0], grade=15, table=table, game_number=41, route="upper_bound", rating=1500, status="effective"
    )
    Promotion.objects.create(
        player=players[1], grade=21, table=table, game_number=41, route="upper_bound", rating=1900, status="pending"
    )
    return table, players


# (endpoint, parameters, queries). Every answer: the data version (the page cache's key). Lists: the count and the
# page, plus: the rating list its stored list (made beforehand here, as a re-rate's follow-ups and the daily task
# make today's: ``list_made``), whose count it is when no filter narrows it (no COUNT then); tournaments their
# tables; promotions the lines. (The year filter is a number: no query for the years with tournaments.)
LISTS = [
    ("api-v1:players", {}, 3),
    ("api-v1:players", {"q": "player", "country": "FR"}, 3),
    ("api-v1:rating_list", {"active": "all"}, 3),
    ("api-v1:rating_list", {"date": days_ago(1).isoformat(), "active": "all", "country": "FR"}, 4),
    ("api-v1:tournaments", {}, 4),
    ("api-v1:tournaments", {"year": str(days_ago(80).year)}, 4),
    ("api-v1:tables", {}, 3),
    ("api-v1:promotions", {}, 4),
    ("api-v1:pending_promotions", {}, 3),
]


@pytest.mark.parametrize(("name", "params", "expected"), LISTS)
def test_list_queries_do_not_grow_with_items(
    client: Client, rated_round_robin: Callable[..., Table], name: str, params: dict[str, str], expected: int
) -> None:
    promoted_table(rated_round_robin, 90)
    list_made(name, params)
    one = queries(client, reverse(name), params)
    promoted_table(rated_round_robin, 80)
    promoted_table(rated_round_robin, 70)
    list_made(name, params)
    three = queries(client, reverse(name), params)
    assert (one, three) == (expected, expected)
    # Asked again, the data unchanged: the answer the page cache keeps, after the data version alone.
    assert queries(client, reverse(name), params) == 1


def list_made(name: str, params: dict[str, str]) -> None:
    """The stored list a rating list answer reads, made for the current data (ratings/services/lists.py)."""
    if name == "api-v1:rating_list":
        date = dt.date.fromisoformat(params["date"]) if "date" in params else None
        list_stored(date, active=params.get("active") != "all")


def test_a_list_made_for_its_first_reader_costs_the_same_however_long(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    """A list not made yet (a past date's, asked for the first time) is made by the request: its cost does not
    grow with the list either."""
    params = {"date": days_ago(1).isoformat(), "active": "all"}
    promoted_table(rated_round_robin, 90)
    one = queries(client, reverse("api-v1:rating_list"), params)
    promoted_table(rated_round_robin, 80)
    promoted_table(rated_round_robin, 70)
    three = queries(client, reverse("api-v1:rating_list"), params)
    assert one == three > 4


def test_player_and_history_queries_do_not_grow_with_tables(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    player, *others = (veteran(1500 + i) for i in range(4))
    rated_round_robin([player, others[0]], days_ago(60))
    detail = reverse("api-v1:player", args=[player.federation_id])
    history = reverse("api-v1:player_history", args=[player.federation_id])
    one = (queries(client, detail), queries(client, history))
    rated_round_robin([player, others[1]], days_ago(50))
    rated_round_robin([player, others[2], others[0]], days_ago(40))
    three = (queries(client, detail), queries(client, history))
    # the data version; the player, his official list entries and his clubs; then his rating rows with tables,
    # their opponents, his promotions
    assert (one, three) == ((4, 5), (4, 5))


def test_table_queries_do_not_grow_with_players(client: Client, rated_round_robin: Callable[..., Table]) -> None:
    small = rated_round_robin([veteran(1500 + i) for i in range(2)], days_ago(30))
    large = rated_round_robin([veteran(1600 + i) for i in range(6)], days_ago(20))
    # the data version, the table, its entries with players, rating rows, held Dan grades (2), games, promotions
    assert queries(client, reverse("api-v1:table", args=[small.pk])) == 8
    assert queries(client, reverse("api-v1:table", args=[large.pk])) == 8
