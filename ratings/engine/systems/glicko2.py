"""Glicko-2, from Mark Glickman's "Example of the Glicko-2 system" (Boston University, 2013 revision; the
paper's steps 1–8 are marked below).

Written from the paper rather than taken from a package: the one maintained Glicko-2 package on PyPI
(``glicko2`` 2.1.0) computes the volatility's function ``f`` with the player's rating where the paper has
his deviation (``delta² − mu² − v − eˣ`` for ``delta² − phi² − v − eˣ``), so it gives 1441.5 / 193.2 for
the paper's own example where the paper gives 1464.06 / 151.52 (tests/engine/systems/test_glicko2.py holds
the paper's figures).

What the paper leaves to the user, and what is done here:

- **The rating period** is a table: a player's games of a table are rated together, against his opponents'
  values before the table (step 2 onwards).
- **Time without games** widens the deviation as the paper's step 6 does for a period without games, once
  for each whole 30 days since the player's last table (``phi* = sqrt(phi² + t·sigma²)``), before the table is
  predicted and rated, never wider than a newcomer's 350 (as Glicko's first paper caps it).
- **The constants** are the paper's suggestions: a new player at 1500, deviation 350, volatility 0.06; the
  system constant tau = 0.5; the convergence tolerance 0.000001.
- **The prediction** of a game is ``E(mu, mu_j, sqrt(phi² + phi_j²))``: the paper's E with both players'
  deviations combined, as Glickman's Glicko papers predict a game between two rated players.
- **Handicap games are not rated** (they measure another game); they are still predicted.
- **A player on the opening balance** starts at his rating there with a deviation of ``OPENING_DEVIATION``
  (100: a rating known from many games, not a newcomer's 350), widening from his first table on.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import NamedTuple

from .base import PairGame, PlayerKey

SCALE = 173.7178
START = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
EPSILON = 0.000001
IDLE_DAYS = 30
OPENING_DEVIATION = 100.0


class Glicko(NamedTuple):
    """A player on the Glicko-2 scale: ``mu``, ``phi``, ``sigma`` (step 2)."""

    mu: float = 0.0
    phi: float = START_DEVIATION / SCALE
    sigma: float = START_VOLATILITY

    @property
    def rating(self) -> float:
        return self.mu * SCALE + START

    @property
    def deviation(self) -> float:
        return self.phi * SCALE


def from_rating(rating: float, deviation: float, volatility: float = START_VOLATILITY) -> Glicko:
    return Glicko((rating - START) / SCALE, deviation / SCALE, volatility)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Glicko, results: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """The player after one rating period with ``results`` (opponent, score); none is step 6 alone."""
    mu, phi, sigma = player
    if not results:
        return Glicko(mu, math.sqrt(phi * phi + sigma * sigma), sigma)
    # Step 3: the estimated variance v; step 4: the estimated improvement delta.
    v_inverse = 0.0
    total = 0.0
    for opponent, score in results:
        g = _g(opponent.phi)
        e = _e(mu, opponent.mu, opponent.phi)
        v_inverse += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * total
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6 and 7: the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Glicko(new_mu, new_phi, new_sigma)


def idle(player: Glicko, periods: int) -> Glicko:
    """Step 6 for ``periods`` periods without a game: the deviation widens, capped at a newcomer's."""
    if periods <= 0:
        return player
    phi = min(math.sqrt(player.phi**2 + periods * player.sigma**2), START_DEVIATION / SCALE)
    return player._replace(phi=phi)


class Glicko2:
    """Glicko-2 over a history, a table a rating period (module docstring)."""

    key = "glicko2"

    def __init__(self) -> None:
        self.players: dict[PlayerKey, Glicko] = {}
        self.last: dict[PlayerKey, dt.date] = {}
        self.date: dt.date | None = None

    def start(self, player: PlayerKey, rating: float) -> None:
        self.players[player] = from_rating(rating, OPENING_DEVIATION)

    def begin(self, date: dt.date) -> None:
        self.date = date

    def _now(self, player: PlayerKey) -> Glicko:
        value = self.players.get(player)
        last = self.last.get(player)
        if value is None:
            return Glicko()
        if self.date is None or last is None:
            return value
        return idle(value, (self.date - last).days // IDLE_DAYS)

    def rating(self, player: PlayerKey) -> float:
        return self._now(player).rating

    def expected(self, first: PlayerKey, second: PlayerKey) -> float:
        a, b = self._now(first), self._now(second)
        return _e(a.mu, b.mu, math.sqrt(a.phi * a.phi + b.phi * b.phi))

    def rate(self, games: Sequence[PairGame]) -> None:
        results: dict[PlayerKey, list[tuple[Glicko, float]]] = {}
        before: dict[PlayerKey, Glicko] = {}
        for game in games:
            if game.handicap:
                continue
            for player in (game.first, game.second):
                if player not in before:
                    before[player] = self._now(player)
            results.setdefault(game.first, []).append((before[game.second], game.score))
            results.setdefault(game.second, []).append((before[game.first], 1.0 - game.score))
        date = self.date
        for player, played in results.items():
            self.players[player] = update(before[player], played)
            if date is not None:
                self.last[player] = date
