"""The rating calculator: the plan is rated as one table by the engine, and shown game by game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ratings import engine
from ratings.engine.grades import grade_label
from ratings.models import Player, Table
from ratings.selectors.calculator import PlannedGame, calculate, current_states, state_of_rating
from tests.factories import make_player
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def plan(start: dict[str, Any], *games: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {"form-TOTAL_FORMS": "10", "form-INITIAL_FORMS": "0", **start}
    for i, game in enumerate(games):
        data.update({f"form-{i}-{k}": v for k, v in {"result": "1", **game}.items()})
    return data


def test_calculation_is_the_engines_rating_of_the_same_table() -> None:
    start = state_of_rating(1600, 40)
    games = [PlannedGame(score=1.0, opponent_rating=1700), PlannedGame(score=0.5, opponent_rating=1500)]
    result = calculate(start=start, games=games, opponents={})
    table = engine.rate_table(
        engine.TableInput(
            name="same",
            date=result.outcome.after.last_played,
            players=["me", "a", "b"],
            states={
                "me": start,
                "a": engine.PlayerState(rating=1700, result_list=None, game_count=100, bonus_count=100),
                "b": engine.PlayerState(rating=1500, result_list=None, game_count=100, bonus_count=100),
            },
            games=[engine.Game(1, "me", "a", 1.0), engine.Game(2, "me", "b", 0.5)],
        )
    )
    assert result.outcome.change == table.by_key()["me"].change
    assert result.new_rating == table.by_key()["me"].rating_after
    assert [g.expected for _, g in result.games] == [g.expected for g in table.by_key()["me"].games]


def test_a_player_starts_from_his_current_state(rated_round_robin: Callable[..., Table]) -> None:
    me, other = seasoned(1600, family_name="Me"), seasoned(1500, family_name="Other")
    rated_round_robin([me, other], days_ago(20))
    states = current_states([me, other])
    me.refresh_from_db()
    assert states[me.pk].rating == me.rating and states[me.pk].games == me.games


def test_calculator_page_explains_each_game(client: Client) -> None:
    opponent = seasoned(1700, family_name="Rival")
    response = client.get(
        reverse("ratings:calculator"),
        plan(
            {"rating": "1600", "games": "40"},
            {"opponent": opponent.federation_id.lower(), "result": "1"},
            {"opponent_rating": "1500", "result": "0", "handicap": "L", "side": "given"},
        ),
    )
    assert response.status_code == 200, response.context.get("problems")
    calculation = response.context["calculation"]
    assert [g.round for _, g in calculation.games] == [1, 2]
    assert calculation.games[1][1].handicap_given
    html = response.content.decode()
    assert "RIVAL" in html and "a player of 1500" in html and "gave L" in html
    assert f"{calculation.new_rating}" in html
    assert calculation.outcome.games[0].k is not None
    outlook = calculation.next_grade  # from the state the table leaves: the way to the grade after his
    assert outlook.grade == calculation.outcome.after.grade + 1
    assert f"Next grade: {grade_label(outlook.grade)}." in html and f"{outlook.at_once.rating} or more" in html


def test_calculator_from_a_players_page_fills_him_in(client: Client) -> None:
    me = seasoned(1600)
    response = client.get(reverse("ratings:calculator"), {"player": me.federation_id})
    assert response.status_code == 200
    assert f'value="{me.federation_id}"' in response.content.decode()
    assert "calculation" not in response.context
    assert (
        reverse("ratings:calculator") in client.get(reverse("ratings:player", args=[me.federation_id])).content.decode()
    )


def test_a_newcomer_is_rated_by_performance(client: Client) -> None:
    response = client.get(reverse("ratings:calculator"), plan({"games": "0"}, {"opponent_rating": "1500"}))
    assert response.status_code == 200
    assert response.context["calculation"].outcome.method == "performance"
    assert "Rated by performance" in response.content.decode() and "docs/" not in response.content.decode()


@pytest.mark.parametrize(
    ("start", "game", "message"),
    [
        ({}, {"opponent_rating": "1500"}, "Pick a player, or give a rating"),
        ({"rating": "1500", "games": "4"}, {"opponent_rating": "1500"}, "fewer than 9 games"),
        ({"player": "NOBODY12"}, {"opponent_rating": "1500"}, "No player has the name or federation id “NOBODY12”"),
        (
            {"rating": "1500", "games": "40"},
            {"opponent": "NOBODY12"},
            "No player has the name or federation id “NOBODY12”",
        ),
        ({"rating": "1500", "games": "40"}, {"result": "1"}, "Give at least one opponent"),
        ({"rating": "abc", "games": "40"}, {"opponent_rating": "1500"}, "Enter a whole number"),
    ],
)
def test_calculator_refuses_bad_plans_with_a_message(
    client: Client, start: dict[str, str], game: dict[str, str], message: str
) -> None:
    response = client.get(reverse("ratings:calculator"), plan(start, game))
    assert response.status_code == 400
    assert message in response.content.decode()


def test_calculator_refuses_a_game_against_oneself(client: Client) -> None:
    me: Player = make_player("Me")
    response = client.get(
        reverse("ratings:calculator"), plan({"player": me.federation_id}, {"opponent": me.federation_id})
    )
    assert response.status_code == 400
    assert "cannot play against himself" in response.content.decode()


def test_calculator_takes_players_by_name_as_the_search_does(client: Client) -> None:
    dekker = seasoned(1800, family_name="Dekker", given_name="Jan")
    seasoned(1600, family_name="Zieliński", given_name="Tomasz")
    response = client.get(reverse("ratings:calculator"), plan({"player": "dekker"}, {"opponent": "zielinski"}))
    assert response.status_code == 200
    assert response.context["calculation"].start.rating == dekker.rating


def test_calculator_names_the_players_a_name_could_mean(client: Client) -> None:
    seasoned(1800, family_name="Dekker", given_name="Jan")
    seasoned(1700, family_name="Dekker", given_name="Eva")
    response = client.get(
        reverse("ratings:calculator"), plan({"rating": "1500", "games": "40"}, {"opponent": "dekker"})
    )
    assert response.status_code == 400
    [problem] = response.context["problems"]
    assert "Dekker Jan" in problem and "Dekker Eva" in problem
    unknown = client.get(reverse("ratings:calculator"), plan({"rating": "1500", "games": "40"}, {"opponent": "nobody"}))
    assert unknown.context["problems"] == ["No player has the name or federation id “NOBODY”."]


def test_calculator_inputs_say_which_game_they_belong_to(client: Client) -> None:
    html = client.get(reverse("ratings:calculator")).content.decode()
    assert 'aria-label="Result, game 10"' in html
