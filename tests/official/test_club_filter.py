"""An official list filtered by club: the players in the club on the list's date, on its page and in the API;
each row shows the club of that date."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Club, OfficialList
from ratings.services.clubs.memberships import club_membership_set
from tests.official.conftest import Federation
from tests.public.conftest import days_ago

pytestmark = pytest.mark.django_db


def test_an_official_list_filters_by_the_club_of_its_date(
    client: Client, federation: Federation, published: OfficialList
) -> None:
    lyon = Club.objects.create(name="Shogi Club Lyon", country="FR")
    paris = Club.objects.create(name="Paris Shogi", country="FR")
    anders, berger, *_ = federation.players
    club_membership_set(player=anders, club=lyon, since=days_ago(400))
    club_membership_set(player=berger, club=lyon, since=days_ago(400))
    club_membership_set(player=berger, club=paris, since=days_ago(10))  # after the list's date
    iso = published.date.isoformat()
    page = client.get(reverse("ratings:official_list", args=[iso]), {"club": lyon.pk})
    assert [row.record.family_name for row in page.context["table"].paginated_rows] == ["Anders", "Berger"]
    assert page.content.decode().count(f'<td class="extra club"><a href="/clubs/{lyon.pk}/">') == 2
    api = client.get(reverse("api-v1:official_list", args=[iso]), {"club": paris.pk})
    assert api.status_code == 200, api.content
    assert api.json()["results"] == []
    refused = client.get(reverse("api-v1:official_list", args=[iso]), {"club": paris.pk + 100})
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
