"""An official list filtered by club: the players in the club on the list's date, on its page and in the API;
each row shows the club of that date."""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Club, ListEntry, OfficialList, Player
from ratings.selectors.lists import list_entries
from ratings.services.clubs.memberships import club_membership_set
from ratings.services.lists import list_stored
from ratings.services.official_lists import official_list_publish
from tests.official.conftest import Federation
from tests.public.conftest import days_ago

pytestmark = pytest.mark.django_db


def test_an_official_list_filters_by_the_club_of_its_date(
    client: Client, grouped: dict[str, int], published: OfficialList
) -> None:
    lyon, paris = grouped["lyon"], grouped["paris"]
    iso = published.date.isoformat()
    page = client.get(reverse("ratings:official_list", args=[iso]), {"club": lyon})
    assert [row.record.family_name for row in page.context["table"].paginated_rows] == ["Anders", "Berger"]
    assert page.content.decode().count(f'<td class="extra club"><a href="/clubs/{lyon}/">') == 2
    assert f'aria-label="Official list of {iso}"' in page.content.decode()  # its box named by its date
    api = client.get(reverse("api-v1:official_list", args=[iso]), {"club": paris})
    assert api.status_code == 200, api.content
    assert api.json()["results"] == []
    refused = client.get(reverse("api-v1:official_list", args=[iso]), {"club": paris + 100})
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["club"]
    assert client.get(reverse("ratings:official_list", args=[iso]), {"club": "x"}).status_code == 400


def test_an_official_lists_files_name_each_players_club_of_its_date(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    lyon = Club.objects.create(name="Shogi Club Lyon", country="FR")
    paris = Club.objects.create(name="Paris Shogi", country="FR")
    anders, berger, *_ = federation.players
    club_membership_set(player=anders, club=lyon, since=days_ago(400))
    club_membership_set(player=berger, club=paris, since=days_ago(10))  # after the list's date
    iso = published.date.isoformat()
    response = client.get(reverse("ratings:official_list_csv", args=[iso]))
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {r["family_name"]: r["club"] for r in rows} == {
        "Anders": "Shogi Club Lyon",
        "Berger": "",
        "Claes": "",
        "Dupont": "",
    }
    document = client.get(reverse("ratings:official_list_json", args=[iso])).json()
    assert {p["family_name"]: p["club"] for p in document["players"]}["Anders"] == "Shogi Club Lyon"


@pytest.fixture
def grouped(federation: Federation) -> dict[str, int]:
    """Anders and Berger in Lyon on the list's date (Berger in Paris since, after it); Claes 50 and over."""
    lyon = Club.objects.create(name="Shogi Club Lyon", country="FR")
    paris = Club.objects.create(name="Paris Shogi", country="FR")
    anders, berger, claes, _dupont = federation.players
    club_membership_set(player=anders, club=lyon, since=days_ago(400))
    club_membership_set(player=berger, club=lyon, since=days_ago(400))
    club_membership_set(player=berger, club=paris, since=days_ago(10))
    Player.objects.filter(pk=claes.pk).update(date_of_birth=dt.date(1950, 3, 1))
    return {"lyon": lyon.pk, "paris": paris.pk}


def revised_names(client: Client, iso: str, params: dict[str, Any]) -> list[str]:
    page = client.get(reverse("ratings:official_list_revised", args=[iso]), params)
    assert page.status_code == 200, page.content
    return [r.row.family_name for r in page.context["page"].object_list]


def test_the_revised_list_filters_by_the_club_and_category_of_the_lists_date(
    client: Client, published: OfficialList, grouped: dict[str, int]
) -> None:
    iso = published.date.isoformat()
    assert revised_names(client, iso, {"club": grouped["lyon"]}) == ["Anders", "Berger"]
    assert revised_names(client, iso, {"club": grouped["paris"]}) == []
    assert revised_names(client, iso, {"group": "S50"}) == ["Claes"]
    assert revised_names(client, iso, {"club": grouped["lyon"], "group": "S50"}) == []
    html = client.get(reverse("ratings:official_list_revised", args=[iso]), {"club": grouped["lyon"]}).content
    assert f'<option value="{grouped["lyon"]}" selected>Shogi Club Lyon</option>' in html.decode()
    for params in ({"club": grouped["paris"] + 100}, {"group": "U99"}):
        refused = client.get(reverse("ratings:official_list_revised", args=[iso]), params)
        assert refused.status_code == 400 and list(refused.context["form"].errors) == list(params)


def test_an_official_list_its_files_and_the_api_filter_by_the_club_and_category_of_its_date(
    client: Client, published: OfficialList, grouped: dict[str, int]
) -> None:
    iso = published.date.isoformat()
    page = client.get(reverse("ratings:official_list", args=[iso]), {"group": "S50", "page": "1"})
    assert [row.record.family_name for row in page.context["table"].paginated_rows] == ["Claes"]
    assert f'href="/lists/official/{iso}/list.csv?group=S50"' in page.content.decode()
    response = client.get(reverse("ratings:official_list_csv", args=[iso]), {"club": grouped["lyon"]})
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [(r["family_name"], r["rank"]) for r in rows] == [("Anders", "1"), ("Berger", "2")]
    document = client.get(reverse("ratings:official_list_json", args=[iso]), {"group": "S50"}).json()
    assert [p["family_name"] for p in document["players"]] == ["Claes"]
    refused = client.get(reverse("ratings:official_list_json", args=[iso]), {"club": "x"})
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["club"]
    api = client.get(reverse("api-v1:official_list", args=[iso]), {"group": "S50", "club": grouped["lyon"]})
    assert api.status_code == 200 and api.json()["results"] == []
    api = client.get(reverse("api-v1:official_list", args=[iso]), {"group": "S50"})
    assert [p["family_name"] for p in api.json()["results"]] == ["Claes"]
    refused = client.get(reverse("api-v1:official_list", args=[iso]), {"group": "U99"})
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["group"]
    whole = client.get(reverse("ratings:official_list_txt", args=[iso]), {"club": grouped["lyon"]})
    assert whole.content == bytes(OfficialList.objects.get().all_txt)  # all.txt stays the list as published


def test_a_published_list_keeps_no_club_nor_category_of_its_own(federation: Federation) -> None:
    """The computed list's lines hold the club and age category its filters read; the published copy does not
    (they were not published, and its filters read them as recorded now)."""
    lyon = Club.objects.create(name="Shogi Club Lyon", country="FR")
    anders = federation.players[0]
    club_membership_set(player=anders, club=lyon, since=days_ago(400))
    Player.objects.filter(pk=anders.pk).update(date_of_birth=dt.date(1950, 1, 1))
    computed = list_stored(federation.date)
    assert list_entries(computed).filter(club=lyon, age_group__startswith="S").count() == 1
    official = official_list_publish(date=federation.date, user=federation.officer, title="T", note="", expected=None)
    entries = ListEntry.objects.filter(stored_list__official=official)
    assert entries.count() == list_entries(computed).count()
    assert not entries.filter(club__isnull=False).exists() and not entries.exclude(age_group="").exists()
