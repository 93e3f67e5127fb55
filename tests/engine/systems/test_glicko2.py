"""Glicko-2 from Glickman's paper: its worked example, the idle widening, the prediction
(ratings/engine/systems/glicko2.py)."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from ratings.engine.systems.base import PairGame
from ratings.engine.systems.glicko2 import START_DEVIATION, Glicko2, from_rating, idle, update


def test_the_papers_example():
    # A player at 1500 (RD 200, volatility 0.06) beats 1400 (RD 30), loses to 1550 (RD 100) and to 1700 (RD 300):
    # the paper's mu' −0.2069 (1464.06), phi' 0.8722 (RD 151.52), sigma' 0.05999.
    player = from_rating(1500, 200)
    opponents = [(from_rating(1400, 30), 1.0), (from_rating(1550, 100), 0.0), (from_rating(1700, 300), 0.0)]
    after = update(player, opponents)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.sigma == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_widens_the_deviation():
    player = from_rating(1500, 50)
    assert update(player, []).phi == pytest.approx(math.sqrt(player.phi**2 + 0.06**2))
    assert idle(player, 3).phi == pytest.approx(math.sqrt(player.phi**2 + 3 * 0.06**2))
    assert idle(player, 10_000).deviation == pytest.approx(START_DEVIATION)


def test_the_system_widens_once_per_30_days_idle():
    system = Glicko2()
    system.begin(dt.date(2020, 1, 1))
    system.rate([PairGame(1, "a", "b", 1.0)])
    after = system.players["a"]
    system.begin(dt.date(2020, 1, 30))
    assert system._now("a") == after
    system.begin(dt.date(2020, 1, 31))
    assert system._now("a").phi > after.phi


def test_equal_players_are_even_and_a_winner_is_favoured_after():
    system = Glicko2()
    system.begin(dt.date(2020, 1, 1))
    assert system.expected("a", "b") == 0.5
    system.rate([PairGame(1, "a", "b", 1.0), PairGame(2, "b", "a", 0.5)])
    assert system.expected("a", "b") > 0.5
    assert system.expected("a", "b") + system.expected("b", "a") == pytest.approx(1.0)


def test_handicap_games_are_not_rated():
    system = Glicko2()
    system.begin(dt.date(2020, 1, 1))
    system.rate([PairGame(1, "a", "b", 1.0, handicap=True)])
    assert system.players == {}
