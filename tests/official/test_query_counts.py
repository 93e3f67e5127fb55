"""The official lists' pages and API answers cost the same number of queries with 1 list entry as with many."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import OfficialList, Table
from ratings.services.official_lists import official_list_publish
from tests.factories import make_rating_officer
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
    assert response.status_code == 200, url
    return len(captured.captured_queries)


def listed(count: int, rated_round_robin: Callable[..., Table], days: int) -> OfficialList:
    """``count`` more pairs of players with a rated table, and the list of ``days`` ago published."""
    for i in range(count):
        a = seasoned(1500 + i, grade=20, last_played=days_ago(900))
        b = seasoned(1400 + i, grade=20, last_played=days_ago(900), nationality="DE")
        rated_round_robin([a, b], days_ago(days + 5 + i))
    return official_list_publish(date=days_ago(days), user=make_rating_officer(), expected=None)


# (url name, expected): the pages read the data version (ETag) and the list (1); the list's page then the countries
# of its entries (1), their count and the page of them (2), its rows' clubs of the list's date and the clubs its
# filter offers (2: publishing a list is a new data version, whose clubs no re-rate has read yet); the revised
# page the stored list of the date for this version, which is not there yet and is made (the computed list's
# lookup, its players, their pending and approved Dan grades and their clubs of the date, the latest list dates
# (whether it is indexed), its insert in a savepoint with the data version read again (4), the pruning of older
# lists (2): 11), the published and today's
# entries (2) and the clubs its filter offers (1); the CSV and JSON their entries (1) and their rows' clubs of the
# list's date (1); the archive its count and its page.
# The API reads the data version too (its answers are kept in the page cache by it), then the list, the entries'
# count and their page.
PAGES = [
    ("ratings:official_lists", 3),
    ("ratings:official_list", 7),
    ("ratings:official_list_revised", 17),
    ("ratings:official_list_txt", 3),
    ("ratings:official_list_csv", 4),
    ("ratings:official_list_json", 4),
    ("ratings:official_list_pdf", 3),
    ("api-v1:official_lists", 3),
    ("api-v1:official_list", 4),
]


@pytest.mark.parametrize(("name", "expected"), PAGES)
def test_official_list_queries_do_not_grow_with_rows(
    client: Client, rated_round_robin: Callable[..., Table], name: str, expected: int
) -> None:
    def url(official: OfficialList) -> str:
        if name in ("ratings:official_lists", "api-v1:official_lists"):
            return reverse(name)
        return reverse(name, args=[official.date.isoformat()])

    one = queries(client, url(listed(1, rated_round_robin, 100)))
    many = queries(client, url(listed(3, rated_round_robin, 50)))
    assert (one, many) == (expected, expected)


def test_player_pages_cost_one_query_more_for_the_official_lists(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    listed(1, rated_round_robin, 100)
    official = listed(2, rated_round_robin, 50)
    player = official.stored_list.entries.order_by("position").first().player
    page = reverse("ratings:player", args=[player.federation_id])
    # Publishing is a new data version, whose list of today no re-rate has written: the page's first view writes
    # it after its lookup finds none (its players, their pending Dan grades and their clubs of the date, its
    # insert in a savepoint with the data version read again (4), the pruning of older lists (2)). Then the page as
    # tests/public/test_query_counts.py counts it (its official list entries among them); the API: the data
    # version, the player, his official list entries and his clubs.
    first, then = queries(client, page), queries(client, page + "?fresh=1")  # another URL: not the page cache's
    assert (first, then) == (12 + 9, 12)
    assert queries(client, reverse("api-v1:player", args=[player.federation_id])) == 4


def test_a_published_list_asked_again_is_the_one_the_page_cache_keeps(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    url = reverse("ratings:official_list", args=[listed(2, rated_round_robin, 50).date.isoformat()])
    assert queries(client, url) == 7
    assert queries(client, url) == 1  # the data version: the page is kept for it (ratings/web/caching.py)
    # Another page of the same list (not in the page cache): the data version, the list, its countries, the
    # count and the page of the entries the filter keeps and their clubs; the clubs its filter offers are kept
    # in the shared cache for this version (ratings/selectors/lists.py).
    assert queries(client, url + "?q=a") == 6
