"""The way to the next grade read from a state (ratings/engine/outlook.py) agrees with the promotion tests."""

from __future__ import annotations

import pytest

from ratings.engine.constants import lb_run_length, lower_bound, midpoint, mp_run_length, upper_bound
from ratings.engine.grades import SIX_DAN, grade_of
from ratings.engine.outlook import Route, next_grade
from ratings.engine.promotions import GradeState, established_test, provisional_test
from ratings.engine.types import PlayerState


def established(grade: int, **runs: object) -> PlayerState:
    return PlayerState(rating=1500, result_list=None, game_count=40, grade=grade, **runs)  # type: ignore[arg-type]


def test_a_newcomer_is_tested_from_game_nine_against_the_provisional_bound() -> None:
    outlook = next_grade(PlayerState(rating=1200, result_list=((1200, 1.0),) * 3, grade=grade_of(10, "Kyu")))
    assert outlook is not None
    assert (outlook.grade, outlook.test, outlook.games_until_tested) == (grade_of(9, "Kyu"), "unrated", 5)
    assert outlook.at_once == Route(upper_bound(grade_of(8, "Kyu")), 1)
    assert outlook.midpoint_run is None and outlook.lower_bound_run is None


def test_the_provisional_bound_is_the_one_the_provisional_test_promotes_at() -> None:
    state = PlayerState(rating=1600, result_list=None, game_count=12, grade=grade_of(2, "Kyu"))
    outlook = next_grade(state)
    assert outlook is not None and outlook.test == "provisional" and outlook.at_once is not None
    bound = outlook.at_once.rating
    for rating, promoted in ((bound, True), (bound - 1, False)):
        out: list = []
        provisional_test(GradeState(state.grade), rating, 13, None, out)
        assert bool(out) is promoted


@pytest.mark.parametrize("grade", [grade_of(5, "Kyu"), grade_of(1, "Kyu"), grade_of(2, "Dan")])
def test_the_established_routes_promote_exactly_when_they_say(grade: int) -> None:
    outlook = next_grade(established(grade, mp_run=1, lb_run=1, lb_mp_seen=True))
    assert outlook is not None and outlook.test == "established"
    assert outlook.at_once == Route(upper_bound(grade + 1), 1)
    x = grade + 1
    if mp_run_length(x) is not None:
        assert outlook.midpoint_run == Route(midpoint(x), int(mp_run_length(x)) - 1)  # type: ignore[arg-type]
        state, out = GradeState(grade, 1, True, 1), []
        for number in range(outlook.midpoint_run.games):
            established_test(state, outlook.midpoint_run.rating, 40 + number, None, out)
        assert out and out[0].grade == x
    if lb_run_length(x) is not None:
        assert outlook.lower_bound_run == Route(lower_bound(x), int(lb_run_length(x)) - 1)  # type: ignore[arg-type]


def test_a_dan_grade_needs_approval_and_six_dan_is_the_last() -> None:
    dan = next_grade(established(grade_of(1, "Kyu")))
    assert dan is not None and dan.grade == grade_of(1, "Dan") and dan.needs_approval
    kyu = next_grade(established(grade_of(3, "Kyu")))
    assert kyu is not None and not kyu.needs_approval
    assert next_grade(established(SIX_DAN)) is None
