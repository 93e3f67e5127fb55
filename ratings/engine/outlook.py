"""What it takes to reach the next grade from a player's state (docs/rules.md §7), for people: "how far am I from
2 Kyu?". The same numbers the promotion tests use, read the other way round; nothing here promotes.

Below game 9 no game is tested: the first test is the provisional one at game 9. From game 9 to 17 the provisional
test promotes a player whose rating reaches UB of the grade *after* the next one. From game 18 the established
routes: UB of the next grade at once, or a run of #MP games at MP or above, or a run of #LB games at LB or above
that touched MP; the runs the player has going count.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .categories import ESTABLISHED_FROM, PROVISIONAL_FROM
from .constants import lb_run_length, lower_bound, midpoint, mp_run_length, upper_bound
from .grades import TOP_AWARDED_GRADE, is_dan
from .literals import Category
from .types import PlayerState


class Route(NamedTuple):
    """A way to the next grade: a rating to reach (``rating``), in ``games`` more games in a row (1: at once)."""

    rating: int
    games: int


class NextGrade(NamedTuple):
    grade: int
    test: Category  # the test his next game faces: "unrated" (none yet), "provisional" or "established"
    games_until_tested: int  # games to play before the first test (0 once tested)
    at_once: Route | None  # reaching this rating promotes (the provisional bound, or UB of the next grade)
    midpoint_run: Route | None  # established routes: games still to play at or above MP (the run going counts)
    lower_bound_run: Route | None  # games still to play at or above LB, one of them at MP or above
    needs_approval: bool  # a Dan grade: awarded once a grade officer approves it
    midpoint: int | None = None  # MP of the next grade, which a lower-bound run must touch (established only)


def _run(length: float | None, done: int, rating: int) -> Route | None:
    if length is None or math.isinf(length):
        return None
    return Route(rating, max(1, int(length) - done))


def next_grade(state: PlayerState) -> NextGrade | None:
    """The next grade above the player's computed grade and the ways to it; None at the top awarded grade."""
    x = state.grade + 1
    if x > TOP_AWARDED_GRADE:
        return None
    games = state.games
    approval = is_dan(x)
    if games + 1 < ESTABLISHED_FROM:
        bound = Route(upper_bound(x + 1), 1)
        waiting = max(0, PROVISIONAL_FROM - 1 - games)
        test: Category = "unrated" if waiting else "provisional"
        return NextGrade(x, test, waiting, bound, None, None, approval)
    midpoint_run = _run(mp_run_length(x), state.mp_run, midpoint(x))
    lower_run = _run(lb_run_length(x), state.lb_run, lower_bound(x))  # a run not yet at MP must touch it
    return NextGrade(x, "established", 0, Route(upper_bound(x), 1), midpoint_run, lower_run, approval, midpoint(x))
