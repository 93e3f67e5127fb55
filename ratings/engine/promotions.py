"""Grades and promotions after a table (docs/rules.md §7; rule R10, with the program's readings of §9).

The table's rating change is spread evenly over the games it counts (``from + k·(to − from)/G``), and each game
is tested by its overall game number: from the 18th on against the established routes (UB, a run at or above
MP, a run at or above LB that touched MP), from the 9th to the 17th by the provisional test (the UB of the grade
*after* the next one), below the 9th not at all. Runs carry over between tables. Then "bound to get it": a copy
plays 20 imaginary games each losing the full K, and if the copy is promoted, so is the player, by one grade.

A promotion is followed by a new test with the same rating, so one game can give several grades; when both
run routes complete on the same game, the MP route is named. 7 Dan is the "next grade" of a 6 Dan for the runs,
but it is never awarded, by any route.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final

from .categories import ESTABLISHED_FROM, PROVISIONAL_FROM
from .constants import (
    k_factor,
    lb_run_length,
    lower_bound,
    midpoint,
    mp_run_length,
    upper_bound,
)
from .grades import SEVEN_DAN, TOP_AWARDED_GRADE
from .literals import PromotionRoute
from .types import Promotion

IMAGINARY_GAMES = 20


def _or_inf(length: float | None) -> float:
    """A run length, with a route that does not exist as one never reached."""
    return math.inf if length is None else length


# The established test's numbers for the next grade x (index x = 1 .. 7 Dan), looked up once per test:
# (the UB that promotes, inf where x is never awarded; MP; LB; #MP; #LB), a route that does not exist as inf.
_ESTABLISHED: Final = [
    (math.inf, math.inf, math.inf, math.inf, math.inf),  # index 0 is never a next grade
    *(
        (
            upper_bound(x) if x <= TOP_AWARDED_GRADE else math.inf,
            midpoint(x),
            lower_bound(x),
            _or_inf(mp_run_length(x)),
            _or_inf(lb_run_length(x)),
        )
        for x in range(1, SEVEN_DAN + 1)
    ),
]
# LB of the next grade, by the current grade (no grade .. 6 Dan).
_NEXT_LOWER_BOUND: Final = [lower_bound(g + 1) for g in range(SEVEN_DAN)]
# The provisional test's bound by the current grade: UB of the grade after the next, inf where the next grade
# is never awarded (6 Dan and, for safety, 7 Dan).
_PROVISIONAL_BOUND: Final = [
    upper_bound(g + 2) if g + 1 <= TOP_AWARDED_GRADE else math.inf for g in range(SEVEN_DAN + 1)
]


class GradeState:
    """The grade and the run counters of one player while his games are walked (mutable working copy)."""

    __slots__ = ("grade", "lb_mp_seen", "lb_run", "mp_run")

    def __init__(self, grade: int, lb_run: int = 0, lb_mp_seen: bool = False, mp_run: int = 0) -> None:
        self.grade = grade
        self.lb_run = lb_run
        self.lb_mp_seen = lb_mp_seen
        self.mp_run = mp_run

    def __repr__(self) -> str:
        runs = f"lb_run={self.lb_run}, lb_mp_seen={self.lb_mp_seen}, mp_run={self.mp_run}"
        return f"GradeState(grade={self.grade}, {runs})"

    def promote(
        self, route: PromotionRoute, number: int, rating: float, round_: int | None, out: list[Promotion]
    ) -> None:
        self.grade += 1
        self.lb_run = 0
        self.mp_run = 0
        self.lb_mp_seen = False
        out.append(Promotion(self.grade, route, number, rating, round_))

    def stop_runs(self) -> None:
        self.lb_run = 0
        self.mp_run = 0
        self.lb_mp_seen = False


def established_test(state: GradeState, rating: float, number: int, round_: int | None, out: list[Promotion]) -> None:
    """Test one game of an established player (game number 18 or more), promoting as often as it passes."""
    while True:
        x = state.grade + 1
        if x > SEVEN_DAN:  # pragma: no cover - 7 Dan is never awarded, so no one stands above 6 Dan
            return
        promoting_bound, mp, lb, needed_mp, needed_lb = _ESTABLISHED[x]
        if rating >= promoting_bound:
            state.promote("upper_bound", number, rating, round_, out)
            continue
        if rating >= mp:
            if state.mp_run > 0:
                state.mp_run += 1
                state.lb_run += 1
            else:
                state.lb_run = state.lb_run + 1 if state.lb_run > 0 else 1
                state.lb_mp_seen = True
                state.mp_run = 1
        elif rating >= lb:
            if state.lb_run > 0:
                state.lb_run += 1
            else:
                state.lb_run = 1
                state.lb_mp_seen = False
            state.mp_run = 0
        else:
            state.stop_runs()
            return
        if state.mp_run >= needed_mp:
            state.promote("midpoint_run", number, rating, round_, out)
        elif state.lb_mp_seen and state.lb_run >= needed_lb:
            state.promote("lower_bound_run", number, rating, round_, out)
        else:
            return


def provisional_test(state: GradeState, rating: float, number: int, round_: int | None, out: list[Promotion]) -> None:
    """Test one game numbered 9..17: promote to the next grade while the rating reaches UB of the one after."""
    bounds = _PROVISIONAL_BOUND
    grade = state.grade
    if rating < bounds[grade]:
        return
    # A newcomer's first count of games can climb twenty grades at once: one pass, one Promotion each.
    while rating >= bounds[grade]:
        grade += 1
        out.append(Promotion(grade, "provisional", number, rating, round_))
    state.grade = grade
    state.stop_runs()


def bound_to_get_it(
    state: GradeState, rating: int, games: int, k_factor: Callable[[float], int] = k_factor
) -> Promotion | None:
    """Play 20 imaginary games on a copy, each losing the full K (``k_factor``: FESA's K table unless a what-if
    gives another, rules.py); the promotion the copy gets first, if any."""
    if rating - k_factor(rating) < _NEXT_LOWER_BOUND[state.grade]:
        return None  # the first imaginary game already stops every run
    copy = GradeState(state.grade, state.lb_run, state.lb_mp_seen, state.mp_run)
    out: list[Promotion] = []
    r = rating
    for i in range(1, IMAGINARY_GAMES + 1):
        r -= k_factor(r)
        established_test(copy, r, games + i, None, out)
        if out:
            first = out[0]
            return Promotion(state.grade + 1, "bound_to_get_it", first.game_number, first.rating, None)
        if copy.lb_run == 0 and copy.mp_run == 0:
            # The imaginary ratings only fall, so a run that has stopped cannot start again.
            return None
    return None


def quiet_walk(grade: int, rating_from: int, rating_to: int) -> bool:
    """Whether no test of a walk from ``rating_from`` to ``rating_to`` can promote a player of ``grade``.

    True when every rating of the walk lies below LB of the next grade: no test can promote then (UB of the
    grade after it lies higher still), and an established test only stops the runs. The common case.
    """
    if grade >= SEVEN_DAN:
        return False  # walk_table's own (never used) guard decides
    bound = _NEXT_LOWER_BOUND[grade]
    return rating_from < bound and rating_to < bound


def walk_table(
    state: GradeState,
    rating_from: int,
    rating_to: int,
    rounds: Sequence[int | None],
    games: int,
    k_factor: Callable[[float], int] = k_factor,
) -> list[Promotion]:
    """Walk the ``G = len(rounds)`` games a table counts and test them; ``games`` is the player's new ``N``.

    Game ``k`` (1-based) gets the rating ``from + k·(to − from)/G`` and the overall number ``N − G + k``; its
    ``rounds`` entry is the round of the real game, or None for a pair of an older table or a prior grade.
    ``state`` is updated in place; the promotions come back in the order they happened.
    """
    out: list[Promotion] = []
    if state.grade >= SEVEN_DAN:  # pragma: no cover - never awarded, but a caller's state might say so
        return out
    if quiet_walk(state.grade, rating_from, rating_to):
        if games >= ESTABLISHED_FROM:
            state.stop_runs()
        return out
    count = len(rounds)
    diff = rating_to - rating_from
    first_number = games - count
    # Games numbered below 9 are not tested: start at the 9th. The checks against the bounds below are the
    # first step of each test, taken here because most games fail them (the test then at most stops the runs).
    for k in range(max(1, PROVISIONAL_FROM - first_number), count + 1):
        number = first_number + k
        rating = rating_from + k * diff / count
        if number >= ESTABLISHED_FROM:
            if rating >= _NEXT_LOWER_BOUND[state.grade]:
                established_test(state, rating, number, rounds[k - 1], out)
            else:
                state.stop_runs()
        elif rating >= _PROVISIONAL_BOUND[state.grade]:
            provisional_test(state, rating, number, rounds[k - 1], out)
    if games >= ESTABLISHED_FROM and state.grade < TOP_AWARDED_GRADE:
        bound = bound_to_get_it(state, rating_to, games, k_factor)
        if bound is not None:
            state.grade = bound.grade
            state.stop_runs()
            out.append(bound)
    return out
