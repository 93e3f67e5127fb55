"""What a settled table gives each of its players (shared RULES.md §6 "Afterwards", §7 for the grades).

The new state, the game details that explain the number, the promotions. Built once per player after the
sweeps, from the settled values; the frozen values come from ``build``'s drafts, the engine's most numerous
objects, GameDetail (two per game), filled inline in the loops below.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from .build import GameDetailDraft, new_player_outcome, new_player_state
from .normal import BONUS_GAMES, NormalStep, run_normal
from .participants import GAVE, Participants, SideHandicap
from .performance import performance
from .promotions import ESTABLISHED_FROM, GradeState, quiet_walk, walk_table
from .solver import Solver
from .types import GameDetail, PlayerOutcome, PlayerState, Promotion, ResultPair

_Walk = tuple[tuple[Promotion, ...], int, int, bool, int]
"""The promotions of a walk and the grade state after it: grade, lb_run, lb_mp_seen, mp_run."""


def table_outcomes(table: Participants, solver: Solver, date: dt.date) -> tuple[PlayerOutcome, ...]:
    """Every participant's outcome, in table order, once ``solver`` has settled."""
    out = []
    for i, fixed in enumerate(table.fixed):
        if fixed is None:
            out.append(_normal_outcome(table, solver, i, date))
        else:
            out.append(_performance_outcome(table, solver, i, fixed, date))
    return tuple(out)


def _normal_outcome(table: Participants, solver: Solver, i: int, date: dt.date) -> PlayerOutcome:
    before = table.states[i]
    rating = before.rating
    scores = table.scores[i]
    effective = solver.effective(i)
    steps: list[NormalStep] = []
    r = run_normal(rating, before.bonus_count, effective, scores, steps)
    change = round(r - rating)
    new_rating = rating + change
    g = len(scores)
    games_after = before.games + g
    promotions, grade, lb_run, lb_mp_seen, mp_run = _walk(before, rating, new_rating, table.rounds[i], games_after)
    after = new_player_state(
        new_rating,
        None,
        games_after,
        min(BONUS_GAMES, before.bonus_count + g),
        grade,
        before.prior_grade,
        lb_run,
        lb_mp_seen,
        mp_run,
        date,
    )
    details = _details(table, solver, i, effective, steps)
    return new_player_outcome(table.keys[i], "normal", before, after, change, None, details, promotions)


def _performance_outcome(
    table: Participants, solver: Solver, i: int, fixed: list[ResultPair], date: dt.date
) -> PlayerOutcome:
    before = table.states[i]
    new_rating = solver.post[i]
    effective = solver.effective(i)
    pairs = fixed + list(zip(effective, table.scores[i], strict=True))
    rounds: list[int | None] = [None] * len(fixed)
    rounds += table.rounds[i]
    promotions, grade, lb_run, lb_mp_seen, mp_run = _walk(before, new_rating, new_rating, rounds, len(pairs))
    after = new_player_state(
        new_rating, tuple(pairs), 0, 0, grade, before.prior_grade, lb_run, lb_mp_seen, mp_run, date
    )
    details = _details(table, solver, i, effective, ())
    return new_player_outcome(
        table.keys[i], "performance", before, after, None, performance(pairs), details, promotions
    )


def _walk(before: PlayerState, rating_from: int, rating_to: int, rounds: Sequence[int | None], games: int) -> _Walk:
    """``walk_table`` on a working copy of ``before``'s grade state; none made in the common quiet case."""
    if quiet_walk(before.grade, rating_from, rating_to):
        if games >= ESTABLISHED_FROM:  # an established test below LB stops the runs
            return (), before.grade, 0, False, 0
        return (), before.grade, before.lb_run, before.lb_mp_seen, before.mp_run
    state = GradeState(before.grade, before.lb_run, before.lb_mp_seen, before.mp_run)
    promotions = walk_table(state, rating_from, rating_to, rounds, games)
    return tuple(promotions), state.grade, state.lb_run, state.lb_mp_seen, state.mp_run


def _details(
    table: Participants, solver: Solver, i: int, effective: Sequence[int], steps: Sequence[NormalStep]
) -> tuple[GameDetail, ...]:
    """The GameDetail of each of player ``i``'s games; ``steps`` empty for a performance-rated player.

    Each is filled in the order of GameDetail's fields; tests/engine/test_build.py checks the details of
    random tables against GameDetail(...) built from the same values.
    """
    post = solver.post
    keys = table.keys
    rounds, opponents, scores = table.rounds[i], table.opponents[i], table.scores[i]
    handicaps: Sequence[SideHandicap | None] = table.handicaps[i] or (None,) * len(rounds)
    details: list[GameDetail] = []
    append = details.append
    if steps:
        for rnd, j, s, o, h, (before, expected, k, change, upset, bonus) in zip(
            rounds, opponents, scores, effective, handicaps, steps, strict=True
        ):
            d = GameDetailDraft()
            d.round = rnd
            d.opponent = keys[j]
            d.score = s
            d.opponent_rating = post[j]
            d.effective_rating = o
            if h is None:
                d.handicap = None
                d.handicap_given = False
            else:
                d.handicap = h[2]
                d.handicap_given = h[0] == GAVE
            d.rating_before_game = before
            d.expected = expected
            d.k = k
            d.change = change
            d.upset = upset
            d.bonus = bonus
            d.__class__ = GameDetail
            append(d)
    else:
        for rnd, j, s, o, h in zip(rounds, opponents, scores, effective, handicaps, strict=True):
            d = GameDetailDraft()
            d.round = rnd
            d.opponent = keys[j]
            d.score = s
            d.opponent_rating = post[j]
            d.effective_rating = o
            if h is None:
                d.handicap = None
                d.handicap_given = False
            else:
                d.handicap = h[2]
                d.handicap_given = h[0] == GAVE
            d.rating_before_game = None
            d.expected = None
            d.k = None
            d.change = None
            d.upset = False
            d.bonus = None
            d.__class__ = GameDetail
            append(d)
    return tuple(details)
