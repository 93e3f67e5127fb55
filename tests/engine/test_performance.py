"""docs/rules.md §5: the performance rating — the exact root, rounded half to even, at least 1; 0% and 100%."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine.performance import (
    _excess_and_slope,
    initial_guess,
    performance,
    performance_rating,
    solve_root,
    weight_of,
)


def excess(pairs: list[tuple[float, float]], x: float) -> float:
    return sum(s - 1 / (1 + 10 ** ((o - x) / 400)) for o, s in pairs)


def test_root_of_the_expectation_sum() -> None:
    pairs = [(1500.0, 1.0), (1700.0, 0.0), (1320.0, 0.5), (1810.0, 1.0)]
    root = performance(pairs)
    assert root is not None
    assert excess(pairs, root) == pytest.approx(0, abs=1e-9)
    assert performance_rating(pairs) == round(root)


def test_even_score_against_one_rating_is_that_rating() -> None:
    assert performance_rating([(1500, 1), (1500, 0)]) == 1500


def test_zero_percent_gives_1() -> None:
    assert performance([(1500, 0), (2000, 0)]) is None
    assert performance_rating([(1500, 0), (2000, 0)]) == 1


def test_hundred_percent_adds_a_draw_against_the_highest_opponent() -> None:
    with_draw = performance([(1500, 1), (1700, 1), (1700, 0.5)])
    assert performance([(1500, 1), (1700, 1)]) == with_draw
    assert performance_rating([(1500, 1), (1700, 1)]) == round(with_draw or 0)


def test_at_least_1() -> None:
    pairs = [(400.0, 0.0)] * 30 + [(400.0, 0.5)]
    root = performance(pairs)
    assert root is not None and root < 0
    assert performance_rating(pairs) == 1


@pytest.mark.parametrize(("low", "rating"), [(1000, 1000), (1002, 1002)])
def test_an_exact_half_rounds_to_even(low: int, rating: int) -> None:
    """A win against low + 1 and a loss against low: the root is exactly low + 0.5."""
    pairs = [(low + 1, 1), (low, 0)]
    assert performance(pairs) == pytest.approx(low + 0.5, abs=1e-9)
    assert performance_rating(pairs) == rating


def test_an_odd_sum_pair_rounds_by_the_exact_root() -> None:
    """The program's looser solver may fall on either side of 1001.5; the exact root rounds to even, 1002."""
    assert performance_rating([(1003, 1), (1000, 0)]) == 1002


def test_solution_is_within_a_millionth() -> None:
    pairs = [(400.0, 1.0)] * 3 + [(2900.0, 0.0)] * 2 + [(1234.0, 0.5)]
    root = performance(pairs)
    assert root is not None
    slope = sum(e * (1 - e) for e in (1 / (1 + 10 ** ((o - root) / 400)) for o, _ in pairs)) * 2.302585 / 400
    assert abs(excess(pairs, root) / slope) < 1e-6


def test_needs_a_result() -> None:
    with pytest.raises(ValueError, match="at least one"):
        performance([])


def _solve_root_by_steps(weights: list[float], score: float, guess: float) -> float:
    """solve_root as first written, one ``_excess_and_slope`` call a step: the reference for the loop that
    solve_root writes out."""
    x, lo, hi = guess, -math.inf, math.inf
    for _ in range(200):
        f, slope = _excess_and_slope(weights, score, x)
        if f == 0.0:
            return x
        if f > 0.0:
            lo = x
        else:
            hi = x
        slope *= math.log(10.0) / 400.0
        step = f / slope if slope > 0.0 else math.copysign(800.0, f)
        step = max(-800.0, min(800.0, step))
        if abs(step) < 1e-7:
            return x + step
        new = x + step
        if not lo < new < hi:
            new = 0.5 * (lo + hi)
        x = new
    return x


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-3000, 6000), st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=40).filter(
        lambda pairs: 0.0 < sum(s for _, s in pairs) < len(pairs)
    ),
    st.one_of(st.none(), st.floats(-4000.0, 9000.0)),
)
def test_solve_root_is_the_step_by_step_root_to_the_bit(pairs: list[tuple[int, float]], guess: float | None) -> None:
    weights = [weight_of(o) for o, _ in pairs]
    score = sum(s for _, s in pairs)
    start = initial_guess(weights) if guess is None else guess
    assert solve_root(weights, score, start).hex() == _solve_root_by_steps(weights, score, start).hex()
