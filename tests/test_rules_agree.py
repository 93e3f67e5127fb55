"""The database and the engine state each rule once: the model's choices and constraints follow the engine's.

Every prior grade the engine rates is one the database stores, and nothing else; every grade, category,
result and handicap code a column accepts is one the engine knows.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from ratings.engine.categories import CATEGORIES
from ratings.engine.constants import HANDICAP_CODES
from ratings.engine.grades import AWARDED_GRADES
from ratings.engine.prior_grades import PRIOR_GRADE_LEVELS, all_prior_grades, is_prior_grade
from ratings.engine.scores import PAIRED_RESULTS, RESULT_CODES
from ratings.models import GRADE_CHOICES, Category, GameResult, HandicapCode, Player, PriorGradeKind
from tests.factories import make_player


def _stored(player: Player, kind: str, level: int | None) -> bool:
    try:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(prior_grade_kind=kind, prior_grade_level=level)
    except IntegrityError:
        return False
    return True


@pytest.mark.django_db
def test_the_database_stores_exactly_the_prior_grades_the_engine_rates() -> None:
    player = make_player("Prior")
    # "ama": an unknown kind that fits the column (3 characters), so the check constraint is what refuses it
    candidates = [(kind, level) for kind in ["", *PRIOR_GRADE_LEVELS, "ama"] for level in [None, *range(-1, 31)]]
    stored = {(kind, level) for kind, level in candidates if _stored(player, kind, level)}
    valid = {(g.kind, g.level) for g in all_prior_grades()}
    assert stored - {("", None)} == valid
    assert ("", None) in stored
    assert ("pro", 10) not in stored
    assert all(is_prior_grade(kind, level) for kind, level in valid)


def test_the_prior_grade_kinds_are_the_engines() -> None:
    assert set(PriorGradeKind.values) == set(PRIOR_GRADE_LEVELS)


def test_a_grade_column_takes_the_engines_grades() -> None:
    assert [value for value, _ in GRADE_CHOICES] == list(AWARDED_GRADES)


def test_the_categories_are_the_engines() -> None:
    assert tuple(Category.values) == CATEGORIES


def test_the_result_codes_are_the_engines() -> None:
    assert tuple(GameResult.values) == RESULT_CODES
    assert [r.value for r in GameResult if r.value in PAIRED_RESULTS] == list(PAIRED_RESULTS)


def test_the_handicap_codes_are_the_engines() -> None:
    assert tuple(HandicapCode.values) == HANDICAP_CODES
