"""The European shogi Elo system of 1996, as seed 002 (shared/seeds/002_…, Eric Cheymol, 1 August 1996) states it.

The seed: the FIDE formula ``Bonus = K·(V − 1/(1 + 10^((EloOpp − EloOld)/400)))`` with ``EloOld`` and
``EloOpp`` the ratings at the beginning of a 6-month period; K by the rating at the period's start, 32 at 1649
and below, one less for each 50 points above, down to 16 at 2400 and above; handicap games not counted; and the
"boost": a player who improved fast gets his performance (the average of his opponents' ratings over at least
his last 14 games plus the FIDE table's bonus for his score) when it is more than 50–60 points above the rating
the formula gives.

What the seed leaves open, and what is done here (tests/engine/systems/test_european.py holds each):

- **The periods** are the calendar half-years, 1 January–30 June and 1 July–31 December (the seed's lists are
  of 1 July; "since July 1st 1994"). A period closes when the first table of a later period begins: the
  changes of its games are added to the ratings then, all at once.
- **V is 1, 0.5 or 0.** The seed writes −1 for a loss, a slip: with −1 a loss would cost K·(1 + E), twice a
  FIDE loss, and a win and a loss against the same player would not cancel.
- **The new rating is rounded** to the nearest integer, a half upwards, once per period; K is read from the
  period's starting rating.
- **The boost** is applied at the close of a period to a player with 14 games or more: his last 14 rated
  games, the opponents' ratings as each game used them, his score share rounded to the hundredth, the bonus
  from the FIDE table (``FIDE_DP``, FIDE Handbook B.02 table 8.1a, the "table p 58" the seed cites). The
  performance replaces the new rating when it is more than 50 points above it (the seed's "50 - 60": the
  lower figure, so that a boost is never missed for the choice).
- **Handicap games** are neither rated nor counted for the boost; they are still predicted.
- **A player not seen before starts at 1500**: the seed introduces newcomers at the "theoretical elo" of their
  grade, which the comparison does not give a system. One on the opening balance starts at his rating there.
"""

from __future__ import annotations

import datetime as dt
from collections import deque
from collections.abc import Sequence

from .base import START_RATING, PairGame, PlayerKey, logistic, round_half_up

BOOST_GAMES = 14
BOOST_MARGIN = 50

FIDE_DP: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip
"""The FIDE table of rating difference by score share: ``FIDE_DP[i]`` for a share of 0.50 + i/100."""


def k_factor(rating: float) -> int:
    """K by the rating at the start of the period: 16 at 2400 and above, 17 for 2350–2399, ..., 31 for
    1650–1699, 32 at 1649 and below (a rating with a fraction is read by its integer part)."""
    r = int(rating // 1)
    if r >= 2400:
        return 16
    if r <= 1649:
        return 32
    return 16 + (2399 - r) // 50 + 1


def performance_bonus(share: float) -> int:
    """The FIDE table's difference for a score share (rounded to the hundredth); below 50 % it is negative."""
    p = round_half_up(share * 100.0)
    if p >= 50:
        return FIDE_DP[p - 50]
    return -FIDE_DP[50 - p]


def _period(date: dt.date) -> tuple[int, int]:
    return date.year, 0 if date.month <= 6 else 1


class European1996:
    """The European system of 1996 over a history (module docstring)."""

    key = "european1996"

    def __init__(self) -> None:
        self.ratings: dict[PlayerKey, int] = {}  # at the start of the current period
        self.changes: dict[PlayerKey, float] = {}  # summed over the current period's games
        self.recent: dict[PlayerKey, deque[tuple[int, float]]] = {}  # (opponent's rating, score), last 14
        self.period: tuple[int, int] | None = None
        self.boosted: set[PlayerKey] = set()  # boosted at the last close ("++++" in the seed's lists)

    def start(self, player: PlayerKey, rating: float) -> None:
        self.ratings[player] = round_half_up(rating)

    def begin(self, date: dt.date) -> None:
        period = _period(date)
        if self.period is not None and period != self.period:
            self._close()
        self.period = period

    def _close(self) -> None:
        self.boosted = set()
        start = int(START_RATING)
        for player, change in self.changes.items():
            new = round_half_up(self.ratings.get(player, start) + change)
            games = self.recent.get(player)
            if games is not None and len(games) >= BOOST_GAMES:
                average = sum(o for o, _ in games) / len(games)
                share = sum(s for _, s in games) / len(games)
                performance = round_half_up(average + performance_bonus(share))
                if performance > new + BOOST_MARGIN:
                    new = performance
                    self.boosted.add(player)
            self.ratings[player] = new
        self.changes = {}

    def rating(self, player: PlayerKey) -> float:
        return self.ratings.get(player, int(START_RATING))

    def expected(self, first: PlayerKey, second: PlayerKey) -> float:
        return logistic(self.rating(first) - self.rating(second))

    def rate(self, games: Sequence[PairGame]) -> None:
        start = int(START_RATING)
        for game in games:
            if game.handicap:
                continue
            for me, other, score in ((game.first, game.second, game.score), (game.second, game.first, 1 - game.score)):
                mine = self.ratings.get(me, start)
                theirs = self.ratings.get(other, start)
                change = k_factor(mine) * (score - logistic(mine - theirs))
                self.changes[me] = self.changes.get(me, 0.0) + change
                self.recent.setdefault(me, deque(maxlen=BOOST_GAMES)).append((theirs, score))
