"""Categories (R3; docs/rules.md §6, §7): unrated while on a result list, provisional, established from 18 games."""

from __future__ import annotations

import pytest

from ratings.engine import PlayerState
from ratings.engine.categories import (
    CATEGORIES,
    ESTABLISHED,
    ESTABLISHED_FROM,
    PROVISIONAL,
    PROVISIONAL_FROM,
    UNRATED,
    category_of,
    category_of_games,
)


def test_the_thresholds() -> None:
    assert (PROVISIONAL_FROM, ESTABLISHED_FROM) == (9, 18)
    assert CATEGORIES == ("unrated", "provisional", "established")


@pytest.mark.parametrize(
    ("state", "category"),
    [
        (PlayerState(), UNRATED),
        (PlayerState(rating=1500, result_list=tuple((1500, 1.0) for _ in range(30))), UNRATED),
        (PlayerState(rating=1500, result_list=None, game_count=9), PROVISIONAL),
        (PlayerState(rating=1500, result_list=None, game_count=17), PROVISIONAL),
        (PlayerState(rating=1500, result_list=None, game_count=18), ESTABLISHED),
        (PlayerState(rating=1500, result_list=None, game_count=400), ESTABLISHED),
    ],
)
def test_category_of_a_state(state: PlayerState, category: str) -> None:
    assert category_of(state) == category


@pytest.mark.parametrize("games", [0, 5, 17, 18, 40])
def test_a_player_on_a_result_list_is_unrated_whatever_his_games(games: int) -> None:
    assert category_of_games(games, on_result_list=True) == UNRATED


def test_the_established_threshold_is_the_18th_game() -> None:
    assert category_of_games(ESTABLISHED_FROM - 1, on_result_list=False) == PROVISIONAL
    assert category_of_games(ESTABLISHED_FROM, on_result_list=False) == ESTABLISHED
