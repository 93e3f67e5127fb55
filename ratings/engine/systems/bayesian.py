"""A Bayesian rating system of today: Weng and Lin's Plackett-Luce model ("A Bayesian Approximation Method for
Online Ranking", Journal of Machine Learning Research 12, 2011), from the ``openskill`` package (MIT licence),
with its own defaults (a new player at mu 25, sigma 25/3; beta 25/6; tau 25/300 added to sigma before each
game). A rating is a belief about the player's strength, its mean and its uncertainty, updated by every game.

What the comparison chooses:

- **Games are rated one by one in round order**, a draw as a tie (equal ranks); the model is online.
- **The prediction** is the package's ``predict_win`` for the pair: the probability that the first player is
  ranked above the second, with both players' uncertainty counted; it serves as the expected score.
- **Handicap games are not rated**; they are still predicted.
- **A player on the opening balance** starts at ``mu = 25 + (rating − 1500) × MU_PER_ELO`` with half a
  newcomer's sigma: 200 Elo points are the 4.16 of mu that give 76 % to the stronger of two such players in
  the model's normal curve with beta 25/6 (Φ(0.706) = 0.76; 0.706 × √2 × 25/6 = 4.16), as in Elo.
- **The rating shown** is openskill's ordinal ``mu − 3·sigma``, a cautious estimate, as openskill ranks
  players; it is on openskill's own scale (about 0 to 50), not Elo's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from openskill.models import PlackettLuce

from .base import PairGame, PlayerKey

MU_PER_ELO = 4.16 / 200


class Bayesian:
    """Weng-Lin Plackett-Luce (openskill) over a history (module docstring)."""

    key = "openskill"

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.values: dict[PlayerKey, tuple[float, float]] = {}

    def start(self, player: PlayerKey, rating: float) -> None:
        self.values[player] = (self.model.mu + (rating - 1500.0) * MU_PER_ELO, self.model.sigma / 2.0)

    def begin(self, date: dt.date) -> None:
        return None

    def _value(self, player: PlayerKey) -> tuple[float, float]:
        value = self.values.get(player)
        if value is None:
            return self.model.mu, self.model.sigma
        return value

    def rating(self, player: PlayerKey) -> float:
        mu, sigma = self._value(player)
        return mu - 3.0 * sigma

    def expected(self, first: PlayerKey, second: PlayerKey) -> float:
        model = self.model
        a, b = self._value(first), self._value(second)
        teams = [[model.rating(mu=a[0], sigma=a[1])], [model.rating(mu=b[0], sigma=b[1])]]
        return float(model.predict_win(teams)[0])

    def rate(self, games: Sequence[PairGame]) -> None:
        model = self.model
        for game in sorted(games, key=lambda g: g.round):
            if game.handicap:
                continue
            a, b = self._value(game.first), self._value(game.second)
            teams = [[model.rating(mu=a[0], sigma=a[1])], [model.rating(mu=b[0], sigma=b[1])]]
            ranks = [0.0, 0.0] if game.score == 0.5 else [0.0, 1.0] if game.score == 1.0 else [1.0, 0.0]
            (first,), (second,) = model.rate(teams, ranks=ranks)
            self.values[game.first] = (first.mu, first.sigma)
            self.values[game.second] = (second.mu, second.sigma)
