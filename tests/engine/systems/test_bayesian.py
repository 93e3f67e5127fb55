"""The Bayesian system (openskill's Weng-Lin Plackett-Luce) as the comparison drives it."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine.systems.base import PairGame
from ratings.engine.systems.bayesian import Bayesian


def test_newcomers_are_even_and_a_win_moves_the_belief():
    system = Bayesian()
    system.begin(dt.date(2020, 1, 1))
    assert system.expected("a", "b") == pytest.approx(0.5)
    system.rate([PairGame(1, "a", "b", 1.0)])
    mu_a, sigma_a = system.values["a"]
    mu_b, _ = system.values["b"]
    assert mu_a > 25 > mu_b
    assert sigma_a < 25 / 3  # a game makes the system surer
    assert system.expected("a", "b") > 0.5


def test_a_draw_between_equals_leaves_the_means():
    system = Bayesian()
    system.rate([PairGame(1, "a", "b", 0.5)])
    assert system.values["a"][0] == pytest.approx(25.0)
    assert system.expected("a", "b") == pytest.approx(0.5)


def test_handicap_games_are_not_rated():
    system = Bayesian()
    system.rate([PairGame(1, "a", "b", 1.0, handicap=True)])
    assert system.values == {}
