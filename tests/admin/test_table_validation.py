"""Entering a table in the admin: every validation rule, shown with its round and players, and nothing half-saved."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Game, GameResult, Player, RatingRow, Table, TableEntry, TableStatus
from tests.admin.helpers import delete_row, errors_of, post_page, set_row
from tests.factories import (
    add_game,
    make_player,
    make_rating_officer,
    make_table,
    make_tournament,
)

pytestmark = pytest.mark.django_db

DAY = dt.date(2024, 5, 12)


@pytest.fixture
def four() -> list[Player]:
    return [
        make_player("Abe", "Ken"),
        make_player("Berg", "Lena"),
        make_player("Cruz", "Marta"),
        make_player("Dahl", "Nils"),
    ]


def add_url(tournament_id: int) -> str:
    return reverse("admin:ratings_table_add") + f"?tournament={tournament_id}"


def change_url(table: Table) -> str:
    return reverse("admin:ratings_table_change", args=[table.pk])


def fill(data: dict[str, Any], players: list[Player], games: list[dict[str, Any]]) -> None:
    for i, player in enumerate(players):
        set_row(data, "entries", i, player=player, seat=i + 1)
    for i, game in enumerate(games):
        set_row(data, "games", i, **{"result": GameResult.FIRST_WON, "played": True, **game})


def post_new_table(client: Client, director: Any, players: list[Player], games: list[dict[str, Any]]) -> Any:
    tournament = make_tournament(directors=[director])
    _page, response = post_page(client, add_url(tournament.pk), lambda data: fill(data, players, games))
    return response


def assert_refused(response: Any, *expected: str) -> list[str]:
    """The form came back (status 200, not a redirect) with each expected text in one of its errors."""
    assert response.status_code == 200
    errors = errors_of(response)
    for text in expected:
        assert any(text in error for error in errors), (text, errors)
    return errors


def test_table_add_saves_players_and_games_when_valid(client: Client, director: Any, four: list[Player]) -> None:
    a, b, c, d = four
    games = [
        {"round": 1, "first": a, "second": b},
        {"round": 1, "first": c, "second": d, "result": GameResult.DRAW},
        {"round": 2, "first": a, "second": c, "handicap": "B", "handicap_giver": "first"},
        {"round": 2, "first": b, "second": None, "result": GameResult.BYE},
        {"round": 2, "first": d, "second": None, "result": GameResult.ABSENT},
    ]
    response = post_new_table(client, director, four, games)
    assert response.status_code == 302, errors_of(response)
    table = Table.objects.get()
    assert table.status == TableStatus.DRAFT
    assert table.sequence == 1  # left empty: the first number of the day
    assert list(table.entries.order_by("seat").values_list("player_id", flat=True)) == [p.pk for p in four]
    saved = {(g.round, g.first_id): g for g in table.games.all()}
    assert len(saved) == 5
    assert saved[(1, c.pk)].result == GameResult.DRAW
    assert saved[(2, a.pk)].handicap == "B" and saved[(2, a.pk)].handicap_giver == "first"
    assert saved[(2, b.pk)].second_id is None and saved[(2, b.pk)].result == GameResult.BYE


def test_table_player_twice_in_a_round_is_refused_naming_round_and_player(
    client: Client, director: Any, four: list[Player]
) -> None:
    a, b, c, _d = four
    games = [{"round": 3, "first": a, "second": b}, {"round": 3, "first": c, "second": a}]
    response = post_new_table(client, director, four, games)
    assert_refused(response, "Round 3: Abe Ken appears twice in the round.")
    assert not Table.objects.exists()


def test_table_game_against_oneself_is_refused_naming_round_and_player(
    client: Client, director: Any, four: list[Player]
) -> None:
    a = four[0]
    response = post_new_table(client, director, four, [{"round": 2, "first": a, "second": a}])
    assert_refused(response, "Round 2", "Abe Ken", "cannot play against himself")
    assert not Table.objects.exists()


def test_table_missing_result_is_refused_naming_round_and_players(
    client: Client, director: Any, four: list[Player]
) -> None:
    a, b = four[:2]
    response = post_new_table(client, director, four, [{"round": 1, "first": a, "second": b, "result": ""}])
    assert_refused(response, "Round 1, Abe Ken – Berg Lena: the result is missing.")
    assert not Table.objects.exists()


def test_table_win_without_opponent_is_refused(client: Client, director: Any, four: list[Player]) -> None:
    a = four[0]
    response = post_new_table(client, director, four, [{"round": 1, "first": a, "second": None}])
    assert_refused(response, "Round 1, Abe Ken: without an opponent the result must be a bye")


def test_table_unknown_handicap_code_is_refused_naming_round_and_players(
    client: Client, director: Any, four: list[Player]
) -> None:
    a, b = four[:2]
    game = {"round": 4, "first": a, "second": b, "handicap": "Q", "handicap_giver": "first"}
    response = post_new_table(client, director, four, [game])
    assert_refused(response, "Round 4, Abe Ken – Berg Lena: unknown handicap code “Q”")
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("handicap", "giver"),
    [("R", ""), ("", "second")],
    ids=["code-without-giver", "giver-without-code"],
)
def test_table_handicap_on_one_side_only_is_refused(
    client: Client, director: Any, four: list[Player], handicap: str, giver: str
) -> None:
    a, b = four[:2]
    game = {"round": 1, "first": a, "second": b, "handicap": handicap, "handicap_giver": giver}
    response = post_new_table(client, director, four, [game])
    assert_refused(response, "Round 1, Abe Ken – Berg Lena: a handicap needs both its code and who gave it.")
    assert not Game.objects.exists()


def test_table_handicap_on_a_bye_is_refused(client: Client, director: Any, four: list[Player]) -> None:
    game = {"round": 1, "first": four[0], "second": None, "result": GameResult.BYE, "handicap": "L"}
    game["handicap_giver"] = "first"
    response = post_new_table(client, director, four, [game])
    assert_refused(response, "Round 1, Abe Ken: a handicap needs an opponent.")


def test_table_player_not_entered_is_refused(client: Client, director: Any, four: list[Player]) -> None:
    stranger = make_player("Eklund", "Olle")
    response = post_new_table(client, director, four, [{"round": 1, "first": four[0], "second": stranger}])
    assert_refused(response, "Round 1: Eklund Olle plays but is not entered in the table.")


def test_table_player_entered_twice_is_refused(client: Client, director: Any, four: list[Player]) -> None:
    a, b = four[:2]
    response = post_new_table(client, director, [a, b, a], [{"round": 1, "first": a, "second": b}])
    assert_refused(response, "Abe Ken is entered twice (numbers 1 and 3).")
    assert not TableEntry.objects.exists()


def test_table_number_given_twice_is_refused(client: Client, director: Any, four: list[Player]) -> None:
    tournament = make_tournament(directors=[director])

    def change(data: dict[str, Any]) -> None:
        fill(data, four[:2], [{"round": 1, "first": four[0], "second": four[1]}])
        set_row(data, "entries", 1, seat=1)

    _page, response = post_page(client, add_url(tournament.pk), change)
    assert_refused(response, "Number 1 is given to both Abe Ken and Berg Lena.")


def test_table_empty_numbers_follow_the_highest_given(client: Client, director: Any, four: list[Player]) -> None:
    tournament = make_tournament(directors=[director])

    def change(data: dict[str, Any]) -> None:
        fill(data, four, [{"round": 1, "first": four[0], "second": four[1]}])
        set_row(data, "entries", 0, seat=5)
        set_row(data, "entries", 1, seat=None)
        set_row(data, "entries", 3, seat=None)

    _page, response = post_page(client, add_url(tournament.pk), change)
    assert response.status_code == 302, errors_of(response)
    seats = dict(TableEntry.objects.values_list("player__family_name", "seat"))
    assert seats == {"Abe": 5, "Berg": 6, "Cruz": 3, "Dahl": 7}


def rated_history(player: Player, opponent: Player, date: dt.date) -> Table:
    """A rated table of another tournament on ``date`` in which ``player`` played, with its rating rows."""
    from ratings.services.rerate import rerate_from

    table = make_table([player, opponent], date=date, status=TableStatus.SUBMITTED)
    add_game(table, 1, player, opponent)
    rerate_from(date=None)
    table.refresh_from_db()
    assert table.status == TableStatus.RATED and RatingRow.objects.filter(table=table).count() == 2
    return table


def test_table_dated_before_a_players_last_rated_table_is_refused_for_a_director(
    client: Client, director: Any, four: list[Player]
) -> None:
    a, b = four[:2]
    rated_history(a, make_player("Falk", "Per"), dt.date(2024, 6, 1))
    response = post_new_table(client, director, four, [{"round": 1, "first": a, "second": b}])
    expected = "Abe Ken: the table's date 2024-05-12 is before his last rated table (2024-06-01)"
    errors = assert_refused(response, expected)
    assert any("Only a rating officer" in e for e in errors)
    assert not Table.objects.filter(date=DAY).exists()


def test_table_dated_before_a_players_last_rated_table_is_accepted_from_a_rating_officer(
    client: Client, four: list[Player]
) -> None:
    officer = make_rating_officer()
    client.force_login(officer)
    a, b = four[:2]
    rated_history(a, make_player("Falk", "Per"), dt.date(2024, 6, 1))
    response = post_new_table(client, officer, four, [{"round": 1, "first": a, "second": b}])
    assert response.status_code == 302, errors_of(response)
    assert Table.objects.filter(date=DAY).exists()


def test_table_of_a_director_comes_after_the_other_tables_of_its_day(
    client: Client, director: Any, four: list[Player]
) -> None:
    other = make_table([make_player()], tournament=make_tournament("Other Open"), date=DAY, sequence=1)
    tournament = make_tournament(directors=[director])

    def change(data: dict[str, Any]) -> None:
        assert "sequence" not in data  # the order of a day's tables is the rating officers' to set
        fill(data, four[:2], [{"round": 1, "first": four[0], "second": four[1]}])

    _page, response = post_page(client, add_url(tournament.pk), change)
    assert response.status_code == 302, errors_of(response)
    assert Table.objects.exclude(pk=other.pk).get().sequence == 2


def test_table_taken_sequence_is_refused(client: Client, four: list[Player]) -> None:
    officer = make_rating_officer()
    client.force_login(officer)
    make_table([make_player()], tournament=make_tournament("Other Open"), date=DAY, sequence=1)
    tournament = make_tournament()

    def change(data: dict[str, Any]) -> None:
        fill(data, four[:2], [{"round": 1, "first": four[0], "second": four[1]}])
        data["sequence"] = "1"

    _page, response = post_page(client, add_url(tournament.pk), change)
    assert_refused(response, "Another table of 2024-05-12 has the number 1")


def test_table_refused_change_leaves_the_saved_table_as_it_was(
    client: Client, director: Any, four: list[Player]
) -> None:
    a, b, c, _d = four
    table = make_table(four, tournament=make_tournament(directors=[director]), date=DAY)
    add_game(table, 1, a, b)

    def change(data: dict[str, Any]) -> None:
        data["date"] = "2024-05-19"
        set_row(data, "entries", 3, player=make_player("Eklund", "Olle"), seat=5)
        set_row(data, "games", 0, result=GameResult.DRAW)
        set_row(data, "games", 1, round=1, first=c, second=c, result=GameResult.FIRST_WON, played=True)

    _page, response = post_page(client, change_url(table), change)
    assert_refused(response, "Round 1: Cruz Marta", "cannot play against himself.")
    table.refresh_from_db()
    assert table.date == DAY
    assert table.entries.count() == 4
    assert list(table.games.values_list("result", flat=True)) == [GameResult.FIRST_WON]


def test_table_players_can_swap_numbers_and_opponents_in_one_save(
    client: Client, director: Any, four: list[Player]
) -> None:
    a, b, c, d = four
    table = make_table(four, tournament=make_tournament(directors=[director]), date=DAY)
    add_game(table, 1, a, b)
    add_game(table, 1, c, d)

    def change(data: dict[str, Any]) -> None:
        # Abe and Berg trade numbers; the round-1 pairings become Cruz-Berg and Abe-Dahl.
        set_row(data, "entries", 0, seat=2)
        set_row(data, "entries", 1, seat=1)
        set_row(data, "games", 0, first=c)
        set_row(data, "games", 1, first=a)

    _page, response = post_page(client, change_url(table), change)
    assert response.status_code == 302, errors_of(response)
    assert dict(table.entries.values_list("player_id", "seat")) == {a.pk: 2, b.pk: 1, c.pk: 3, d.pk: 4}
    assert set(table.games.values_list("first_id", "second_id")) == {(c.pk, b.pk), (a.pk, d.pk)}


def test_table_deleted_game_and_player_are_removed(client: Client, director: Any, four: list[Player]) -> None:
    a, b, c, d = four
    table = make_table(four, tournament=make_tournament(directors=[director]), date=DAY)
    add_game(table, 1, a, b)
    add_game(table, 1, c, d)

    def change(data: dict[str, Any]) -> None:
        delete_row(data, "games", 1)
        delete_row(data, "entries", 3)

    _page, response = post_page(client, change_url(table), change)
    # Dahl is gone from the entries but still plays in the game deleted with him: nothing left to complain about.
    assert response.status_code == 302, errors_of(response)
    assert table.games.count() == 1 and table.entries.count() == 3
