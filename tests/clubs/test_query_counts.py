"""The new pages and API answers cost the same number of queries with one row as with three."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import Club, Table
from ratings.services.clubs.memberships import club_membership_set
from tests.factories import add_game, make_table
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200, url
    return len(captured.captured_queries)


def test_club_pages_do_not_grow_with_members(client: Client, rated_round_robin: Callable[..., Table]) -> None:
    club = Club.objects.create(name="Kyoto Kai", country="JP")
    first = seasoned(1800)
    club_membership_set(player=first, club=club, since=dt.date(2020, 1, 1))
    table = rated_round_robin([first, seasoned(1700)], days_ago(10))
    table.tournament.host_club = club
    table.tournament.save()
    urls = [reverse(n, args=[club.pk]) for n in ("ratings:club", "api-v1:club")]
    urls += [reverse(n) for n in ("ratings:clubs", "api-v1:clubs", "ratings:countries", "ratings:category_tops")]
    one = [queries(client, url) for url in urls]
    for _ in range(2):
        club_membership_set(player=seasoned(1600), club=club, since=dt.date(2020, 1, 1))
    many = [queries(client, url) for url in urls]
    # the data version, then: the club, its members, those ranked, its tournaments (page and API); the
    # rankings are built once per data version; the categories one query each
    assert one == many


def test_head_to_head_does_not_grow_with_games(client: Client, rate: Callable[[Table], Table]) -> None:
    a, b = seasoned(1800), seasoned(1700)
    urls = [
        reverse("ratings:head_to_head", args=[a.federation_id, b.federation_id]),
        reverse("api-v1:head_to_head", args=[a.federation_id, b.federation_id]),
    ]
    table = make_table([a, b], date=days_ago(20))
    add_game(table, 1, a, b)
    rate(table)
    one = [queries(client, url) for url in urls]
    table = make_table([a, b], date=days_ago(10))
    add_game(table, 1, a, b)
    add_game(table, 2, b, a)
    rate(table)
    many = [queries(client, url) for url in urls]
    assert one == many == [5, 5]  # the data version, each player, the games, their rating rows


def test_the_rankings_are_made_once_per_data_version(client: Client) -> None:
    club = Club.objects.create(name="Kyoto Kai", country="JP")
    club_membership_set(player=seasoned(1800), club=club, since=dt.date(2020, 1, 1))
    for page, api in (("ratings:clubs", "api-v1:clubs"), ("ratings:countries", "api-v1:countries")):
        assert queries(client, reverse(page)) > 1
        # Other answers of the page cache (another language, the API), the same data: only its version is read.
        for url, language in ((reverse(page), "fr"), (reverse(api), "en"), (reverse(api), "de")):
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url, headers={"accept-language": language}).status_code == 200
            assert len(captured.captured_queries) == 1, (url, language)
