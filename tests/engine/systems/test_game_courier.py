"""Game Courier Ratings (seed 004): the zig-zag order, the expectation, and a three-player set worked by hand
(ratings/engine/systems/game_courier.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine.systems.base import PairGame
from ratings.engine.systems.game_courier import (
    GameCourier,
    Tally,
    expected_share,
    game_courier_from_games,
    game_courier_ratings,
    game_courier_ratings_sparse,
    zigzag_pairs,
)


def test_zigzag_order_of_four_players():
    # Neighbours forwards, two apart backwards, three apart forwards.
    assert zigzag_pairs(4) == [(0, 1), (1, 2), (2, 3), (1, 3), (0, 2), (0, 3)]


@pytest.mark.parametrize(("difference", "share"), [(0, 0.5), (80, 0.6), (-80, 0.4), (400, 1.0), (-450, 0.0)])
def test_expected_share_is_difference_over_8_plus_50_percent(difference, share):
    assert expected_share(difference) == pytest.approx(share)


def test_order_by_games_then_wins_then_opponents():
    tally = Tally()
    for first, second, score in [("b", "a", 0.0), ("a", "b", 1.0), ("b", "c", 1.0), ("a", "c", 0.5)]:
        tally.add(first, second, score)
    # a and b 3 games each, a 2.5 wins to b's 1; c 2 games.
    assert tally.order() == ["a", "b", "c"]


def test_three_players_worked_by_hand():
    """a beat b twice, b beat c, a drew c. Order a, b, c; pairs a-b, b-c, a-c (reverse: a-c, b-c, a-b).

    Forward, all at 1500, no past games:
      a-b: n 2, actual 1, expected 0.5: 400 × 0.5 × 2/12 = 33.3333 → a 1533.3333, b 1466.6667 (past 2, 2).
      b-c: n 1, actual 1, diff −33.3333, expected 45.8333 %: 400 × 0.541667 / 11 = 19.69697;
           b + 19.69697 × (1 − 2/802) = 1486.3145, c − 19.69697 = 1480.3030 (past b 3, c 1).
      a-c: n 1, actual 0.5, diff 53.0303, expected 56.6288 %: 400 × (−0.066288) / 11 = −2.41047;
           a − 2.41047 × (1 − 2/802) = 1530.9289, c + 2.41047 × (1 − 1/801) = 1482.7105.
    Reverse:
      a-c: expected 0.5, actual 0.5: nothing moves (past a 1, c 1).
      b-c: 400 × 0.5 / 11 = 18.181818 → b 1518.1818, c − 18.181818 × (1 − 1/801) = 1481.8409 (past b 1, c 2).
      a-b: diff −18.1818, expected 47.7273 %: 400 × 0.522727 × 2/12 = 34.848485, × (1 − 1/801) = 34.80498
           → a 1534.8050, b 1483.3768.
    Averaged: a 1532.867, b 1484.846, c 1482.276.
    """
    games = [("a", "b", 1.0), ("b", "a", 0.0), ("b", "c", 1.0), ("c", "a", 0.5)]
    ratings = game_courier_from_games(games)
    assert ratings["a"] == pytest.approx(1532.867, abs=0.001)
    assert ratings["b"] == pytest.approx(1484.846, abs=0.001)
    assert ratings["c"] == pytest.approx(1482.276, abs=0.001)
    tally = Tally()
    for first, second, score in games:
        tally.add(first, second, score)
    assert game_courier_ratings_sparse(tally) == ratings  # the comparison's faster walk: the same floats


def test_the_sparse_walk_takes_the_same_order():
    tally = Tally()
    results = [(p, q, (p * 7 + q * 3) % 3 / 2) for p in range(9) for q in range(p + 1, 9) if (p + q) % 3]
    for p, q, score in results:
        tally.add(p, q, score)
    assert game_courier_ratings_sparse(tally) == pytest.approx(game_courier_ratings(tally))


def test_a_table_is_predicted_from_everything_before_it_only():
    courier = GameCourier()
    courier.begin(dt.date(2020, 1, 1))
    courier.rate([PairGame(1, "a", "b", 1.0)])
    courier.begin(dt.date(2020, 1, 1))  # a second table the same day sees the first
    assert courier.rating("a") > 1500
    before = courier.expected("a", "b")
    courier.rate([PairGame(1, "b", "a", 1.0)])
    assert courier.expected("a", "b") == before  # not rated again until the next table begins


def test_monthly_refresh_waits_for_the_next_month():
    courier = GameCourier(refresh="month")
    courier.begin(dt.date(2020, 1, 1))
    courier.rate([PairGame(1, "a", "b", 1.0)])
    courier.begin(dt.date(2020, 1, 20))
    assert courier.rating("a") == 1500
    courier.begin(dt.date(2020, 2, 1))
    assert courier.rating("a") > 1500


def test_handicap_games_count_like_even_ones():
    courier = GameCourier()
    courier.rate([PairGame(1, "a", "b", 1.0, handicap=True)])
    courier.begin(dt.date(2020, 1, 1))
    assert courier.rating("a") > 1500
