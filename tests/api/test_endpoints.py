"""The API's answers: what they hold, their filters, pages, errors and caching headers."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.engine.grades import grade_of
from tests.api.conftest import Federation
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def get(client: Client, name: str, *args: object, status: int = 200, **params: str) -> Any:
    response = client.get(reverse(f"api-v1:{name}", args=args), params)
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    return response.json()


def test_rating_list_ranks_filters_and_pages(client: Client, federation: Federation) -> None:
    everyone = get(client, "rating_list")
    assert everyone["count"] == 3
    assert [(p["rank"], p["rating"] > 1000) for p in everyone["results"]] == [(1, True), (2, True), (3, True)]
    assert [p["federation_id"] for p in everyone["results"]] == [p.federation_id for p in federation.players]
    german = get(client, "rating_list", country="DE")["results"]
    # A filtered list keeps the ranks of the whole list; the country rank counts within the country.
    overall = {p["federation_id"]: p["rank"] for p in everyone["results"]}
    assert [(p["rank"], p["country_rank"], p["nationality"]) for p in german] == [
        (overall[german[0]["federation_id"]], 1, "DE")
    ]
    second_page = get(client, "rating_list", page_size="2", page="2")
    assert [p["rank"] for p in second_page["results"]] == [3]
    assert get(client, "rating_list", q="aberg")["results"][0]["family_name"] == "Åberg"


def test_rating_list_of_a_past_day_reads_the_states_of_that_day(client: Client, federation: Federation) -> None:
    before = get(client, "rating_list", date=days_ago(40).isoformat(), active="all")["results"]
    assert sorted(p["rating"] for p in before) == [1400, 1500, 1600]  # their opening states
    after = get(client, "rating_list")["results"]
    assert sorted(p["rating"] for p in after) != [1400, 1500, 1600]


@pytest.mark.parametrize(
    "params",
    [
        {"date": "2024-13-01"},
        {"date": "2024-1-01"},
        {"date": "01/02/2024"},
        {"grade_min": "99"},
        {"active": "some"},
        {"country": "XX"},
        {"country": ""},
        {"page_size": ""},
        {"page_size": "0"},
        {"page": "1.0"},
        {"contry": "DE"},
    ],
)
def test_rating_list_refuses_malformed_filters_with_400(
    client: Client, federation: Federation, params: dict[str, str]
) -> None:
    answer = get(client, "rating_list", status=400, **params)
    assert set(answer) == {"detail", "errors"}
    assert set(answer["errors"]) == set(params)


def test_a_parameter_given_twice_is_refused(client: Client, federation: Federation) -> None:
    response = client.get(reverse("api-v1:rating_list") + "?country=DE&country=FR")
    assert response.status_code == 400
    assert response.json()["errors"] == {"country": ["Given more than once."]}


def test_errors_come_in_the_clients_language_whoever_writes_them(client: Client, federation: Federation) -> None:
    """The API's own messages beside Django's and Django REST framework's, in the language the client asks for."""
    url = reverse("api-v1:rating_list") + "?date=2024-1-1&country=ZZ&page=0&colour=blue"
    answer = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").json()
    assert answer["detail"] == "Paramètres mal formés ou inconnus : voir errors."
    assert answer["errors"] == {"colour": ["Ce n'est pas un paramètre de cette opération."]}
    answer = client.get(reverse("api-v1:rating_list") + "?date=2024-1-1&country=ZZ", HTTP_ACCEPT_LANGUAGE="de").json()
    assert answer["errors"]["date"] == ["Ein Datum in der Form JJJJ-MM-TT."]
    assert answer["errors"]["country"][0].startswith("Bitte eine gültige Auswahl treffen")  # Django's own
    missing = client.get(reverse("api-v1:player", args=["NOBODY00"]), HTTP_ACCEPT_LANGUAGE="pl").json()
    assert missing == {"detail": "Żaden zawodnik nie ma tego numeru federacyjnego."}
    nowhere = client.get("/api/v1/nowhere/", HTTP_ACCEPT_LANGUAGE="ja").json()
    assert nowhere == {"detail": "そのエンドポイント、選手、対局表、ページはありません。"}


def test_rating_list_of_any_day_and_any_two_grades(client: Client, federation: Federation) -> None:
    """Days before 1900 (before the first table: no one) and after today (today's list), grades either way."""
    assert get(client, "rating_list", date="1899-12-31", active="all")["count"] == 0
    assert get(client, "rating_list", date="0001-01-01")["count"] == 0
    today = get(client, "rating_list")["results"]
    assert get(client, "rating_list", date="9999-12-31")["results"] == today
    assert get(client, "rating_list", grade_min="20", grade_max="15")["count"] == 0


def test_rating_list_filters_by_grade_and_category_in_the_database(client: Client) -> None:
    """The filter set narrows the stored list's entries; the ranks stay those of the whole list, as the page
    gives them: a player rated by performance has none."""
    seasoned(1700, family_name="Dan", grade=grade_of(1, "Dan"))
    seasoned(1650, family_name="Newcomer", grade=grade_of(10, "Kyu"), games=4, result_list=((1800, 1.0),) * 4)
    seasoned(1600, family_name="Kyu", grade=grade_of(3, "Kyu"))

    def found(**params: str) -> list[tuple[str, int]]:
        return [(p["family_name"], p["rank"]) for p in get(client, "rating_list", **params)["results"]]

    assert found() == [("Dan", 1), ("Newcomer", None), ("Kyu", 2)]
    assert found(grade_min=str(grade_of(3, "Kyu"))) == [("Dan", 1), ("Kyu", 2)]
    assert found(grade_max=str(grade_of(3, "Kyu"))) == [("Newcomer", None), ("Kyu", 2)]
    assert found(category="unrated") == [("Newcomer", None)]
    assert found(category="established", grade_max=str(grade_of(1, "Kyu"))) == [("Kyu", 2)]


@pytest.mark.parametrize("page_size", ["201", "99999999999999999999"])
def test_a_page_size_past_the_largest_gives_the_largest(client: Client, federation: Federation, page_size: str) -> None:
    assert get(client, "rating_list", page_size=page_size)["count"] == 3


def test_player_search_detail_and_history(client: Client, federation: Federation) -> None:
    aberg = federation.players[0]
    found = get(client, "players", q="ABERG nils")["results"]
    assert [p["federation_id"] for p in found] == [aberg.federation_id]
    assert get(client, "players", q=aberg.federation_id.lower())["count"] == 1
    detail = get(client, "player", aberg.federation_id.lower())
    assert detail["grade_label"] == "6 Dan" and detail["page"] == f"/players/{aberg.federation_id}/"
    history = get(client, "player_history", aberg.federation_id)
    (entry,) = history["tables"]
    assert entry["table"]["id"] == federation.table.pk
    assert entry["rating_after"] - entry["rating_before"] == entry["change"]
    assert [g["opponent"]["federation_id"] for g in entry["games"]] == [p.federation_id for p in federation.players[1:]]
    assert [s["status"] for s in history["grades"]] == ["rejected"]
    get(client, "player", "NOSUCHID", status=404)


def test_table_holds_every_game_rating_change_and_promotion(client: Client, federation: Federation) -> None:
    table = get(client, "table", federation.table.pk)
    assert table["tournament"]["name"] == "Paris Open" and table["rounds"] == [1, 2, 3]
    first, _, third = table["rows"]
    assert [c["text"] for c in first["rounds"]] == ["2+", "3+", ""]
    assert [c["opponent"] for c in third["rounds"]] == [
        None,
        federation.players[0].federation_id,
        federation.players[1].federation_id,
    ]
    assert first["change"] > 0 > third["change"]
    assert first["rating"] + first["change"] == first["rating_after"]
    promoted = {(p["player"]["federation_id"], p["granted"], p["pending"]) for p in table["promotions"]}
    assert promoted == {
        (federation.players[1].federation_id, 15, None),
        (federation.players[2].federation_id, None, 22),
    }
    get(client, "table", 999999, status=404)


def test_tournaments_tables_and_promotions(client: Client, federation: Federation) -> None:
    (tournament,) = get(client, "tournaments")["results"]
    assert [(t["id"], t["player_count"]) for t in tournament["tables"]] == [(federation.table.pk, 3)]
    assert get(client, "tournaments", year=str(days_ago(30).year))["count"] == 1
    assert get(client, "tournaments", year="1990")["count"] == 0  # a year is a number, with tournaments or not
    assert set(get(client, "tournaments", year="1990-01-01", status=400)["errors"]) == {"year"}
    assert [t["id"] for t in get(client, "tables")["results"]] == [federation.table.pk]
    assert get(client, "tables", date_from=days_ago(10).isoformat())["count"] == 0
    (recent,) = get(client, "promotions")["results"]
    assert recent["table"]["id"] == federation.table.pk
    lines = [(p["granted_label"], p["pending_label"]) for p in recent["promotions"]]
    assert lines == [("6 Kyu", None), (None, "2 Dan")]
    (waiting,) = get(client, "pending_promotions")["results"]
    assert (waiting["grade"], waiting["grade_label"]) == (22, "2 Dan")


def test_answers_carry_an_etag_and_are_not_sent_again_unchanged(client: Client, federation: Federation) -> None:
    url = reverse("api-v1:rating_list")
    first = client.get(url)
    assert "public" in first["Cache-Control"] and "max-age=300" in first["Cache-Control"]
    again = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    federation.players[0].family_name = "Renamed"
    federation.players[0].save()
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 200


def test_errors_are_not_marked_cacheable(client: Client) -> None:
    response = client.get(reverse("api-v1:player", args=["NOSUCHID"]))
    assert response.status_code == 404 and "public" not in response.get("Cache-Control", "")


def test_the_whole_lists_count_is_its_stored_one_and_a_filtered_lists_is_counted(
    client: Client, federation: Federation
) -> None:
    """Unfiltered, the answer's count is the stored list's number of players, as on the list page: no COUNT of
    its lines; filtered, the lines kept are counted."""
    with CaptureQueriesContext(connection) as read:
        everyone = get(client, "rating_list", page_size="2")
    assert everyone["count"] == 3 and len(everyone["results"]) == 2 and everyone["next"]
    assert not [q["sql"] for q in read.captured_queries if "COUNT(" in q["sql"].upper()]
    with CaptureQueriesContext(connection) as read:
        german = get(client, "rating_list", country="DE")
    assert german["count"] == len(german["results"]) == 1
    assert [q["sql"] for q in read.captured_queries if "COUNT(" in q["sql"].upper()]
