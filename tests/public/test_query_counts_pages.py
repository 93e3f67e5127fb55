"""The pages of search, tournaments, top lists, statistics and the calculator cost the same number of queries
with 1 item as with 3 (see test_query_counts.py); the exact numbers are pinned."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from ratings.models import Table
from ratings.selectors.versions import CACHE
from tests.factories import make_player, make_tournament
from tests.public.conftest import days_ago
from tests.public.test_query_counts import queries, veteran

pytestmark = pytest.mark.django_db


def test_search_queries_do_not_grow_with_players(client: Client) -> None:
    make_player("Müller", "Anna")
    make_player("Muller", "Anna")
    url = reverse("ratings:search")
    two = queries(client, url, {"q": "mueller"})
    make_player("Mueller", "Jan")
    make_player("Müller", "Jan")
    four = queries(client, url, {"q": "mueller"})
    # the data version (ETag), the players found (in SQL, through the key's index), their namesakes, the clubs
    assert (two, four) == (4, 4)
    assert queries(client, url, {"q": "jan"}) == 4


def test_tournament_page_queries_do_not_grow_with_tables_or_players(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    def tournament(tables: int, size: int, days: int) -> int:
        event = make_tournament(date=days_ago(days))
        players = [veteran(1500 + i) for i in range(size)]
        for n in range(tables):
            rated_round_robin(players, days_ago(days), sequence=n + 1, tournament=event)
        return event.pk

    one, three = tournament(1, 2, 60), tournament(3, 4, 30)
    # the data version, its tables with the tournament, entries with players, rating rows, games, held Dan
    # grades (2), namesakes (the promotions are on each table's page), the corrections of its tables
    expected = 9
    assert queries(client, reverse("ratings:tournament", args=[one])) == expected
    assert queries(client, reverse("ratings:tournament", args=[three])) == expected


def test_calculator_queries_do_not_grow_with_games(client: Client) -> None:
    me = veteran(1600)
    opponents = [veteran(1500 + i) for i in range(3)]
    url = reverse("ratings:calculator")

    def plan(count: int) -> dict[str, str]:
        data = {"form-TOTAL_FORMS": "10", "form-INITIAL_FORMS": "0", "player": me.federation_id}
        for i, opponent in enumerate(opponents[:count]):
            data |= {f"form-{i}-opponent": opponent.federation_id, f"form-{i}-result": "1"}
            data |= {f"form-{2 * count + i}-opponent_rating": "1400", f"form-{2 * count + i}-result": "0"}
        return data

    # the data version (the page cache's key), the players by federation id, their latest rating rows through
    # the validity index, the rows of those the index does not find (ratings/selectors/states.py), their
    # opening states
    assert (queries(client, url, plan(1)), queries(client, url, plan(3))) == (5, 5)
    assert queries(client, url, plan(3)) == 1  # the same plan again: from the page cache


def emptied(client: Client, url: str) -> int:
    """The queries of a view of ``url`` with the shared cache emptied: nothing kept for the data version."""
    caches[CACHE].clear()
    return queries(client, url)


def test_statistics_queries_do_not_grow_with_players_or_years(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    url = reverse("ratings:statistics")
    rated_round_robin([veteran(1500), veteran(1400)], days_ago(30))
    # After a re-rate, whose follow-up made the numbers by year and the most active players for the new data
    # version: the data version and the top list. With nothing kept (a cache emptied), also the most active (their
    # counts, then the players), the tables, games, new players and promotions by year, and the form's countries.
    one = (queries(client, url, {"country": "FR"}), emptied(client, url))
    for days in (400, 800):
        rated_round_robin([veteran(1600), veteran(1300)], days_ago(days))
    three = (queries(client, url, {"country": "FR"}), emptied(client, url))
    assert one == three == (2, 9)
