"""docs/rules.md §5: the performance rating — the exact root, rounded half to even, at least 1; 0% and 100%."""

from __future__ import annotations

import pytest

from ratings.engine.performance import performance, performance_rating


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
