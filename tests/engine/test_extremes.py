"""Numeric extremes (issue 16): ratings far above or below the opponents, long all-win or all-loss result lists,
runaway values. The engine rates them exactly where floats can hold the answer, and otherwise raises its own
error naming the table; no other exception leaves it."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import EngineError, PlayerState, TableInput, rate_table
from ratings.engine.normal import final_rating
from ratings.engine.performance import (
    initial_guess,
    performance,
    performance_rating,
    round_root,
    safe_root,
    safe_round,
    solve_root,
    weight_of,
)

from .builders import make_established, make_game, make_newcomer, make_table, make_unrated, rate, state_of
from .test_properties import SCORES, tables

FAR = 200_000  # above 123,000: 10^(FAR/400) is beyond the largest float
HUGE = st.integers(-1_000_000, 10_000_000)
REAL = st.integers(1, 3500)


def expectation(o: float, x: float) -> float:
    """``1/(1 + 10^((o − x)/400))``, written so that no power overflows."""
    d = (o - x) / 400.0
    return 1.0 / (1.0 + 10.0**d) if d <= 0 else 10.0**-d / (1.0 + 10.0**-d)


def pairs_of(opponents: list[int], scores: list[float]) -> list[tuple[float, float]]:
    return list(zip(opponents, scores, strict=False))


@settings(deadline=None, max_examples=300)
@given(st.lists(st.tuples(REAL, SCORES), min_size=1, max_size=30))
def test_safe_form_agrees_with_the_fast_one_where_both_apply(pairs: list[tuple[float, float]]) -> None:
    opponents = [o for o, _ in pairs]
    score = sum(s for _, s in pairs)
    if score in (0.0, len(pairs)):
        return  # no root (0%) or the temporary draw: covered by performance_rating below
    weights = [weight_of(o) for o in opponents]
    fast = solve_root(weights, score, initial_guess(weights))
    safe = safe_root(opponents, score)
    assert math.isclose(fast, safe, abs_tol=1e-6)
    assert round_root(weights, score, fast) == safe_round(opponents, score, safe)


@settings(deadline=None, max_examples=300)
@given(st.lists(st.tuples(HUGE, SCORES), min_size=1, max_size=60))
def test_performance_of_any_ratings_is_the_root_rounded(pairs: list[tuple[float, float]]) -> None:
    rating = performance_rating(pairs)
    root = performance(pairs)
    score = sum(s for _, s in pairs)
    if score == 0.0:
        assert root is None and rating == 1
        return
    assert root is not None and math.isfinite(root)
    opponents = [o for o, _ in pairs]
    if score == len(pairs):
        opponents.append(max(opponents))
        score += 0.5
    # The sum changes sign around the root (it decreases in x); one unit of slack for the floats' spacing.
    step = max(1e-6, abs(root) * 1e-12)
    assert score - sum(expectation(o, root - step) for o in opponents) > -1e-9 * len(opponents)
    assert score - sum(expectation(o, root + step) for o in opponents) < 1e-9 * len(opponents)
    assert rating == max(1, round(root)) or abs(root - math.floor(root) - 0.5) < 1e-6


@settings(deadline=None, max_examples=200)
@given(st.lists(REAL, min_size=1, max_size=20), st.integers(-500_000, 5_000_000))
def test_performance_moves_with_its_opponents(opponents: list[int], shift: int) -> None:
    """The root of opponents all moved by ``shift`` is the old root moved by ``shift``, at any height."""
    scores = [float(i % 2) for i in range(len(opponents))]
    base = performance(pairs_of(opponents, scores))
    moved = performance(pairs_of([o + shift for o in opponents], scores))
    if base is None:
        assert moved is None
    else:
        assert moved is not None and math.isclose(moved, base + shift, abs_tol=1e-5)


@settings(deadline=None, max_examples=300)
@given(st.integers(-1_000_000, 10_000_000), st.integers(0, 100), st.lists(st.tuples(HUGE, SCORES), max_size=20))
def test_normal_rating_of_any_ratings_is_finite(rating: int, bonus: int, games: list[tuple[int, float]]) -> None:
    opponents = [float(o) for o, _ in games]
    r = final_rating(rating, bonus, opponents, [s for _, s in games])
    assert math.isfinite(r)


def test_newcomer_against_a_player_far_above_rates_exactly() -> None:
    """One win and one loss against the same rating put the root exactly on it, however high."""
    states = {"N": make_newcomer(), "T": make_established(FAR)}
    outcomes = rate(states, [make_game(1, "N", "T", 1.0), make_game(2, "N", "T", 0.0)])
    assert outcomes["N"].rating_after == FAR
    assert outcomes["T"].rating_after == FAR  # a win and a loss far below: E = 1 and E = 0, in floats


def test_all_wins_far_above_take_the_temporary_draw() -> None:
    outcomes = rate({"N": make_newcomer(), "T": make_established(FAR)}, [make_game(1, "N", "T", 1.0)])
    beaten = outcomes["T"].rating_after  # what N's games see: T's value after the table
    assert FAR - 16 <= beaten < FAR
    assert outcomes["N"].rating_after == beaten + round(400 * math.log10(3))  # a win and a draw: 1.5 of 2


def test_normal_player_beating_one_far_above_gains_the_upset() -> None:
    outcomes = rate({"A": make_established(1500), "T": make_established(FAR)}, [make_game(1, "A", "T", 1.0)])
    assert outcomes["T"].rating_after == FAR - 16  # E = 1.0 for him, in floats
    seen = FAR - 16  # the value A's game sees
    assert outcomes["A"].rating_after == 1500 + round(28 * (seen - 1500) / 160)  # E = 0.0: the upset gain wins


def test_long_result_lists_far_above_and_below() -> None:
    winner = make_unrated(FAR, [(FAR, 1.0)] * 7)
    loser = make_unrated(1, [(FAR, 0.0)] * 7)
    outcomes = rate({"W": winner, "L": loser}, [make_game(1, "W", "L", 1.0)])
    # Beating L (seen at 400) is a sure win, E = 1 in floats; the rest: 7 wins and the draw at FAR, 7.5 of 8.
    assert outcomes["W"].rating_after == round(FAR + 400 * math.log10(15))
    assert outcomes["L"].rating_after == 1  # no point at all


extreme_states = st.one_of(
    st.just(PlayerState()),
    st.builds(
        state_of,
        rating=HUGE,
        result_list=st.one_of(
            st.lists(st.tuples(HUGE, SCORES), min_size=1, max_size=12),
            st.builds(lambda o, n, s: [(o, s)] * n, HUGE, st.integers(1, 200), st.sampled_from([0.0, 1.0])),
        ).map(tuple),
    ),
    st.builds(state_of, rating=HUGE, result_list=st.none(), game_count=st.integers(9, 10_000)),
)


@settings(deadline=None, max_examples=200)
@given(tables(extreme_states))
def test_extreme_tables_rate_or_raise_the_engines_error(table: TableInput) -> None:
    try:
        result = rate_table(table, max_sweeps=200)
    except EngineError as exc:
        assert repr(table.name) in str(exc)
        return
    assert all(isinstance(o.rating_after, int) for o in result.outcomes)


def test_a_runaway_table_of_newcomers_ends_in_the_engines_error_not_an_overflow() -> None:
    """Three newcomers who beat each other in a ring, with opponents' values climbing sweep after sweep."""
    table = make_table(
        {"A": make_unrated(FAR - 1000, [(FAR, 1.0)]), "B": make_newcomer(), "C": make_newcomer()},
        [make_game(1, "A", "B", 1.0), make_game(2, "B", "C", 1.0), make_game(3, "C", "A", 1.0)],
    )
    try:
        rate_table(table)
    except EngineError as exc:
        assert repr(table.name) in str(exc)
