"""The rating list's club and category filters, on the page, in its files and in the API: the club and the age of
the list's date; a club or a category the site does not know is a 400 naming the filter."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from ratings.models import Club, Player, Table
from ratings.services.clubs.memberships import club_membership_set
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db

PAST = days_ago(50)


def names(response: Any) -> list[str]:
    assert response.status_code == 200
    return [row.record.family_name for row in response.context["table"].paginated_rows]


def born_turning(age: int, on: dt.date) -> dt.date:
    """The date of birth of a player who turns ``age`` on ``on``."""
    return on.replace(year=on.year - age)


@pytest.fixture
def moved(rated_round_robin: Callable[..., Table]) -> dict[str, Any]:
    """Stayed and Moved in Lyon since long ago; Moved went to Paris after the past list's date; Loner in none.
    All three played a rated table before the past list's date."""
    lyon = Club.objects.create(name="Shogi Club Lyon", country="FR")
    paris = Club.objects.create(name="Paris Shogi", country="FR")
    stayed, moved, loner = (
        seasoned(r, family_name=n, last_played=days_ago(400))
        for r, n in ((1600, "Stayed"), (1500, "Moved"), (1400, "Loner"))
    )
    rated_round_robin([stayed, moved, loner], days_ago(100))
    club_membership_set(player=stayed, club=lyon, since=days_ago(400))
    club_membership_set(player=moved, club=lyon, since=days_ago(400))
    club_membership_set(player=moved, club=paris, since=days_ago(30))
    return {"lyon": lyon, "paris": paris, "stayed": stayed, "moved": moved, "loner": loner}


def test_rating_list_filters_by_the_club_of_the_lists_date(client: Client, moved: dict[str, Any]) -> None:
    url = reverse("ratings:rating_list")
    lyon, paris = moved["lyon"].pk, moved["paris"].pk
    assert names(client.get(url, {"club": lyon})) == ["Stayed"]
    in_paris = client.get(url, {"club": paris})
    assert names(in_paris) == ["Moved"]
    # the ranks stay those of the whole list
    assert [row.record.rank for row in in_paris.context["table"].paginated_rows] == [2]
    assert names(client.get(url, {"club": lyon, "date": PAST.isoformat()})) == ["Stayed", "Moved"]
    assert names(client.get(url, {"club": paris, "date": PAST.isoformat()})) == []


def test_a_printed_list_names_its_filters_and_its_page(client: Client, moved: dict[str, Any]) -> None:
    """On paper the filter form and the pages are hidden: a line that only print shows says what the page holds."""
    url = reverse("ratings:rating_list")
    page = client.get(url, {"club": moved["paris"].pk, "country": "FR"}).content.decode()
    line = re.search(r'<p class="print-only">(.*?)</p>', page, re.S)
    assert line is not None
    assert "Club: Paris Shogi" in line.group(1) and "Country: France" in line.group(1)
    assert "Players 1 to 1 of 1 (page 1 of 1)." in line.group(1)
    whole = client.get(url, {"per_page": 25}).content.decode()
    assert "Players 1 to 3 of 3 (page 1 of 1)." in whole and "Club:" not in re.search(
        r'<p class="print-only">(.*?)</p>', whole, re.S
    ).group(1)


def test_rating_list_shows_each_players_club_of_the_lists_date(client: Client, moved: dict[str, Any]) -> None:
    url = reverse("ratings:rating_list")

    def club_cells(params: dict[str, str]) -> dict[str, str]:
        html = client.get(url, params).content.decode()
        rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
        cells = {}
        for row in rows:
            name = re.search(r'<a href="/players/[^"]+/">([^<]+)</a>', row)
            club = re.search(r'<td class="extra club">(.*?)</td>', row)
            if name and club:
                cells[name.group(1)] = re.sub(r"<[^>]+>", "", club.group(1))
        return cells

    assert club_cells({}) == {"STAYED": "Shogi Club Lyon", "MOVED": "Paris Shogi", "LONER": ""}
    assert club_cells({"date": PAST.isoformat()}) == {
        "STAYED": "Shogi Club Lyon",
        "MOVED": "Shogi Club Lyon",
        "LONER": "",
    }


def test_rating_list_filters_by_the_category_of_the_lists_date(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    """A player who turned 16 after the past list's date is under 16 on it, not today; only the category is
    shown, never the date of birth."""
    birthday = days_ago(10)
    junior = seasoned(1600, last_played=days_ago(400), family_name="Junior", date_of_birth=born_turning(16, birthday))
    adult = seasoned(1500, last_played=days_ago(400), family_name="Adult", date_of_birth=dt.date(1980, 5, 17))
    woman = seasoned(
        1400, last_played=days_ago(400), family_name="Sente", on_womens_list=True, womens_list_consent=days_ago(200)
    )
    rated_round_robin([junior, adult, woman], days_ago(100))
    url = reverse("ratings:rating_list")
    assert names(client.get(url, {"group": "U16"})) == []
    assert names(client.get(url, {"group": "U20"})) == ["Junior"]
    past = client.get(url, {"group": "U16", "date": PAST.isoformat()})
    assert names(past) == ["Junior"]
    assert str(birthday.year - 16) not in past.content.decode()
    assert names(client.get(url, {"group": "W"})) == ["Sente"]
    assert names(client.get(url, {"group": "S50"})) == []


@pytest.mark.parametrize(
    ("params", "field"),
    [({"club": "999999"}, "club"), ({"club": "lyon"}, "club"), ({"group": "U99"}, "group")],
)
def test_rating_list_refuses_an_unknown_club_or_category(
    client: Client, moved: dict[str, Any], params: dict[str, str], field: str
) -> None:
    response = client.get(reverse("ratings:rating_list"), params)
    assert response.status_code == 400
    assert response.context["filter"].form.errors[field]
    export = client.get(reverse("ratings:rating_list_csv"), params)
    assert export.status_code == 400 and field in export.json()["errors"]


def test_rating_list_files_keep_the_club_and_category_filters(client: Client, moved: dict[str, Any]) -> None:
    params = {"club": str(moved["lyon"].pk), "date": PAST.isoformat()}
    response = client.get(reverse("ratings:rating_list_csv"), params)
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [r["family_name"] for r in rows] == ["Stayed", "Moved"]
    document = client.get(reverse("ratings:rating_list_json"), {"club": str(moved["paris"].pk)}).json()
    assert [p["family_name"] for p in document["players"]] == ["Moved"]


def test_rating_list_files_name_each_players_club_of_the_lists_date(client: Client, moved: dict[str, Any]) -> None:
    """The files' club column is the page's: the club of the list's date, empty for a player in none."""
    today = client.get(reverse("ratings:rating_list_csv"))
    rows = list(csv.DictReader(io.StringIO(b"".join(today.streaming_content).decode())))
    assert {r["family_name"]: r["club"] for r in rows} == {
        "Stayed": "Shogi Club Lyon",
        "Moved": "Paris Shogi",
        "Loner": "",
    }
    document = client.get(reverse("ratings:rating_list_json"), {"date": PAST.isoformat()}).json()
    assert {p["family_name"]: p["club"] for p in document["players"]} == {
        "Stayed": "Shogi Club Lyon",
        "Moved": "Shogi Club Lyon",
        "Loner": "",
    }
    sheet = load_workbook(io.BytesIO(client.get(reverse("ratings:rating_list_xlsx")).content)).active
    assert sheet is not None
    assert [row[-1] for row in sheet.iter_rows(values_only=True)] == ["club", "Shogi Club Lyon", "Paris Shogi", None]


def test_rating_list_page_offers_the_clubs_and_keeps_them_in_its_links(client: Client, moved: dict[str, Any]) -> None:
    lyon = moved["lyon"].pk
    html = client.get(reverse("ratings:rating_list"), {"club": lyon}).content.decode()
    assert f'<option value="{lyon}" selected>Shogi Club Lyon</option>' in html
    assert f'href="/export.csv?club={lyon}"' in html


def test_api_rating_list_filters_by_club_and_category_of_the_day(client: Client, moved: dict[str, Any]) -> None:
    url = reverse("api-v1:rating_list")

    def ids(**params: str) -> list[str]:
        response = client.get(url, params)
        assert response.status_code == 200, response.content
        return [p["federation_id"] for p in response.json()["results"]]

    stayed, moved_player = moved["stayed"].federation_id, moved["moved"].federation_id
    lyon = str(moved["lyon"].pk)
    assert ids(club=lyon) == [stayed]
    assert ids(club=lyon, date=PAST.isoformat()) == [stayed, moved_player]
    Player.objects.filter(pk=moved["moved"].pk).update(date_of_birth=born_turning(16, days_ago(10)))
    assert ids(group="U16", date=PAST.isoformat(), active="all") == [moved_player]
    assert ids(group="U16") == []


@pytest.mark.parametrize(
    ("params", "field"),
    [({"club": "999999"}, "club"), ({"club": "1.5"}, "club"), ({"group": "U99"}, "group"), ({"group": "w"}, "group")],
)
def test_api_rating_list_refuses_an_unknown_club_or_category(
    client: Client, moved: dict[str, Any], params: dict[str, str], field: str
) -> None:
    response = client.get(reverse("api-v1:rating_list"), params)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [field]


def test_api_schema_documents_the_club_and_category_parameters(client: Client) -> None:
    schema = client.get(reverse("api-v1:schema"), HTTP_ACCEPT="application/json").json()
    parameters = {p["name"]: p for p in schema["paths"]["/api/v1/rating-list/"]["get"]["parameters"]}
    assert parameters["club"]["schema"]["type"] == "integer"
    assert "club" in parameters["club"]["description"].lower()
    assert set(parameters["group"]["schema"]["enum"]) == {"U12", "U16", "U20", "S50", "S65", "W"}


def test_api_rating_list_offers_clubs_made_after_the_schema_was_read(client: Client, moved: dict[str, Any]) -> None:
    """The schema's generator reads the filter set's own filters; a club made afterwards is still a choice."""
    assert client.get(reverse("api-v1:schema"), HTTP_ACCEPT="application/json").status_code == 200
    later = Club.objects.create(name="Kyoto Kai", country="JP")
    club_membership_set(player=moved["loner"], club=later, since=days_ago(400))
    for url in (reverse("api-v1:rating_list"), reverse("ratings:rating_list")):
        assert client.get(url, {"club": str(later.pk)}).status_code == 200
