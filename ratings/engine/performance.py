"""Performance rating (docs/rules.md §5; rules R5, R6, R7).

The performance rating of pairs ``(o_i, s_i)`` is the real root ``x`` of ``Σ (s_i − 1/(1 + 10^((o_i − x)/400)))``,
rounded to the nearest integer (exact halves to even) and at least 1. No K, no upset gain, no bonus. A 0% score
has no root and gives 1; a 100% score gets a temporary draw against the highest opponent, never stored.

The root is found by safeguarded Newton steps on the form ``E_i = 1/(1 + a_i·t)`` with ``a_i = 10^(o_i/400)`` and
``t = 10^(−x/400)``, so one power per step whatever the number of pairs. The rounding is decided on the exact
root: when the solution lies within 1e-6 of a half, the sign of the sum at the half decides, and only a sum that
is zero there up to rounding noise counts as an exact half (§5: we keep the exact root where the program's own
looser solver may fall either side).

Ratings far from zero (a runaway table of newcomers climbs by hundreds a sweep) would overflow that form: an
opponent beyond ``±FAST_RANGE`` makes ``weight_of`` raise OverflowError, and the caller turns to
``safe_root``/``safe_round``, which evaluate each term from ``10^(−|o − x|/400)`` (never above 1) and search a
bracket that must hold the root. Within the range the fast form's numbers stay far from the float limits, so
its results, and every rating of a real history, are the same to the last bit as before the safe form existed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Final

NO_PERFORMANCE: Final = 1
"""What a 0% score gives: the rules' floor, not a measure of strength; the pages print "–" for it, as for a
player without a rating."""

_LN10_400 = math.log(10.0) / 400.0
_MAX_STEP = 800.0
_TOLERANCE = 1e-7
_HALF_WINDOW = 1e-6
_MAX_ITERATIONS = 200
_SAFE_ITERATIONS = 400

FAST_RANGE = 50_000.0
"""Opponents within ``±FAST_RANGE`` have weights within 10^±125; with roots and guesses at most a few thousand
beyond the opponents, every product ``a·t`` stays within 10^±260, far from the float limits."""
GUESS_RANGE = FAST_RANGE + 5_000.0
"""A previous root beyond this (from the safe form) is no start for the fast form."""


def weight_of(opponent: float) -> float:
    """``a = 10^(o/400)``, the per-opponent constant of the expectation; OverflowError beyond ``FAST_RANGE``."""
    if not -FAST_RANGE <= opponent <= FAST_RANGE:
        raise OverflowError(f"opponent rating {opponent} is beyond the fast form's range")
    return float(10.0 ** (opponent / 400.0))


def _excess_and_slope(weights: Sequence[float], score: float, x: float) -> tuple[float, float]:
    """``score − Σ E_i`` at ``x``, and ``Σ E_i·(1 − E_i)``; the first decreases in ``x``.

    Written so that no term loses its digits far from the opponents (a newcomer's estimate can run to
    thousands above them in a table of newcomers): with ``u = a·t``, an opponent below ``x`` (``u < 1``)
    contributes ``E = 1 − u/(1 + u)``, whose whole 1 joins the exact ``score − n_below``; one above
    contributes ``E = 1/(1 + u)`` directly. Every fractional term is then at most 1/2, so the sum near the
    root is accurate relative to its terms, not to the number of games.
    """
    t = 10.0 ** (-x / 400.0)
    whole = score
    fraction = 0.0
    slope = 0.0
    for a in weights:
        u = a * t
        inverse = 1.0 / (1.0 + u)
        if u < 1.0:
            whole -= 1.0
            fraction += u * inverse
        else:
            fraction -= inverse
        slope += u * inverse * inverse
    return whole + fraction, slope


def solve_root(weights: Sequence[float], score: float, guess: float) -> float:
    """The root of ``score − Σ 1/(1 + weights_i·10^(−x/400))``; needs ``0 < score < len(weights)``.

    The sweeps' hot path: ``_excess_and_slope`` is written out in the loop (a call and a tuple per step
    saved), with the same float operations in the same order, so the same root to the last bit
    (tests/engine/test_performance.py compares the two): ``u·inverse`` is taken once for the fraction and
    the slope (``u·inverse·inverse`` is ``(u·inverse)·inverse``), and the opponents below ``x`` are counted
    and taken from ``score`` at once (every partial ``score − 1 − 1 …`` is a whole or half number, exact).
    """
    x = guess
    lo = -math.inf
    hi = math.inf
    for _ in range(_MAX_ITERATIONS):
        t = 10.0 ** (-x / 400.0)
        below = 0
        fraction = 0.0
        slope = 0.0
        for a in weights:
            u = a * t
            inverse = 1.0 / (1.0 + u)
            w = u * inverse
            if u < 1.0:
                below += 1
                fraction += w
            else:
                fraction -= inverse
            slope += w * inverse
        f = (score - below) + fraction
        if f == 0.0:
            return x
        if f > 0.0:
            lo = x
        else:
            hi = x
        slope *= _LN10_400
        step = f / slope if slope > 0.0 else math.copysign(_MAX_STEP, f)
        if step > _MAX_STEP:
            step = _MAX_STEP
        elif step < -_MAX_STEP:
            step = -_MAX_STEP
        if abs(step) < _TOLERANCE:
            return x + step
        new = x + step
        if not lo < new < hi:  # Newton left the bracket (whose violated end is finite): bisect instead
            new = 0.5 * (lo + hi)
        x = new
    return x  # pragma: no cover - Newton with bisection converges long before


def round_root(weights: Sequence[float], score: float, root: float) -> int:
    """``root`` rounded as the exact root would be (halves to even), at least 1."""
    floor = math.floor(root)
    if abs(root - floor - 0.5) < _HALF_WINDOW:
        half = floor + 0.5
        excess, _slope = _excess_and_slope(weights, score, half)
        if abs(excess) <= 1e-12 * len(weights):  # an exact half, up to rounding noise
            value = round(half)
        elif excess > 0.0:  # the sum is still positive at the half: the root lies above it
            value = floor + 1
        else:
            value = floor
    else:
        value = round(root)
    return max(1, value)


def prepare(pairs: Iterable[tuple[float, float]]) -> tuple[list[float], float] | None:
    """``(opponents, score)`` of ``pairs``, with the temporary draw at 100%; None at 0%."""
    opponents: list[float] = []
    score = 0.0
    for o, s in pairs:
        opponents.append(o)
        score += s
    if not opponents:
        raise ValueError("a performance rating needs at least one result")
    if score == 0.0:
        return None
    if score == len(opponents):
        opponents.append(max(opponents))
        score += 0.5
    return opponents, score


def performance(pairs: Iterable[tuple[float, float]]) -> float | None:
    """The exact performance root of ``pairs`` (with the temporary draw at 100%); None at 0%."""
    prepared = prepare(pairs)
    if prepared is None:
        return None
    opponents, score = prepared
    try:
        weights = [weight_of(o) for o in opponents]
    except OverflowError:
        return safe_root(opponents, score)
    return solve_root(weights, score, initial_guess(weights))


def performance_rating(pairs: Iterable[tuple[float, float]]) -> int:
    """The rounded performance rating of ``pairs``, at least 1; 1 at 0%."""
    prepared = prepare(pairs)
    if prepared is None:
        return NO_PERFORMANCE
    opponents, score = prepared
    try:
        weights = [weight_of(o) for o in opponents]
    except OverflowError:
        return safe_round(opponents, score, safe_root(opponents, score))
    return round_root(weights, score, solve_root(weights, score, initial_guess(weights)))


def initial_guess(weights: Sequence[float]) -> float:
    """A starting point: the rating whose weight is the mean weight (a mean of the opponents, leaning high)."""
    return 400.0 * math.log10(sum(weights) / len(weights))


def _safe_excess_and_slope(opponents: Sequence[float], score: float, x: float) -> tuple[float, float]:
    """``_excess_and_slope`` from the opponents themselves, safe at any distance: with ``v = 10^(−|o − x|/400)``
    (at most 1, 0.0 when far), an opponent below ``x`` gives ``E = 1 − v/(1 + v)`` and one above ``E = v/(1 + v)``;
    the slope term ``E·(1 − E)`` is ``v/(1 + v)²`` either way."""
    whole = score
    fraction = 0.0
    slope = 0.0
    for o in opponents:
        d = o - x
        v = 10.0 ** (-abs(d) / 400.0)
        inverse = 1.0 / (1.0 + v)
        if d < 0.0:
            whole -= 1.0
            fraction += v * inverse
        else:
            fraction -= v * inverse
        slope += v * inverse * inverse
    return whole + fraction, slope


def safe_root(opponents: Sequence[float], score: float) -> float:
    """The root of ``score − Σ E_i`` by ``_safe_excess_and_slope``; needs ``0 < score < len(opponents)``.

    The root lies where ``n`` games against the lowest opponent, or against the highest, would give ``score``:
    ``o + 400·log10(score/(n − score))``. Newton steps inside that bracket, halving it whenever a step would
    leave it, so the search ends however wide it is.
    """
    offset = 400.0 * math.log10(score / (len(opponents) - score))
    lo = min(opponents) + offset - 1.0
    hi = max(opponents) + offset + 1.0
    x = 0.5 * (lo + hi)
    for _ in range(_SAFE_ITERATIONS):
        f, slope = _safe_excess_and_slope(opponents, score, x)
        if f == 0.0:
            return x
        if f > 0.0:
            lo = x
        else:
            hi = x
        slope *= _LN10_400
        new = x + f / slope if slope > 0.0 else math.nan
        if abs(new - x) < _TOLERANCE:
            return new
        if not lo < new < hi:
            new = 0.5 * (lo + hi)
            if not lo < new < hi:  # the bracket is down to neighbouring floats
                return new
        x = new
    return x  # pragma: no cover - bisection alone would need far fewer steps


def safe_round(opponents: Sequence[float], score: float, root: float) -> int:
    """``round_root`` for ``safe_root``'s roots."""
    floor = math.floor(root)
    if abs(root - floor - 0.5) < _HALF_WINDOW:
        excess, _slope = _safe_excess_and_slope(opponents, score, floor + 0.5)
        if abs(excess) <= 1e-12 * len(opponents):
            return max(1, round(floor + 0.5))
        return max(1, floor + 1 if excess > 0.0 else floor)
    return max(1, round(root))
