"""The European system of 1996 (seed 002): K bands at their edges, the half-year periods, V for a loss, the
boost (ratings/engine/systems/european.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine.systems.base import PairGame, logistic
from ratings.engine.systems.european import FIDE_DP, European1996, k_factor, performance_bonus


@pytest.mark.parametrize(
    ("rating", "k"),
    [
        (3000, 16),
        (2400, 16),
        (2399, 17),
        (2350, 17),
        (2349, 18),
        (2300, 18),
        (2099, 23),
        (2050, 23),
        (2049, 24),
        (2000, 24),
        (1750, 29),
        (1749, 30),
        (1700, 30),
        (1699, 31),
        (1650, 31),
        (1649, 32),
        (1000, 32),
        (1649.9, 32),
        (2399.9, 17),
    ],
)
def test_k_by_band_at_the_edges(rating, k):
    assert k_factor(rating) == k


def test_the_fide_table_runs_from_0_at_half_to_800_at_all():
    assert len(FIDE_DP) == 51
    assert (FIDE_DP[0], FIDE_DP[25], FIDE_DP[50]) == (0, 193, 800)
    assert list(FIDE_DP) == sorted(FIDE_DP)
    assert performance_bonus(0.25) == -193
    assert performance_bonus(10 / 14) == 158  # 0.714 → 71 %


def _system(**ratings: int) -> European1996:
    system = European1996()
    system.ratings.update(ratings)
    return system


def test_ratings_stay_fixed_within_a_period_and_move_at_its_close():
    system = _system()
    system.begin(dt.date(2020, 3, 1))
    system.rate([PairGame(1, "a", "b", 1.0), PairGame(2, "a", "b", 1.0)])
    system.begin(dt.date(2020, 6, 30))  # the same half-year: nothing moved
    assert system.expected("a", "b") == 0.5
    system.begin(dt.date(2020, 7, 1))  # the next: 1500 ± 2 × 32 × (1 − 0.5)
    assert (system.rating("a"), system.rating("b")) == (1532, 1468)
    assert system.expected("a", "b") == pytest.approx(logistic(64))


def test_the_year_end_closes_a_period_too():
    system = _system()
    system.begin(dt.date(2020, 12, 31))
    system.rate([PairGame(1, "a", "b", 0.5)])
    system.begin(dt.date(2021, 1, 1))
    assert system.period == (2021, 0)
    assert system.rating("a") == 1500


def test_a_loss_scores_0_not_the_seeds_minus_1():
    # b at 1500 loses to a at 1500: 32 × (0 − 0.5) = −16, not 32 × (−1 − 0.5) = −48.
    system = _system()
    system.begin(dt.date(2020, 1, 10))
    system.rate([PairGame(1, "a", "b", 1.0)])
    system.begin(dt.date(2020, 7, 10))
    assert system.rating("b") == 1484


def test_k_is_read_from_the_rating_at_the_periods_start():
    # a at 1649 (K 32) beats b at 1649 twice: 1649 + 2 × 32 × 0.5 = 1681, though 1665 after the first is K 31.
    system = _system(a=1649, b=1649)
    system.begin(dt.date(2020, 1, 10))
    system.rate([PairGame(1, "a", "b", 1.0), PairGame(2, "a", "b", 1.0)])
    system.begin(dt.date(2020, 7, 10))
    assert system.rating("a") == 1681


def test_a_player_who_improved_fast_gets_his_performance():
    # x at 1500 scores 10/14 against y at 1700: E = 1/(1 + 10^(200/400)) = 0.240253; the formula gives
    # 1500 + 32 × (10 − 14 × 0.240253) = 1712.37 → 1712; the performance 1700 + dp(71 %) = 1700 + 158 = 1858
    # is more than 50 above, so x gets 1858.
    system = _system(x=1500, y=1700)
    system.begin(dt.date(2020, 2, 1))
    system.rate([PairGame(r, "x", "y", 1.0 if r <= 10 else 0.0) for r in range(1, 15)])
    system.begin(dt.date(2020, 8, 1))
    assert system.rating("x") == 1858
    assert "x" in system.boosted


def test_no_boost_without_14_games_or_within_50_points():
    # 13 wins in 13 games against y at 1700: formula 1500 + 32 × 13 × 0.759747 = 1816.06 → 1816, no boost.
    few = _system(x=1500, y=1700)
    few.begin(dt.date(2020, 2, 1))
    few.rate([PairGame(r, "x", "y", 1.0) for r in range(1, 14)])
    few.begin(dt.date(2020, 8, 1))
    assert few.rating("x") == 1816
    # 7/14 against an equal: formula 1500, performance 1500 + 0: no boost.
    even = _system(x=1500, y=1500)
    even.begin(dt.date(2020, 2, 1))
    even.rate([PairGame(r, "x", "y", 1.0 if r % 2 else 0.0) for r in range(1, 15)])
    even.begin(dt.date(2020, 8, 1))
    assert even.rating("x") == 1500
    assert even.boosted == set()


def test_handicap_games_do_not_count():
    system = _system()
    system.begin(dt.date(2020, 1, 10))
    system.rate([PairGame(1, "a", "b", 1.0, handicap=True)])
    system.begin(dt.date(2020, 7, 10))
    assert system.rating("a") == 1500
    assert system.changes == {}
