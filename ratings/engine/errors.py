"""The engine's own exceptions: bad input, tables that do not settle, numbers beyond what can be computed."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import NamedTuple


class EngineError(Exception):
    """Base of everything the engine raises on purpose; the message is meant for a person."""


class InvalidTable(EngineError):
    """The table cannot be rated as given: an unknown player, a player twice in a round, a game against
    oneself, an unknown handicap code, a date before a player's last rated table."""


class TableDidNotSettle(EngineError):
    """The simultaneous solution did not settle within the sweep limit (docs/rules.md §6).

    ``players`` are the table's participants in table order; ``cycle`` holds, for each sweep of the cycle the
    sweeps fell into, every participant's value (his rating in that state) at its end, in that order. Both are
    empty when the sweeps gave up without finding a repeated state (a limit below the cycle check's start).
    """

    def __init__(self, message: str, *, players: Sequence[Hashable] = (), cycle: Sequence[Sequence[int]] = ()) -> None:
        super().__init__(message)
        self.players = tuple(players)
        self.cycle = tuple(tuple(state) for state in cycle)

    def states(self) -> dict[Hashable, tuple[int, ...]]:
        """Each player's ratings in the cycle's states, in the order the sweeps reached them."""
        return {key: tuple(state[i] for state in self.cycle) for i, key in enumerate(self.players)}


class TableBeyondNumbers(EngineError):
    """A number of the table went beyond what floats can hold (ratings near 10^38 and above, say): the table
    is not rated, like one that does not settle, rather than fail with an arithmetic error of its own."""


class BeyondRankScale(EngineError):
    """A rating at or above the rank scale's end (``SCALE_END``, 9999) was put through the handicap conversion,
    which has no grade for it (docs/rules.md §3). Raised by ``handicap_shift``; ``rate_table`` turns it into a
    RatingOffScale naming the table and the player."""

    def __init__(self, rating: float) -> None:
        super().__init__(f"the rating {rating:g} is beyond the handicap scale's end")
        self.rating = rating


class RatingOffScale(EngineError):
    """The table would give ``player`` a rating the rules do not define: his value reached ``rating``, at or
    above the end of the handicap scale (9999), and the conversion of a handicap game needs its grade. The FESA
    program stops on such a table; it is not rated (docs/rules.md §3)."""

    def __init__(self, message: str, *, player: Hashable, rating: float) -> None:
        super().__init__(message)
        self.player = player
        self.rating = rating


class RuleProblem(NamedTuple):
    """One thing wrong in a set of rule constants: the constant's name (``k``, ``k_from``, ``bonus_divisor``,
    ``handicaps``, ...), where in it (a position in a table, a handicap's code, or None for the whole constant)
    and what is wrong, for a person."""

    name: str
    at: int | str | None
    message: str


class InvalidRules(EngineError):
    """Rule constants the engine cannot rate with: a K that is not positive, a K table out of order, a bonus
    with a negative divisor, an unknown or negative handicap (rules.py).

    ``problems`` names every one found, so that a form can put each on its own field; the message is the first.
    """

    def __init__(self, message: str, *, problems: Sequence[RuleProblem] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)
