"""The Atom feeds of rated tables and promotions, and the links to them in every page's <head>."""

from __future__ import annotations

from collections.abc import Callable
from xml.etree import ElementTree

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import Club, Table, TableStatus, Tournament
from ratings.services.clubs.memberships import club_membership_set
from tests.api.conftest import Federation, veteran
from tests.factories import make_table, make_tournament, round_robin
from tests.public.conftest import days_ago

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


def entries(client: Client, name: str) -> list[dict[str, str]]:
    response = client.get(reverse(name))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = ElementTree.fromstring(response.content)
    return [
        {
            "title": e.findtext(f"{ATOM}title") or "",
            "link": e.find(f"{ATOM}link").get("href", ""),  # type: ignore[union-attr]
            "summary": e.findtext(f"{ATOM}summary") or "",
            "updated": e.findtext(f"{ATOM}updated") or "",
        }
        for e in feed.iter(f"{ATOM}entry")
    ]


def test_tables_feed_lists_rated_tables_latest_first(
    client: Client, federation: Federation, rated_round_robin: Callable[..., Table]
) -> None:
    later = rated_round_robin([veteran(1500), veteran(1400)], days_ago(10))
    waiting = make_table(federation.players, date=days_ago(5), status=TableStatus.SUBMITTED)
    round_robin(waiting, federation.players)
    items = entries(client, "feeds:tables")
    assert [i["link"] for i in items] == [
        f"http://testserver/tables/{later.pk}/",
        f"http://testserver/tables/{federation.table.pk}/",
    ]
    assert items[1]["title"] == f"Paris Open ({days_ago(30).isoformat()})"
    assert items[1]["summary"].startswith("3 players") and items[1]["updated"]


def test_promotions_feed_prints_promotions_as_fesa_does(client: Client, federation: Federation) -> None:
    (item,) = entries(client, "feeds:promotions")
    assert item["link"].endswith(f"/tables/{federation.table.pk}/")
    promoted, waiting = federation.players[1], federation.players[2]
    assert item["summary"].splitlines() == [
        f"Promoting {promoted} to 6 Kyu",
        f"{waiting}: 2 Dan waiting for approval",
    ]
    assert str(federation.players[0]) not in item["summary"]  # rejected: not shown


# the data version (the validators and the page cache's key), then the feed's items (and their promotions)
@pytest.mark.parametrize(("name", "expected"), [("feeds:tables", 2), ("feeds:promotions", 3)])
def test_feed_queries_do_not_grow_with_items(
    client: Client, rated_round_robin: Callable[..., Table], name: str, expected: int
) -> None:
    def table(days: int) -> None:
        players = [veteran(1500 + days), veteran(1400 + days)]
        made = rated_round_robin(players, days_ago(days))
        made.promotions.create(
            player=players[0], grade=15, game_number=41, route="upper_bound", rating=1, status="effective"
        )

    counts = []
    for days in (90, 80, 70):
        table(days)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse(name)).status_code == 200
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[2] == expected
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse(name)).status_code == 200
    assert len(captured.captured_queries) == 1  # the same feed again: from the page cache


def test_every_page_links_the_feeds_in_its_head(client: Client, federation: Federation) -> None:
    for url in ("/", "/tournaments/", "/promotions/", f"/tables/{federation.table.pk}/"):
        head = client.get(url).content.decode().split("</head>")[0]
        assert f'type="application/atom+xml" title="Rated tables" href="{reverse("feeds:tables")}"' in head
        assert f'href="{reverse("feeds:promotions")}"' in head


def test_every_feed_names_its_author_and_no_two_entries_share_an_id(client: Client, federation: Federation) -> None:
    """Atom requires an author; a reader following both feeds took a table's promotions for the table."""
    ids = []
    for name in ("feeds:tables", "feeds:promotions"):
        feed = ElementTree.fromstring(client.get(reverse(name)).content)
        assert feed.findtext(f"{ATOM}author/{ATOM}name") == "FESA ratings"
        ids += [e.findtext(f"{ATOM}id") for e in feed.iter(f"{ATOM}entry")]
    assert len(ids) == 2 and len(set(ids)) == 2
    assert ids[1] == f"{ids[0]}#promotions"


def test_a_clubs_feed_holds_the_rated_tables_of_the_tournaments_it_hosted(
    client: Client, federation: Federation, rated_round_robin: Callable[..., Table]
) -> None:
    lyon = Club.objects.create(name="Shogi Club Lyon", country="FR", city="Lyon")
    other = Club.objects.create(name="Paris Shogi", country="FR")

    def hosted(club: Club, days: int) -> Table:
        tournament = make_tournament(f"Cup {days}", date=days_ago(days))
        Tournament.objects.filter(pk=tournament.pk).update(host_club=club)
        return rated_round_robin([veteran(1500), veteran(1400)], days_ago(days), tournament=tournament)

    older, newer = hosted(lyon, 60), hosted(lyon, 20)
    hosted(other, 10)
    waiting = make_table(federation.players, date=days_ago(5), status=TableStatus.SUBMITTED)
    Tournament.objects.filter(pk=waiting.tournament_id).update(host_club=lyon)
    response = client.get(reverse("feeds:club", args=[lyon.pk]))
    feed = ElementTree.fromstring(response.content)
    assert feed.findtext(f"{ATOM}title") == "FESA ratings: Shogi Club Lyon"
    links = [e.find(f"{ATOM}link").get("href") for e in feed.iter(f"{ATOM}entry")]  # type: ignore[union-attr]
    assert links == [f"http://testserver/tables/{newer.pk}/", f"http://testserver/tables/{older.pk}/"]
    assert client.get(reverse("feeds:club", args=[other.pk + 1])).status_code == 404
    head = client.get(reverse("ratings:club", args=[lyon.pk])).content.decode().split("</head>")[0]
    assert f'href="{reverse("feeds:club", args=[lyon.pk])}"' in head


def test_a_clubs_feed_holds_the_rated_tables_its_members_played_while_members(
    client: Client, federation: Federation, rated_round_robin: Callable[..., Table]
) -> None:
    """A secretary follows the members: a table counts when one of its players was in the club on its date;
    a table both hosted and played by members is one entry."""
    lyon = Club.objects.create(name="Shogi Club Lyon", country="FR", city="Lyon")
    stays, joins, leaves, outsider = veteran(1600), veteran(1500), veteran(1400), veteran(1300)
    club_membership_set(player=stays, club=lyon, since=days_ago(400))
    club_membership_set(player=joins, club=lyon, since=days_ago(30))
    club_membership_set(player=leaves, club=lyon, since=days_ago(400))
    club_membership_set(player=leaves, club=None, since=days_ago(50))
    before_leaving = rated_round_robin([leaves, outsider], days_ago(70))
    while_member = rated_round_robin([stays, outsider], days_ago(60))
    rated_round_robin([leaves, outsider], days_ago(45))  # left already
    rated_round_robin([joins, outsider], days_ago(40))  # not a member yet
    home = make_tournament("Lyon Cup", date=days_ago(20))
    Tournament.objects.filter(pk=home.pk).update(host_club=lyon)
    hosted = rated_round_robin([joins, stays], days_ago(20), tournament=home)
    make_table([stays, outsider], date=days_ago(5), status=TableStatus.SUBMITTED)  # not rated yet
    feed = ElementTree.fromstring(client.get(reverse("feeds:club", args=[lyon.pk])).content)
    links = [e.find(f"{ATOM}link").get("href") for e in feed.iter(f"{ATOM}entry")]  # type: ignore[union-attr]
    assert links == [f"http://testserver/tables/{t.pk}/" for t in (hosted, while_member, before_leaving)]
