"""Plain Elo as seed 003 (shared/seeds/003_…, "How to calculate the ELO system of rating") computes it.

The seed: ``E_A = 1 / (1 + 10^((R_B − R_A)/400))`` shown as a whole percent (0.515824985 → 52 %), then
``R_A' = R_A + K·(S_A − E_A)`` with K = 15, the new rating rounded (1590.2 → 1590, 1564.8 → 1565).

What the seed leaves open, and what is done here (tests/engine/systems/test_elo.py holds each):

- **The expectation is the rounded percent**, for the update and for the prediction: the seed's own example
  computes 15 × (1 − 0.52) = 7.2, not 15 × (1 − 0.5158). A difference of some 800 points or more rounds to
  0 % or 100 %.
- **A rating is rounded after every game**, a half upwards (``round_half_up``), so a rating is always an
  integer, as in the seed's example.
- **Games are rated one by one in round order**: the seed rates a single game; within a table each game
  starts from the ratings the previous round left.
- **Handicap games are not rated** (the seed knows only even games); they are still predicted, from the
  ratings as they are.
- **A player not seen before starts at 1500** (``START_RATING``); the seed does not say. One on the opening
  balance starts at his rating there.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from .base import START_RATING, PairGame, PlayerKey, logistic, round_half_up

K = 15


def expected_percent(rating: float, opponent: float) -> int:
    """The expected score of ``rating`` against ``opponent`` as the seed shows it: a whole percent."""
    return round_half_up(100.0 * logistic(rating - opponent))


def new_rating(rating: int, opponent: int, score: float) -> int:
    """The rating after one game (``score`` 1, 0.5 or 0), rounded as the seed rounds it."""
    return round_half_up(rating + K * (score - expected_percent(rating, opponent) / 100.0))


class Elo:
    """Seed 003's Elo over a history (module docstring)."""

    key = "elo"

    def __init__(self) -> None:
        self.ratings: dict[PlayerKey, int] = {}

    def start(self, player: PlayerKey, rating: float) -> None:
        self.ratings[player] = round_half_up(rating)

    def begin(self, date: dt.date) -> None:
        return None

    def rating(self, player: PlayerKey) -> float:
        return self.ratings.get(player, int(START_RATING))

    def expected(self, first: PlayerKey, second: PlayerKey) -> float:
        return expected_percent(self.rating(first), self.rating(second)) / 100.0

    def rate(self, games: Sequence[PairGame]) -> None:
        ratings = self.ratings
        start = int(START_RATING)
        for game in sorted(games, key=lambda g: g.round):
            if game.handicap:
                continue
            a = ratings.get(game.first, start)
            b = ratings.get(game.second, start)
            ratings[game.first] = new_rating(a, b, game.score)
            ratings[game.second] = new_rating(b, a, 1.0 - game.score)
