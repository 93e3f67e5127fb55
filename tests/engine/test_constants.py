"""docs/rules.md §2 (K, grades, handicaps) and §3 (the rank scale in float32)."""

from __future__ import annotations

import math
from typing import get_args

import pytest

from ratings.engine import grade_of
from ratings.engine.categories import CATEGORIES
from ratings.engine.constants import (
    HANDICAP_CODES,
    HANDICAPS,
    handicap_shift,
    k_factor,
    lb_run_length,
    lower_bound,
    midpoint,
    mp_run_length,
    rank_of,
    rating_of,
    upper_bound,
)
from ratings.engine.literals import Category, HandicapCode

SEVEN_DAN = grade_of(7, "Dan")


@pytest.mark.parametrize(
    ("boundary", "at", "below"),
    [(2240, 16, 20), (1920, 20, 24), (1560, 24, 28), (1280, 28, 32), (1040, 32, 36), (720, 36, 40)],
)
def test_k_factor_changes_exactly_at_each_boundary(boundary: int, at: int, below: int) -> None:
    assert k_factor(boundary) == at
    assert k_factor(boundary + 0.5) == at
    assert k_factor(math.nextafter(boundary, 0)) == below


def test_k_factor_at_the_extremes() -> None:
    assert k_factor(3000) == 16
    assert k_factor(0) == 40
    assert k_factor(-50) == 40


@pytest.mark.parametrize(
    ("grade", "lb", "mp", "ub", "n_lb", "n_mp"),
    [
        (grade_of(20, "Kyu"), 0, 40, 80, 6, 3),
        (grade_of(19, "Kyu"), 80, 120, 160, 6, 3),
        (grade_of(12, "Kyu"), 640, 680, 720, 6, 3),
        (grade_of(11, "Kyu"), 720, 760, 800, 8, 4),
        (grade_of(8, "Kyu"), 960, 1000, 1040, 8, 4),
        (grade_of(7, "Kyu"), 1040, 1080, 1120, 10, 5),
        (grade_of(5, "Kyu"), 1200, 1240, 1280, 10, 5),
        (grade_of(4, "Kyu"), 1280, 1320, 1360, 12, 6),
        (grade_of(3, "Kyu"), 1360, 1410, 1460, 12, 6),
        (grade_of(2, "Kyu"), 1460, 1510, 1560, 12, 6),
        (grade_of(1, "Kyu"), 1560, 1620, 1680, 14, 7),
        (grade_of(1, "Dan"), 1680, 1740, 1800, 14, 7),
        (grade_of(2, "Dan"), 1800, 1860, 1920, 14, 7),
        (grade_of(3, "Dan"), 1920, 2000, 2080, 16, 8),
        (grade_of(4, "Dan"), 2080, 2160, 2240, 16, 8),
        (grade_of(5, "Dan"), 2240, 2340, 2440, None, 10),
        (grade_of(6, "Dan"), 2440, 2540, 2640, None, None),
        (SEVEN_DAN, 2640, 2760, 2880, math.inf, math.inf),
    ],
)
def test_grade_table(grade: int, lb: int, mp: int, ub: int, n_lb: float | None, n_mp: float | None) -> None:
    assert (lower_bound(grade), midpoint(grade), upper_bound(grade)) == (lb, mp, ub)
    assert (lb_run_length(grade), mp_run_length(grade)) == (n_lb, n_mp)


def test_every_kyu_from_18_to_12_has_lb_in_steps_of_80_and_mp_40_above() -> None:
    for level in range(18, 11, -1):
        grade = grade_of(level, "Kyu")
        assert lower_bound(grade) == 160 + 80 * (18 - level)
        assert midpoint(grade) == lower_bound(grade) + 40


def test_handicap_codes_are_the_keys_of_the_handicap_values_and_the_type() -> None:
    assert tuple(HANDICAPS) == HANDICAP_CODES
    assert set(get_args(HandicapCode)) == set(HANDICAP_CODES)


def test_categories_are_the_words_of_the_type() -> None:
    assert get_args(Category) == CATEGORIES


def test_handicap_values() -> None:
    assert HANDICAPS == {
        "S": 0.2, "M": 0.2, "L": 0.6, "B": 1.5, "R": 2.1, "RL": 2.7, "2p": 3.6, "4p": 5.0, "5p": 6.5, "6p": 8.0,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("rating", "rank"),
    [(0, 0.0), (-100, 0.0), (40, -4.5), (80, -4.0), (400, 0.0), (1460, 13.0), (1510, 13.5), (2880, 22.0), (9999, 24.0)],
)
def test_rank_of_on_and_between_the_points(rating: int, rank: float) -> None:
    assert rank_of(rating) == rank


def test_rank_of_is_rounded_to_float32() -> None:
    value = rank_of(1750)  # 15 + 70/120 = 15.58333...
    assert value != 15 + 70 / 120
    assert value == pytest.approx(15 + 70 / 120, abs=1e-6)


@pytest.mark.parametrize(
    ("rank", "rating"), [(-5.5, 1), (math.nextafter(-5.0, -6.0), 1), (-5.0, 0), (-4.5, 40), (13.0, 1460), (15.5, 1740)]
)
def test_rating_of_is_the_rounded_inverse_and_1_below_rank_minus_5(rank: float, rating: int) -> None:
    assert rating_of(rank) == rating


def test_worked_example_a_1750_giving_a_rook() -> None:
    """§3: rank 15.5833 − 2.1 = 13.4833 → 1460 + 48.33 → 1508."""
    assert handicap_shift(1750, 2.1) == 1508


def test_worked_example_float32_shows_2879_giving_5_pieces() -> None:
    """§3: exactly 1739.5, which rounds to 1740; in float32 1739.49988, which gives 1739, as the program does."""
    exact = 1680 + (21 + 239 / 240 - 6.5 - 15) * 120
    assert round(exact) == 1740
    assert handicap_shift(2879, 6.5) == 1739
