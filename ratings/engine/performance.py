"""Performance rating (shared RULES.md §5; rules R5, R6, R7).

The performance rating of pairs ``(o_i, s_i)`` is the real root ``x`` of ``Σ (s_i − 1/(1 + 10^((o_i − x)/400)))``,
rounded to the nearest integer (exact halves to even) and at least 1. No K, no upset gain, no bonus. A 0% score
has no root and gives 1; a 100% score gets a temporary draw against the highest opponent, never stored.

The root is found by safeguarded Newton steps on the form ``E_i = 1/(1 + a_i·t)`` with ``a_i = 10^(o_i/400)`` and
``t = 10^(−x/400)``, so one power per step whatever the number of pairs. The rounding is decided on the exact
root: when the solution lies within 1e-6 of a half, the sign of the sum at the half decides, and only a sum that
is zero there up to rounding noise counts as an exact half (§5: we keep the exact root where the program's own
looser solver may fall either side).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

_LN10_400 = math.log(10.0) / 400.0
_MAX_STEP = 800.0
_TOLERANCE = 1e-7
_HALF_WINDOW = 1e-6
_MAX_ITERATIONS = 200


def weight_of(opponent: float) -> float:
    """``a = 10^(o/400)``, the per-opponent constant of the expectation."""
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
    """The root of ``score − Σ 1/(1 + weights_i·10^(−x/400))``; needs ``0 < score < len(weights)``."""
    x = guess
    lo = -math.inf
    hi = math.inf
    for _ in range(_MAX_ITERATIONS):
        f, slope = _excess_and_slope(weights, score, x)
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
    """``(weights, score)`` of ``pairs`` for ``solve_root``, with the temporary draw at 100%; None at 0%."""
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
    return [weight_of(o) for o in opponents], score


def performance(pairs: Iterable[tuple[float, float]]) -> float | None:
    """The exact performance root of ``pairs`` (with the temporary draw at 100%); None at 0%."""
    prepared = prepare(pairs)
    if prepared is None:
        return None
    weights, score = prepared
    return solve_root(weights, score, initial_guess(weights))


def performance_rating(pairs: Iterable[tuple[float, float]]) -> int:
    """The rounded performance rating of ``pairs``, at least 1; 1 at 0%."""
    prepared = prepare(pairs)
    if prepared is None:
        return 1
    weights, score = prepared
    return round_root(weights, score, solve_root(weights, score, initial_guess(weights)))


def initial_guess(weights: Sequence[float]) -> float:
    """A starting point: the rating whose weight is the mean weight (a mean of the opponents, leaning high)."""
    return 400.0 * math.log10(sum(weights) / len(weights))
