"""What a settled table gives each of its players (docs/rules.md §6 "Afterwards", §7 for the grades).

The new state, the game details that explain the number, the promotions. Built once per player after the
sweeps, from the settled values. The engine's most numerous values, GameDetail (two per game), are built in
the loops below straight from a tuple of every field in order, and so is each player's new state and outcome
(``_new``: a named tuple's own ``__new__`` is one more Python call per value; tests/engine/test_values.py
compares each value with what its constructor builds).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence

from .categories import ESTABLISHED_FROM
from .constants import k_factor
from .literals import HandicapCode
from .participants import GAVE, Participants, SideHandicap
from .performance import performance
from .promotions import GradeState, quiet_walk, walk_table
from .rules import FESA_RULES
from .solver import Solver
from .types import GameDetail, PlayerOutcome, PlayerState, Promotion, ResultPair

_new = tuple.__new__

_Walk = tuple[tuple[Promotion, ...], int, int, bool, int]
"""The promotions of a walk and the grade state after it: grade, lb_run, lb_mp_seen, mp_run."""


def table_outcomes(
    table: Participants, solver: Solver, date: dt.date, *, ratings: Sequence[int] | None = None
) -> tuple[PlayerOutcome, ...]:
    """Every participant's outcome, in table order, once ``solver`` has settled.

    ``ratings``: the new ratings a table that did not settle is given by the rule (``settle``), which are also
    ``solver``'s values; a normally rated player's change is then his rule rating's, not a new evaluation's.
    """
    out = []
    for i, fixed in enumerate(table.fixed):
        if fixed is None:
            out.append(_normal_outcome(table, solver, i, date, None if ratings is None else ratings[i]))
        else:
            out.append(_performance_outcome(table, solver, i, fixed, date))
    return tuple(out)


def _normal_outcome(table: Participants, solver: Solver, i: int, date: dt.date, ruled: int | None) -> PlayerOutcome:
    before = table.states[i]
    rating = before.rating
    scores = table.scores[i]
    r, details = _normal_details(table, solver, i, solver.effective(i))
    change = round(r - rating) if ruled is None else ruled - rating
    new_rating = rating + change
    g = len(scores)
    games_after = before.games + g
    promotions, grade, lb_run, lb_mp_seen, mp_run = _walk(
        before, rating, new_rating, table.rounds[i], games_after, solver.k_factor
    )
    bonus_count = min(solver.rules.bonus_games, before.bonus_count + g)
    after = _new(
        PlayerState,
        (new_rating, None, games_after, bonus_count, grade, before.prior_grade, lb_run, lb_mp_seen, mp_run, date),
    )
    return _new(PlayerOutcome, (table.keys[i], "normal", before, after, change, None, details, promotions))


def _performance_outcome(
    table: Participants, solver: Solver, i: int, fixed: list[ResultPair], date: dt.date
) -> PlayerOutcome:
    before = table.states[i]
    new_rating = solver.post[i]
    effective = solver.effective(i)
    pairs = fixed + list(zip(effective, table.scores[i], strict=True))
    rounds: list[int | None] = [None] * len(fixed)
    rounds += table.rounds[i]
    promotions, grade, lb_run, lb_mp_seen, mp_run = _walk(
        before, new_rating, new_rating, rounds, len(pairs), solver.k_factor
    )
    after = _new(
        PlayerState, (new_rating, tuple(pairs), 0, 0, grade, before.prior_grade, lb_run, lb_mp_seen, mp_run, date)
    )
    details = _performance_details(table, solver, i, effective)
    exact = performance(pairs)
    return _new(PlayerOutcome, (table.keys[i], "performance", before, after, None, exact, details, promotions))


def _walk(
    before: PlayerState,
    rating_from: int,
    rating_to: int,
    rounds: Sequence[int | None],
    games: int,
    k_factor: Callable[[float], int] = k_factor,
) -> _Walk:
    """``walk_table`` on a working copy of ``before``'s grade state; none made in the common quiet case."""
    if quiet_walk(before.grade, rating_from, rating_to):
        if games >= ESTABLISHED_FROM:  # an established test below LB stops the runs
            return (), before.grade, 0, False, 0
        return (), before.grade, before.lb_run, before.lb_mp_seen, before.mp_run
    state = GradeState(before.grade, before.lb_run, before.lb_mp_seen, before.mp_run)
    promotions = walk_table(state, rating_from, rating_to, rounds, games, k_factor)
    return tuple(promotions), state.grade, state.lb_run, state.lb_mp_seen, state.mp_run


def _handicap_columns(
    handicaps: Sequence[SideHandicap | None] | None, games: int
) -> tuple[Sequence[HandicapCode | None], Sequence[bool]]:
    """Per game of the ``games``: the handicap's code and whether the player gave it."""
    if handicaps is None:
        return (None,) * games, (False,) * games
    return [None if h is None else h[2] for h in handicaps], [h is not None and h[0] == GAVE for h in handicaps]


def _normal_details(
    table: Participants, solver: Solver, i: int, effective: Sequence[int]
) -> tuple[float, tuple[GameDetail, ...]]:
    """``normal.final_rating`` for player ``i`` (the running rating after his games) and his GameDetails, in one
    loop.

    The Elo part is that of the plain reading of §4 (``run_normal`` in tests/engine/oracle.py), operation for
    operation, so every number is the same to the last
    bit; it is written out here to build each GameDetail as its numbers come, without an intermediate step
    record (tests/engine/test_values.py compares the two on random tables).
    """
    before_table = table.states[i]
    post = solver.post
    keys = table.keys
    rounds, opponents, scores = table.rounds[i], table.opponents[i], table.scores[i]
    codes, given = _handicap_columns(table.handicaps[i], len(rounds))
    details: list[GameDetail] = []
    append = details.append
    r = float(before_table.rating)
    b = before_table.bonus_count
    rules = solver.rules
    # K written out for FESA's table (as in normal.final_rating), else read from the what-if's constants.
    k_of = None if rules is FESA_RULES else rules.k_factor
    ceiling = rules.bonus_ceiling if rules.bonus_divisor else -math.inf  # a divisor of 0: no bonus
    divisor, bonus_games = rules.bonus_divisor, rules.bonus_games
    # Every column holds one entry per game, read by the game's position: a zip would be given ``strict``,
    # whose keyword takes the interpreter's slow call path for each player.
    for n, o in enumerate(effective):
        j = opponents[n]
        s = scores[n]
        if k_of is not None:
            k = k_of(r)
        elif r >= 1560.0:
            k = 16 if r >= 2240.0 else 20 if r >= 1920.0 else 24
        else:
            k = 28 if r >= 1280.0 else 32 if r >= 1040.0 else 36 if r >= 720.0 else 40
        d = o - r
        try:
            e = 1.0 / (1.0 + 10.0 ** (d / 400.0))
        except OverflowError:  # as in normal.final_rating: the float limit of the expectation
            e = 0.0
        change = k * (s - e)
        upset = False
        if s == 1.0 and d > 0.0:
            gain = k * d / 160.0
            if gain > change:
                change = gain
                upset = True
        bonus = (ceiling - r) / divisor if r < ceiling and b < bonus_games else 0.0
        append(_new(GameDetail, (rounds[n], keys[j], s, post[j], o, codes[n], given[n], r, e, k, change, upset, bonus)))
        r += change + bonus
        b += 1
    return r, tuple(details)


def _performance_details(
    table: Participants, solver: Solver, i: int, effective: Sequence[int]
) -> tuple[GameDetail, ...]:
    """The GameDetails of a performance-rated player ``i``: no Elo parts."""
    post = solver.post
    keys = table.keys
    codes, given = _handicap_columns(table.handicaps[i], len(effective))
    # Not strict: every column holds one entry per game.
    return tuple(
        _new(GameDetail, (rnd, keys[j], s, post[j], o, code, gave, None, None, None, None, False, None))
        for rnd, j, s, o, code, gave in zip(
            table.rounds[i], table.opponents[i], table.scores[i], effective, codes, given, strict=False
        )
    )
