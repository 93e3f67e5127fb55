"""Plain readings of docs/rules.md, for checking the engine's faster ways.

``solve_plainly`` (§6): every sweep recomputes every player, in table order, storing each value at once; no
skipping, no caches. It uses the engine's per-player formulas (tested on their own) and only replaces the way
the table is solved. ``walk_plainly`` (§7): the promotions of one table's walk, every test taken in full.
"""

from __future__ import annotations

from collections.abc import Sequence

from ratings.engine.constants import (
    HANDICAPS,
    handicap_shift,
    k_factor,
    lb_run_length,
    lower_bound,
    midpoint,
    mp_run_length,
    upper_bound,
)
from ratings.engine.grades import SEVEN_DAN, TOP_AWARDED_GRADE
from ratings.engine.normal import BONUS_CEILING, BONUS_GAMES
from ratings.engine.performance import performance_rating
from ratings.engine.prior_grades import prior_grade_rating
from ratings.engine.types import PlayerKey, Promotion, TableInput


def solve_plainly(table: TableInput, max_sweeps: int = 1000) -> tuple[dict[PlayerKey, int], int] | None:
    """Every participant's post-table rating and the number of sweeps, or None if it does not settle."""
    games = sorted(table.games, key=lambda g: g.round)
    keys = [k for k in table.players if any(k in (g.first, g.second) for g in games)]
    sides: dict[PlayerKey, list[tuple[PlayerKey, float, str | None, bool]]] = {k: [] for k in keys}
    for g in games:
        code = None if g.handicap is None else g.handicap.code
        for me, other, score in ((g.first, g.second, g.score), (g.second, g.first, 1 - g.score)):
            sides[me].append((other, score, code, g.handicap is not None and g.handicap.giver == me))

    performance: dict[PlayerKey, list[tuple[int, float]] | None] = {}
    value: dict[PlayerKey, int] = {}
    for k in keys:
        state = table.states[k]
        n, g = state.games, len(sides[k])
        stored = list(state.result_list or ())
        results = {s for _, s in stored}
        if n == 0 or (
            state.result_list is not None
            and (results in ({0}, {1}) or state.rating == 0 or n + g < 9)
        ):  # fmt: skip
            fixed = [(max(400, o), s) for o, s in stored]
            if n == 0 and state.prior_grade is not None:
                p = max(400, prior_grade_rating(state.prior_grade))
                fixed += [(p, 1), (p, 0)]
            performance[k] = fixed
            value[k] = 0
        else:
            performance[k] = None
            value[k] = state.rating

    for sweep in range(1, max_sweeps + 1):
        changed = False
        for k in keys:
            state = table.states[k]
            fixed = performance[k]
            own = value[k] if fixed is not None else state.rating
            effective = []
            for other, _, code, gave in sides[k]:
                o = max(400, value[other])
                if code is not None and gave:
                    o += own - handicap_shift(own, HANDICAPS[code])  # type: ignore[index]
                elif code is not None:
                    o = handicap_shift(o, HANDICAPS[code])  # type: ignore[index]
                effective.append(o)
            scores = [s for _, s, _, _ in sides[k]]
            if fixed is not None:
                new = performance_rating(fixed + list(zip(effective, scores, strict=True)))
            else:
                new = state.rating + normal_change(state.rating, state.bonus_count, effective, scores)
            if new != value[k]:
                value[k] = new
                changed = True
        if not changed:
            return value, sweep
    return None


def walk_plainly(
    grade: int,
    runs: tuple[int, bool, int],
    rating_from: int,
    rating_to: int,
    rounds: Sequence[int | None],
    games: int,
) -> tuple[list[Promotion], int, tuple[int, bool, int]]:
    """docs/rules.md §7 read plainly: every game of the walk tested in full, the 20 imaginary games all played.

    ``runs`` is (lb_run, lb_mp_seen, mp_run). Returns the promotions, the grade and the runs after the walk.
    No shortcut and no precomputed table: the constants come from their functions at each test.
    """
    lb_run, seen, mp_run = runs
    out: list[Promotion] = []

    def established(rating: float, number: int, round_: int | None) -> None:
        nonlocal grade, lb_run, seen, mp_run
        while grade + 1 <= SEVEN_DAN:
            x = grade + 1
            if x <= TOP_AWARDED_GRADE and rating >= upper_bound(x):
                route = "upper_bound"
            else:
                if rating >= midpoint(x):
                    if mp_run > 0:
                        mp_run, lb_run = mp_run + 1, lb_run + 1
                    else:
                        lb_run, seen, mp_run = (lb_run + 1 if lb_run > 0 else 1), True, 1
                elif rating >= lower_bound(x):
                    lb_run, seen, mp_run = (lb_run + 1, seen, 0) if lb_run > 0 else (1, False, 0)
                else:
                    lb_run, seen, mp_run = 0, False, 0
                    return
                needed_mp, needed_lb = mp_run_length(x), lb_run_length(x)
                if needed_mp is not None and mp_run >= needed_mp:
                    route = "midpoint_run"
                elif needed_lb is not None and seen and lb_run >= needed_lb:
                    route = "lower_bound_run"
                else:
                    return
            grade += 1
            lb_run, seen, mp_run = 0, False, 0
            out.append(Promotion(grade, route, number, rating, round_))  # type: ignore[arg-type]

    if grade >= SEVEN_DAN:
        return out, grade, (lb_run, seen, mp_run)
    count = len(rounds)
    for k in range(1, count + 1):
        number = games - count + k
        rating = rating_from + k * (rating_to - rating_from) / count
        if number >= 18:
            established(rating, number, rounds[k - 1])
        elif number >= 9:
            while grade + 1 <= TOP_AWARDED_GRADE and rating >= upper_bound(grade + 2):
                grade += 1
                lb_run, seen, mp_run = 0, False, 0
                out.append(Promotion(grade, "provisional", number, rating, rounds[k - 1]))
    if games >= 18 and grade < TOP_AWARDED_GRADE:
        real = (grade, lb_run, seen, mp_run, len(out))
        r: float = rating_to
        for i in range(1, 21):
            r -= k_factor(r)
            established(r, games + i, None)
            if len(out) > real[4]:
                first = out[real[4]]
                grade, lb_run, seen, mp_run = real[0] + 1, 0, False, 0
                del out[real[4] :]
                out.append(Promotion(grade, "bound_to_get_it", first.game_number, first.rating, None))
                break
        else:
            grade, lb_run, seen, mp_run = real[:4]
    return out, grade, (lb_run, seen, mp_run)


# The plain reading of §4, with a record of every step; the engine's own loops (normal.final_rating,
# outcomes._normal_details) are compared with it to the last bit.
NormalStep = tuple[float, float, int, float, bool, float]
"""How one game moved the running rating: (rating before the game, expected score, K, the Elo change or the
upset gain before the bonus, upset?, bonus). A plain tuple, in GameDetail's field order, because it is built
for every game of every table."""


def run_normal(
    rating: float,
    bonus_count: int,
    opponents: Sequence[float],
    scores: Sequence[float],
    steps: list[NormalStep] | None = None,
) -> float:
    """The running rating after the table's games (effective opponent ratings ``opponents``, results ``scores``).

    ``steps``, when given, receives one NormalStep per game; the rating code calls this once per sweep, so the
    hot path stays free of allocations when ``steps`` is None.
    """
    r = float(rating)
    b = bonus_count
    for o, s in zip(opponents, scores, strict=True):
        # K(r) inlined (constants.k_factor): this loop is the engine's hot path.
        if r >= 1560.0:
            k = 16 if r >= 2240.0 else 20 if r >= 1920.0 else 24
        else:
            k = 28 if r >= 1280.0 else 32 if r >= 1040.0 else 36 if r >= 720.0 else 40
        d = o - r
        e = 1.0 / (1.0 + 10.0 ** (d / 400.0))
        change = k * (s - e)
        upset = False
        if s == 1.0 and d > 0.0:
            gain = k * d / 160.0
            if gain > change:
                change = gain
                upset = True
        bonus = (BONUS_CEILING - r) / 200.0 if r < BONUS_CEILING and b < BONUS_GAMES else 0.0
        if steps is not None:
            steps.append((r, e, k, change, upset, bonus))
        r += change + bonus
        b += 1
    return r


def normal_change(rating: int, bonus_count: int, opponents: Sequence[float], scores: Sequence[float]) -> int:
    """The table's rounded change (the one rounding of §4)."""
    return round(run_normal(rating, bonus_count, opponents, scores) - rating)
