"""Prior grades (R7; docs/rules.md §1, §2): which exist, their labels, and the rating each stands for."""

from __future__ import annotations

import pytest

from ratings.engine import InvalidTable, PriorGrade
from ratings.engine.prior_grades import (
    PRIOR_GRADE_LEVELS,
    all_prior_grades,
    is_prior_grade,
    prior_grade_label,
    prior_grade_rating,
)


@pytest.mark.parametrize(
    ("prior", "rating"),
    [
        (PriorGrade("kyu", 20), 40),
        (PriorGrade("kyu", 3), 1410),
        (PriorGrade("kyu", 1), 1620),
        (PriorGrade("dan", 1), 1740),
        (PriorGrade("dan", 6), 2540),
        (PriorGrade("dan", 7), 2760),
        (PriorGrade("dan", 8), 3000),
        (PriorGrade("pro", 1), 2540),
        (PriorGrade("pro", 4), 2630),
        (PriorGrade("pro", 9), 2780),
    ],
)
def test_rating_of_a_prior_grade(prior: PriorGrade, rating: int) -> None:
    assert prior_grade_rating(prior) == rating


@pytest.mark.parametrize(
    "prior",
    [
        PriorGrade("kyu", 21),
        PriorGrade("kyu", 0),
        PriorGrade("dan", 9),
        PriorGrade("dan", 0),
        PriorGrade("pro", 10),
        PriorGrade("pro", 0),
    ],
)
def test_an_impossible_prior_grade_is_invalid(prior: PriorGrade) -> None:
    assert not is_prior_grade(prior.kind, prior.level)
    with pytest.raises(InvalidTable, match="prior grade"):
        prior_grade_rating(prior)


@pytest.mark.parametrize(("kind", "level"), [("kyu", 20), ("kyu", 1), ("dan", 1), ("dan", 8), ("pro", 1), ("pro", 9)])
def test_the_ends_of_each_kind_are_prior_grades(kind: str, level: int) -> None:
    assert is_prior_grade(kind, level)


@pytest.mark.parametrize(("kind", "level"), [("", 3), ("amateur", 3), ("kyu", None), ("Kyu", 3)])
def test_an_unknown_kind_or_a_missing_level_is_no_prior_grade(kind: str, level: int | None) -> None:
    assert not is_prior_grade(kind, level)


def test_all_prior_grades_are_exactly_the_valid_ones_in_list_order() -> None:
    grades = all_prior_grades()
    assert len(grades) == len(set(grades)) == 20 + 8 + 9
    assert grades[0] == PriorGrade("kyu", 20)
    assert grades[19] == PriorGrade("kyu", 1)
    assert grades[20] == PriorGrade("dan", 1)
    assert grades[-1] == PriorGrade("pro", 9)
    assert all(is_prior_grade(g.kind, g.level) for g in grades)
    wider = [PriorGrade(kind, n) for kind in PRIOR_GRADE_LEVELS for n in range(0, 30)]
    assert {g for g in wider if is_prior_grade(g.kind, g.level)} == set(grades)


def test_every_prior_grade_has_a_rating() -> None:
    ratings = [prior_grade_rating(g) for g in all_prior_grades()]
    assert all(r > 0 for r in ratings)


@pytest.mark.parametrize(
    ("kind", "level", "label"), [("kyu", 3, "3 Kyu"), ("dan", 2, "2 Dan"), ("pro", 9, "9 Dan pro")]
)
def test_prior_grade_label(kind: str, level: int, label: str) -> None:
    assert prior_grade_label(kind, level) == label
