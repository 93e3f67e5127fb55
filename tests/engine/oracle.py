"""A plain reading of RULES.md §6's solution, for checking the engine's faster one.

Every sweep recomputes every player, in table order, storing each value at once; no skipping, no caches. It
uses the engine's per-player formulas (tested on their own) and only replaces the way the table is solved.
"""

from __future__ import annotations

from ratings.engine.constants import HANDICAPS, handicap_shift, prior_grade_rating
from ratings.engine.normal import normal_change
from ratings.engine.performance import performance_rating
from ratings.engine.types import PlayerKey, TableInput


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
