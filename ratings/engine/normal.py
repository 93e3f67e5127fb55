"""The normal rating change of one player over one table (docs/rules.md §4; rules R1, R8, R9).

Per game, in round order, at the running unrounded rating ``r``: the Elo change ``K(r)·(s − E)``, replaced
by the upset gain ``K(r)·(o − r)/160`` when a win against a higher opponent earns more that way, plus the
weak-player bonus ``(1800 − r)/200`` while ``r < 1800`` and fewer than 100 bonus games have been counted.
Nothing is rounded per game: the caller rounds ``r − rating`` once for the whole table (§9: the program does
that, unlike the prose's per-game rounding).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .rules import FESA_RULES, RuleConstants

BONUS_GAMES = 100
BONUS_CEILING = 1800.0


def final_rating(rating: float, bonus_count: int, opponents: Sequence[float], scores: Sequence[float]) -> float:
    """The running rating after the table's games (effective opponent ratings ``opponents``, results
    ``scores``); the table's change is ``round(final_rating(...) - rating)``. The sweeps' hot path.

    The same operations in the same order as the plain reading of §4 (``run_normal`` in
    tests/engine/oracle.py), so the same float to the last bit (tests/engine/test_normal.py compares the two
    on random input). Two things are left out that cannot change the result: the record of the upset, and
    adding a bonus of 0.0 once the bonus no longer applies (``change + 0.0`` is ``change`` unless ``change`` is
    −0.0, which it never is: ``s − E`` is never −0.0 as ``E > 0``, and an upset gain is positive). A player past
    his 100 bonus games, most of them, takes a second loop without the bonus's bookkeeping. An opponent so far
    above that ``10^(d/400)`` passes the largest float has the expectation's float limit, 0.0 (a ``try`` costs
    nothing until it catches). ``scores`` holds one score per opponent; each is read by the opponent's position
    rather than zipped: a ``zip`` given ``strict`` (the one form the linter allows) takes the interpreter's slow
    path for keyword arguments, a cost paid on every evaluation of every sweep.
    """
    r = float(rating)
    b = bonus_count
    if b >= BONUS_GAMES:
        for n, o in enumerate(opponents):
            s = scores[n]
            if r >= 1560.0:
                k = 16 if r >= 2240.0 else 20 if r >= 1920.0 else 24
            else:
                k = 28 if r >= 1280.0 else 32 if r >= 1040.0 else 36 if r >= 720.0 else 40
            d = o - r
            try:
                change = k * (s - 1.0 / (1.0 + 10.0 ** (d / 400.0)))
            except OverflowError:  # an opponent some 123,000 above: E is 0.0, as 1/(1 + inf) would be
                change = k * s
            if s == 1.0 and d > 0.0:
                gain = k * d / 160.0
                if gain > change:
                    change = gain
            r += change
        return r
    for n, o in enumerate(opponents):
        s = scores[n]
        if r >= 1560.0:
            k = 16 if r >= 2240.0 else 20 if r >= 1920.0 else 24
        else:
            k = 28 if r >= 1280.0 else 32 if r >= 1040.0 else 36 if r >= 720.0 else 40
        d = o - r
        try:
            change = k * (s - 1.0 / (1.0 + 10.0 ** (d / 400.0)))
        except OverflowError:  # as above
            change = k * s
        if s == 1.0 and d > 0.0:
            gain = k * d / 160.0
            if gain > change:
                change = gain
        if r < BONUS_CEILING and b < BONUS_GAMES:
            r += change + (BONUS_CEILING - r) / 200.0
        else:
            r += change
        b += 1
    return r


FinalRating = Callable[[float, int, Sequence[float], Sequence[float]], float]


def final_rating_by(rules: RuleConstants) -> FinalRating:
    """``final_rating`` under ``rules``: FESA's own function for ``FESA_RULES``, else the general form, which
    reads K and the bonus from ``rules`` with the same operations in the same order (so FESA's constants give
    the same float either way: tests/engine/test_rules.py)."""
    if rules is FESA_RULES:
        return final_rating
    k_factor = rules.k_factor
    bonus = rules.bonus

    def general(rating: float, bonus_count: int, opponents: Sequence[float], scores: Sequence[float]) -> float:
        r = float(rating)
        b = bonus_count
        for o, s in zip(opponents, scores, strict=True):
            k = k_factor(r)
            d = o - r
            try:
                change = k * (s - 1.0 / (1.0 + 10.0 ** (d / 400.0)))
            except OverflowError:  # as in final_rating
                change = k * s
            if s == 1.0 and d > 0.0:
                gain = k * d / 160.0
                if gain > change:
                    change = gain
            extra = bonus(r, b)
            r += change + extra if extra else change
            b += 1
        return r

    return general
