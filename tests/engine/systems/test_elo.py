"""Seed 003's Elo: its worked example and the choices the seed leaves open (ratings/engine/systems/elo.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine.systems.base import PairGame, round_half_up
from ratings.engine.systems.elo import Elo, expected_percent, new_rating

DAY = dt.date(2020, 3, 1)


def test_seed_example_expectations_are_52_and_48_percent():
    # 1/(1 + 10^(-11/400)) = 0.515824985 → 52 %; 1/(1 + 10^(11/400)) = 0.484175 → 48 %.
    assert expected_percent(1583, 1572) == 52
    assert expected_percent(1572, 1583) == 48


def test_seed_example_new_ratings_are_1590_and_1565():
    # 1583 + 15 × (1 − 0.52) = 1590.2 → 1590; 1572 + 15 × (0 − 0.48) = 1564.8 → 1565.
    assert new_rating(1583, 1572, 1.0) == 1590
    assert new_rating(1572, 1583, 0.0) == 1565


def test_a_draw_between_equals_changes_nothing():
    assert new_rating(1500, 1500, 0.5) == 1500


@pytest.mark.parametrize(("value", "rounded"), [(1590.5, 1591), (1590.49, 1590), (-7.5, -7), (1564.8, 1565)])
def test_a_half_rounds_upwards(value, rounded):
    assert round_half_up(value) == rounded


def test_the_expectation_reaches_0_and_100_percent_far_apart():
    # 1/(1 + 10^(-800/400)) = 0.990 → 99 %; at 1000 apart 0.9968 → 100 %.
    assert expected_percent(2300, 1500) == 99
    assert expected_percent(2500, 1500) == 100
    assert expected_percent(1500, 2500) == 0


def test_the_system_rates_the_seed_game_and_predicts_from_the_new_ratings():
    elo = Elo()
    elo.ratings.update({"a": 1583, "b": 1572})
    elo.begin(DAY)
    assert elo.expected("a", "b") == 0.52
    elo.rate([PairGame(1, "a", "b", 1.0)])
    assert (elo.rating("a"), elo.rating("b")) == (1590, 1565)


def test_games_of_a_table_are_rated_in_round_order_each_from_the_last():
    # Round 1: a (1500) beats b (1500): 1500 + 15 × 0.5 = 1507.5 → 1508, b 1492.5 → 1493.
    # Round 2: a (1508) draws c (1500): E = 51 %, 1508 + 15 × (0.5 − 0.51) = 1507.85 → 1508; c 1500.15 → 1500.
    elo = Elo()
    elo.rate([PairGame(2, "a", "c", 0.5), PairGame(1, "a", "b", 1.0)])
    assert (elo.rating("a"), elo.rating("b"), elo.rating("c")) == (1508, 1493, 1500)


def test_a_handicap_game_is_predicted_but_not_rated():
    elo = Elo()
    elo.rate([PairGame(1, "a", "b", 1.0, handicap=True)])
    assert elo.ratings == {}
    assert elo.expected("a", "b") == 0.5
