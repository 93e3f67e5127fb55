"""What every rating system of the comparison offers, and the game it is shown.

The comparison (compare.py) walks the federation's history table by table. Before a table it tells each system
the table's date (``begin``), asks it the expected score of every game of the table (``expected``), and only then
shows it the table's games (``rate``). So every prediction rests on the tables before, never on the table it
predicts nor a later one; a system that rates in periods or over a whole set (the European system of 1996,
Game Courier) decides in ``begin`` what it knows on that date.

Players who came with a rating from the opening balance (the FESA list migrated before the site's first
table) are given it before the first table (``start``), so that FESA's stored ratings, which carry it, are
not the only ones that know it; a system takes it as its own method takes a known rating, or not at all.

A table is the unit because it is the site's: the stored FESA ratings are the ratings before and after a
table, so FESA itself can only be asked before a table. Every system is put on the same footing.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Hashable, Sequence
from typing import NamedTuple, Protocol

PlayerKey = Hashable

START_RATING = 1500.0
"""Where a system that needs a first rating starts a player it has not seen (Elo, the European system of 1996,
Game Courier and Glicko-2 all use 1500 for one they know nothing about)."""


class PairGame(NamedTuple):
    """One rated game: ``score`` is ``first``'s (1, 0.5 or 0); ``handicap`` is whether one side gave one."""

    round: int
    first: PlayerKey
    second: PlayerKey
    score: float
    handicap: bool = False


class RatingSystem(Protocol):
    """A rating system as the comparison drives it (module docstring)."""

    key: str

    def start(self, player: PlayerKey, rating: float) -> None:
        """What the federation knew of ``player`` before the history begins: his rating on the opening balance
        (the list migrated before the site's first table). Called before the first table only."""

    def begin(self, date: dt.date) -> None:
        """Time moves on to ``date``, the date of the next table (never earlier than the last one)."""

    def expected(self, first: PlayerKey, second: PlayerKey) -> float:
        """``first``'s expected score against ``second``, between 0 and 1, from what the system knows now."""

    def rate(self, games: Sequence[PairGame]) -> None:
        """One table's games, of the date last begun, in round order."""

    def rating(self, player: PlayerKey) -> float:
        """The player's rating now, on the system's own scale (``START_RATING`` for one it has not seen)."""


def logistic(difference: float) -> float:
    """The Elo expectation ``1 / (1 + 10^(-d/400))`` of a player ``difference`` points above his opponent."""
    try:
        return 1.0 / (1.0 + float(10.0 ** (-difference / 400.0)))
    except OverflowError:  # some 123,000 points below: the float limit
        return 0.0


def round_half_up(x: float) -> int:
    """``x`` to the nearest integer, a half upwards (1590.5 → 1591, −7.5 → −7): the seeds' "round up" of a
    rating, not Python's rounding of a half to the even neighbour."""
    return math.floor(x + 0.5)
