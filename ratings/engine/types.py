"""The engine's values: player states, a table's games, and what rating a table produces.

Everything here is a named tuple over plain values, so the same input always gives an equal output and
results can be compared, hashed, cached and pickled. Named tuples rather than frozen dataclasses: the engine
builds millions of these values over a long history (two GameDetail per game), and a named tuple is built at the
speed of a tuple, while a frozen dataclass sets each field through ``object.__setattr__``. The closed sets of
words (handicap codes, routes) are ``Literal`` types in literals.py. A changed copy is
``value._replace(field=...)``. Words follow docs/rules.md §1.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Mapping, Sequence
from typing import NamedTuple

from .grades import NO_GRADE as NO_GRADE
from .grades import grade_label as grade_label
from .grades import grade_of as grade_of
from .grades import grade_parts as grade_parts
from .literals import HandicapCode, Method, PriorGradeKind, PromotionRoute, is_handicap_code, is_prior_grade_kind

PlayerKey = Hashable
"""Whatever identifies a player to the caller: a database id, a line number of turnering.txt."""

Score = float
"""1.0 win, 0.5 draw, 0.0 loss (docs/rules.md §1)."""

ResultPair = tuple[int, Score]
"""(effective opponent rating used, score) as frozen in a performance-rated player's result list."""

# Grades are numbered on one scale so that "next grade" is +1 (grades.py holds the scale; the names are
# re-exported here for the modules that read them beside the values).


class PriorGrade(NamedTuple):
    """A grade from elsewhere (R7), kept apart from the FESA grade: n Kyu, amateur n Dan or professional n Dan."""

    kind: PriorGradeKind
    level: int


def prior_grade_read(kind: str, level: int | None) -> PriorGrade | None:
    """A prior grade from the two words a record or a file keeps (none without a kind or a level)."""
    if not kind or level is None:
        return None
    if not is_prior_grade_kind(kind):
        raise ValueError(f"not a prior grade's kind: {kind!r}")
    return PriorGrade(kind=kind, level=level)


class PlayerState(NamedTuple):
    """What the rules keep about a player between tables (docs/rules.md §1).

    ``result_list`` is the history while the player is rated by performance; once he has been rated
    normally it is ``None`` and ``game_count`` holds the history. ``lb_run``/``mp_run`` of 0 mean no run.
    """

    rating: int = 0
    result_list: tuple[ResultPair, ...] | None = ()
    game_count: int = 0
    bonus_count: int = 0
    grade: int = NO_GRADE
    prior_grade: PriorGrade | None = None
    lb_run: int = 0
    lb_mp_seen: bool = False
    mp_run: int = 0
    last_played: dt.date | None = None

    @property
    def games(self) -> int:
        """The player's number of games ``n``."""
        return len(self.result_list) if self.result_list is not None else self.game_count


class Handicap(NamedTuple):
    code: HandicapCode
    giver: PlayerKey


def handicap_read(code: str, giver: PlayerKey) -> Handicap:
    """A game's handicap from its stored code and the key of the player who gives it."""
    if not is_handicap_code(code):
        raise ValueError(f"not a handicap's code: {code!r}")
    return Handicap(code=code, giver=giver)


class Game(NamedTuple):
    """One rated game of a table: played, between two players of the table.

    ``score`` is ``first``'s score. A sennichite/jishogi replay comes in already as a draw;
    byes, absences and forfeits never reach the engine.
    """

    round: int
    first: PlayerKey
    second: PlayerKey
    score: Score
    handicap: Handicap | None = None


class TableInput(NamedTuple):
    """A table to rate: its date, its players in table order with their states before it, its rated games.

    Players listed with no rated game take no part (docs/rules.md §6) and come out unchanged.
    """

    name: str
    date: dt.date
    players: Sequence[PlayerKey]
    states: Mapping[PlayerKey, PlayerState]
    games: Sequence[Game]


class GameDetail(NamedTuple):
    """How one game moved one player, enough to explain the number (docs/rules.md §3-§5)."""

    round: int
    opponent: PlayerKey
    score: Score
    opponent_rating: int  # post-table value of the opponent, before the 400 floor and handicap
    effective_rating: int  # what the game used: floor 400, then the handicap (§3)
    handicap: HandicapCode | None
    handicap_given: bool  # this player gave the handicap
    # Normal rating only (None for performance-rated players):
    rating_before_game: float | None = None
    expected: float | None = None
    k: int | None = None
    change: float | None = None  # normal or upset gain, before the bonus
    upset: bool = False
    bonus: float | None = None


class Promotion(NamedTuple):
    grade: int
    route: PromotionRoute
    game_number: int  # the player's overall game number at which it happened (N+k for imaginary games)
    rating: float  # the interpolated rating that passed the test
    round: int | None  # the round of the real game it happened on; None for "bound to get it"


class PlayerOutcome(NamedTuple):
    key: PlayerKey
    method: Method
    before: PlayerState
    after: PlayerState
    change: int | None  # normal: the rounded table change; performance: None
    performance: float | None  # performance-rated: the exact root before rounding; None otherwise
    games: tuple[GameDetail, ...]
    promotions: tuple[Promotion, ...] = ()

    @property
    def rating_before(self) -> int:
        return self.before.rating

    @property
    def rating_after(self) -> int:
        return self.after.rating

    @property
    def score(self) -> float:
        return sum(g.score for g in self.games)


class TableResult(NamedTuple):
    """Outcomes of the players who took part, in table order; ``sweeps`` is how many it took to settle."""

    outcomes: tuple[PlayerOutcome, ...]
    sweeps: int

    def by_key(self) -> dict[PlayerKey, PlayerOutcome]:
        return {o.key: o for o in self.outcomes}
