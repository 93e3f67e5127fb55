"""The rating list (front page): who is on it, filters, sorting, ranks, exports, and lists of past dates."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings.models import ListEntry, Player, Promotion, RatingRow, StoredList, Table
from ratings.selectors import active_cutoff, list_entries
from ratings.selectors.list_values import _current_list, _list_as_of
from ratings.selectors.versions import data_version
from ratings.services.lists import list_stored
from tests.factories import make_player, make_table, round_robin
from tests.pipeline.histories import submit
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def rating_list(date: dt.date | None = None, active: bool = True) -> list[ListEntry]:
    return list(list_entries(list_stored(date, active=active)))


def names(response: object) -> list[str]:
    """The family names of the rating list's rows, in page order."""
    table = response.context["table"]  # type: ignore[attr-defined]
    return [row.record.family_name for row in table.paginated_rows]


def test_rating_list_holds_active_players_by_rating_without_professionals(client: Client) -> None:
    seasoned(1500, family_name="Middle")
    seasoned(1900, family_name="Top")
    seasoned(1200, family_name="Low")
    seasoned(2400, family_name="Pro", is_professional=True)
    seasoned(2300, family_name="ProGrade", prior=("pro", 3))
    seasoned(2000, family_name="Gone", last_played=days_ago(3 * 365))
    response = client.get(reverse("ratings:rating_list"))
    assert response.status_code == 200
    assert names(response) == ["Top", "Middle", "Low"]
    everyone = client.get(reverse("ratings:rating_list"), {"active": "all"})
    assert names(everyone) == ["Gone", "Top", "Middle", "Low"]


def test_active_cutoff_is_the_same_day_two_years_before() -> None:
    assert active_cutoff(dt.date(2024, 5, 12)) == dt.date(2022, 5, 12)
    # 2022-02-29 does not exist; the FESA program compares as text, so 28 February is out, 1 March in.
    assert active_cutoff(dt.date(2024, 2, 29)) == dt.date(2022, 3, 1)


def test_rating_list_keeps_a_player_who_played_exactly_two_years_ago(client: Client) -> None:
    today = days_ago(0)
    seasoned(1500, family_name="Edge", last_played=active_cutoff(today))
    seasoned(1500, family_name="Out", last_played=active_cutoff(today) - dt.timedelta(days=1))
    assert names(client.get(reverse("ratings:rating_list"))) == ["Edge"]


def test_rating_list_filters_by_country_grade_and_category(client: Client) -> None:
    seasoned(1800, family_name="FrDan", grade=21, nationality="FR")
    seasoned(1500, family_name="FrKyu", grade=17, nationality="FR")
    seasoned(1400, family_name="DeKyu", grade=16, nationality="DE")
    seasoned(1300, family_name="FrFew", grade=15, games=10, nationality="FR")
    url = reverse("ratings:rating_list")
    assert names(client.get(url, {"country": "FR"})) == ["FrDan", "FrKyu", "FrFew"]
    # grade 16 = 5 Kyu, grade 20 = 1 Kyu (ratings/engine/types.py)
    assert names(client.get(url, {"grade_min": "16", "grade_max": "20"})) == ["FrKyu", "DeKyu"]
    assert names(client.get(url, {"category": "provisional"})) == ["FrFew"]
    assert names(client.get(url, {"category": "established", "country": "FR"})) == ["FrDan", "FrKyu"]


def test_rating_list_filtered_shows_the_overall_and_the_country_rank(client: Client) -> None:
    seasoned(2000, family_name="A", nationality="DE")
    seasoned(1900, family_name="B", nationality="FR")
    seasoned(1800, family_name="C", nationality="DE")
    seasoned(1700, family_name="Cecile", nationality="FR")
    url = reverse("ratings:rating_list")
    table = client.get(url, {"country": "DE"}).context["table"]
    assert [(r.record.family_name, r.record.rank, r.record.country_rank) for r in table.paginated_rows] == [
        ("A", 1, 1),
        ("C", 3, 2),
    ]
    table = client.get(url, {"q": "ce"}).context["table"]
    assert [(r.record.family_name, r.record.rank, r.record.country_rank) for r in table.paginated_rows] == [
        ("Cecile", 4, 2)
    ]


def test_rating_list_numbers_equal_ratings_in_the_state_lists_order(client: Client) -> None:
    """As the FESA program's list: players who came without a FESA record first (by id), then the state
    list's players in its order (``Player.list_order``)."""
    zeta, alpha = seasoned(1500, family_name="Zeta"), seasoned(1500, family_name="Alpha")
    listed_2, listed_1 = seasoned(1500, family_name="Listed2"), seasoned(1500, family_name="Listed1")
    Player.objects.filter(pk=listed_1.pk).update(list_order=1)
    Player.objects.filter(pk=listed_2.pk).update(list_order=2)
    table = client.get(reverse("ratings:rating_list")).context["table"]
    assert [(r.record.family_name, r.record.rank) for r in table.paginated_rows] == [
        (zeta.family_name, 1),
        (alpha.family_name, 2),
        ("Listed1", 3),
        ("Listed2", 4),
    ]


def test_rating_list_sorts_by_any_column_and_keeps_the_rank(client: Client) -> None:
    seasoned(2000, family_name="Beta", games=50)
    seasoned(1500, family_name="Alpha", games=90)
    seasoned(1000, family_name="Gamma", games=20)
    url = reverse("ratings:rating_list")
    by_name = client.get(url, {"sort": "name"}).context["table"]
    assert [(r.record.family_name, r.record.rank) for r in by_name.paginated_rows] == [
        ("Alpha", 2),
        ("Beta", 1),
        ("Gamma", 3),
    ]
    assert names(client.get(url, {"sort": "-games"})) == ["Alpha", "Beta", "Gamma"]
    assert names(client.get(url, {"sort": "rating"})) == ["Gamma", "Alpha", "Beta"]


def test_rating_list_sorts_names_as_read_whatever_their_accents_and_case(client: Client) -> None:
    """ÁLVAREZ under A and "de Groot" under D, not after ZIMMERMANN as the bytes of the names would have them."""
    for rating, family in enumerate(["Zimmermann", "de Groot", "Álvarez", "Baker", "van der Meer", "Öberg"]):
        seasoned(1500 + 10 * rating, family_name=family)
    url = reverse("ratings:rating_list")
    expected = ["Álvarez", "Baker", "de Groot", "Öberg", "van der Meer", "Zimmermann"]
    assert names(client.get(url, {"sort": "name"})) == expected
    assert names(client.get(url, {"sort": "-name"})) == expected[::-1]
    past = client.get(url, {"sort": "name", "date": days_ago(1).isoformat()})  # a list sorted whole, not by index
    assert names(past) == expected
    api = client.get(reverse("api-v1:players")).json()
    assert [p["family_name"] for p in api["results"]] == expected


def test_rating_list_name_search_ignores_accents_and_case(client: Client) -> None:
    seasoned(1500, family_name="Åberg", given_name="Nils")
    seasoned(1400, family_name="Wiethölter", given_name="Frederik")
    seasoned(1300, family_name="Müller", given_name="Jürgen")
    url = reverse("ratings:rating_list")
    assert names(client.get(url, {"q": "aberg"})) == ["Åberg"]
    assert names(client.get(url, {"q": "ÅBERG nils"})) == ["Åberg"]
    assert names(client.get(url, {"q": "nils aberg"})) == ["Åberg"]
    assert names(client.get(url, {"q": "holter"})) == ["Wiethölter"]
    assert names(client.get(url, {"q": "jurgen"})) == ["Müller"]
    assert names(client.get(url, {"q": "nobody"})) == []


def test_a_name_is_found_as_lists_write_it_family_name_comma_given_name(client: Client) -> None:
    seasoned(1500, family_name="Dekker", given_name="Ruben")
    seasoned(1400, family_name="Ruben", given_name="Dekkerson")
    url = reverse("ratings:rating_list")
    assert names(client.get(url, {"q": "DEKKER, Ruben"})) == ["Dekker", "Ruben"]  # the words, as without the comma
    assert names(client.get(url, {"q": "Dekker,Ruben"})) == names(client.get(url, {"q": "Dekker Ruben"}))
    search = client.get(reverse("ratings:search"), {"q": "DEKKER, Ruben"}).content.decode()
    assert "Ruben" in search and "No player" not in search


def test_rating_list_name_search_finds_players_written_without_save(client: Client) -> None:
    """bulk_create skips save(), so no search key: such rows are still found by their plain names."""
    player = seasoned(1500, family_name="Bulk")
    Player.objects.filter(pk=player.pk).update(search_name="")
    assert names(client.get(reverse("ratings:rating_list"), {"q": "bul"})) == ["Bulk"]


def test_rating_list_name_search_finds_a_federation_id(client: Client) -> None:
    player = seasoned(1500, family_name="Coded")
    seasoned(1400, family_name="Other")
    assert names(client.get(reverse("ratings:rating_list"), {"q": player.federation_id.lower()})) == ["Coded"]


def test_a_pending_climb_shows_its_top_grade_at_every_door(client: Client, rate: Callable[[Table], Table]) -> None:
    """A climb through 1 and 2 Dan waits for approval: the list, the player's grade card, the files and the API
    all give 2 Dan pending, the grade his history shows the climb reaching (not 1 Dan, its first step)."""
    player = seasoned(1650, family_name="Candidate", grade=20)
    table = make_table([player], date=days_ago(5))
    Promotion.objects.create(
        player=player, grade=22, table=table, game_number=50, route="upper_bound", rating=1810, status="pending"
    )
    Promotion.objects.create(
        player=player, grade=21, table=table, game_number=50, route="upper_bound", rating=1810, status="pending"
    )
    html = client.get(reverse("ratings:rating_list")).content.decode()
    assert '1 Kyu <span class="pending">(2 Dan pending)</span>' in html and "1 Dan pending" not in html
    page = client.get(reverse("ratings:player", args=[player.federation_id])).content.decode()
    assert "1 Kyu (2 Dan pending)" in page and "1 Dan pending" not in page
    row = next(csv.DictReader(io.StringIO(b"".join(client.get("/export.csv").streaming_content).decode("utf-8-sig"))))
    assert (row["grade"], row["grade_pending"]) == ("1 Kyu", "2 Dan")
    assert client.get(reverse("api-v1:player", args=[player.federation_id])).json()["pending_grade"] == 22


def test_rating_list_as_of_a_date_reads_the_history(client: Client, rated_round_robin: Callable[..., Table]) -> None:
    a, b, c = (
        seasoned(r, family_name=n, last_played=days_ago(400)) for r, n in ((1600, "A"), (1500, "B"), (1400, "C"))
    )
    first = rated_round_robin([c, b, a], days_ago(200))  # C beats everyone: the order turns over
    second = rated_round_robin([a, b, c], days_ago(100))
    url = reverse("ratings:rating_list")
    before = client.get(url, {"date": days_ago(300).isoformat()}).context["table"]
    assert [(r.record.family_name, r.record.rating) for r in before.paginated_rows] == [
        ("A", 1600),
        ("B", 1500),
        ("C", 1400),
    ]
    between = client.get(url, {"date": days_ago(150).isoformat()}).context["table"]
    after_first = {row.player.family_name: row.rating_after for row in RatingRow.objects.filter(table=first)}
    assert {r.record.family_name: r.record.rating for r in between.paginated_rows} == after_first
    now = client.get(url).context["table"]
    after_second = {row.player.family_name: row.rating_after for row in RatingRow.objects.filter(table=second)}
    assert {r.record.family_name: r.record.rating for r in now.paginated_rows} == after_second


def test_rating_list_as_of_a_date_drops_players_inactive_by_then(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    a, b = seasoned(1600, family_name="A"), seasoned(1500, family_name="B")
    seasoned(1550, family_name="Early", last_played=days_ago(1200))
    rated_round_robin([a, b], days_ago(10))
    url = reverse("ratings:rating_list")
    assert names(client.get(url, {"date": days_ago(1000).isoformat()})) == ["Early"]
    assert names(client.get(url, {"date": days_ago(5).isoformat()})) == ["A", "B"]
    assert names(client.get(url, {"date": days_ago(5).isoformat(), "active": "all"})) == ["A", "Early", "B"]


def test_rating_list_as_of_today_computed_from_history_equals_the_current_list(
    rated_round_robin: Callable[..., Table],
) -> None:
    players = [seasoned(1400 + 50 * i, grade=10 + i, last_played=days_ago(600)) for i in range(4)]
    newcomer = Player.objects.create(family_name="New", nationality="DE")
    rated_round_robin([*players, newcomer], days_ago(40))
    rated_round_robin(players[:3], days_ago(20))
    fields = ["pk", "list_rating", "list_games", "list_grade", "list_category", "list_last_played"]
    current = list(_current_list().filter(list_games__gt=0).order_by("pk").values_list(*fields))
    computed = list(_list_as_of(days_ago(0)).filter(list_games__gt=0).order_by("pk").values_list(*fields))
    assert computed == current
    assert len(current) == 5


def test_rating_list_of_an_official_date_has_its_own_address(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    a, b = seasoned(1600, family_name="A"), seasoned(1500, family_name="B")
    table = rated_round_robin([b, a], days_ago(10))
    response = client.get(reverse("ratings:rating_list_of", args=[table.date.isoformat()]))
    assert response.status_code == 200
    assert response.context["list_date"] == table.date
    assert table.date.isoformat() in response.content.decode()


@pytest.mark.parametrize("date", ["2024-13-01", "yesterday", "2024-1-5", "20240105", "1999-01-01"])
def test_rating_list_of_an_unknown_date_is_not_found(client: Client, date: str) -> None:
    response = client.get(reverse("ratings:rating_list_of", args=[date]))
    assert response.status_code == 404
    assert "Not found" in response.content.decode()


def test_rating_list_exports_csv_and_json_with_the_same_filters(client: Client) -> None:
    seasoned(1800, family_name="Éclair", given_name="Anne", nationality="FR", grade=20)
    seasoned(1700, family_name="Other", nationality="DE")
    seasoned(1600, family_name="Second", nationality="FR")
    json_response = client.get(reverse("ratings:rating_list_json"), {"country": "FR"})
    assert json_response.status_code == 200
    data = json.loads(json_response.content)
    assert [(p["rank"], p["country_rank"], p["family_name"], p["rating"]) for p in data["players"]] == [
        (1, 1, "Éclair", 1800),
        (3, 2, "Second", 1600),
    ]
    assert data["players"][0]["grade"] == "1 Kyu" and data["players"][0]["nationality"] == "FR"
    csv_response = client.get(reverse("ratings:rating_list_csv"), {"country": "FR", "q": "eclair"})
    assert csv_response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(csv_response.streaming_content).decode())))
    assert [(r["rank"], r["country_rank"], r["family_name"], r["given_name"], r["rating"]) for r in rows] == [
        ("1", "1", "Éclair", "Anne", "1800")
    ]


def test_rating_list_page_links_to_exports_that_keep_the_filters(client: Client) -> None:
    seasoned(1800)
    html = client.get(reverse("ratings:rating_list"), {"country": "FR", "page": "2", "sort": "name"}).content.decode()
    assert 'href="/export.csv?country=FR"' in html
    assert 'href="/export.json?country=FR"' in html


def test_rating_list_selector_without_date_is_todays() -> None:
    seasoned(1800, family_name="Now")
    assert [p.family_name for p in rating_list()] == ["Now"]
    assert [p.family_name for p in rating_list(date=days_ago(0))] == ["Now"]


def test_rating_list_of_a_past_date_shows_dan_grades_as_approved_by_then(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    """A 1 Dan found at a table and approved later: pending on the lists in between, 1 Dan after approval."""
    candidate = seasoned(1700, family_name="Candidate", grade=20, last_played=days_ago(400))
    table = rated_round_robin([candidate, seasoned(1000, grade=26, last_played=days_ago(400))], days_ago(100))
    approval = timezone.make_aware(dt.datetime.combine(days_ago(50), dt.time(12)))
    Promotion.objects.create(
        player=candidate,
        grade=21,
        table=table,
        game_number=41,
        route="upper_bound",
        rating=1700,
        status="approved",
        decided_at=approval,
    )

    def grade_of(date: dt.date) -> tuple[int, int | None]:
        table = client.get(reverse("ratings:rating_list"), {"date": date.isoformat(), "q": "candidate"}).context[
            "table"
        ]
        (row,) = table.paginated_rows
        return row.record.grade, row.record.pending_grade

    assert grade_of(days_ago(120)) == (20, None)  # before the table: nothing found yet
    assert grade_of(days_ago(70)) == (20, 21)  # found, not yet approved: 1 Kyu (1 Dan pending)
    assert grade_of(days_ago(50)) == (21, None)  # approved that day


def test_rating_list_ranks_only_players_whose_rating_rests_on_enough_games(client: Client) -> None:
    """docs/rules.md §8: a newcomer rated by performance over two games has no rank, and is shown only under the
    category filter; the ranks below him close up. all.txt still numbers every line."""
    seasoned(2000, family_name="Old", nationality="DE")
    seasoned(2300, family_name="Newcomer", nationality="DE", result_list=((2100, 1.0), (2000, 1.0)))
    seasoned(1900, family_name="Young", games=10, nationality="DE")
    url = reverse("ratings:rating_list")
    response = client.get(url)
    rows = [r.record for r in response.context["table"].paginated_rows]
    assert [(r.family_name, r.rank, r.country_rank) for r in rows] == [("Old", 1, 1), ("Young", 2, 2)]
    assert response.context["unranked"] == 1
    assert "category=unrated" in response.content.decode()
    unrated = client.get(url, {"category": "unrated"})
    rows = [r.record for r in unrated.context["table"].paginated_rows]
    assert [(r.family_name, r.rank) for r in rows] == [("Newcomer", None)]
    assert '<td class="num">–</td>' in unrated.content.decode()
    assert [(r.family_name, r.position) for r in rating_list()] == [("Newcomer", 1), ("Old", 2), ("Young", 3)]
    searched = client.get(url, {"q": "newcomer"})  # the default list ranks him not: it says where he is
    assert not searched.context["table"].paginated_rows.data
    assert "No ranked player matches, but 1 unrated player does" in searched.content.decode()
    assert "q=newcomer&amp;category=unrated" in searched.content.decode()


def test_the_rerate_task_writes_todays_lists_before_the_first_visitor(
    django_capture_on_commit_callbacks: Callable[..., object],
) -> None:
    players = [make_player() for _ in range(4)]
    table = make_table(players, date=days_ago(3))
    round_robin(table, players)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[attr-defined]
        submit(table)
    today, version = timezone.localdate(), data_version()
    for active in (True, False):
        stored = StoredList.objects.get(kind="computed", date=today, active=active, version=version.key)
        assert sorted(stored.entries.values_list("player_id", flat=True)) == sorted(p.pk for p in players)
        assert list_stored(today, active=active, version=version) == stored  # read, not made again
