"""The grade scale and the public grade (docs/rules.md §1, §2, §8)."""

from __future__ import annotations

import pytest

from ratings.engine.grades import (
    AWARDED_GRADES,
    DAN_GRADES,
    FIRST_DAN,
    LAST_KYU,
    NO_GRADE,
    NSR_CONSENT_FROM,
    SEVEN_DAN,
    TOP_AWARDED_GRADE,
    grade_label,
    grade_of,
    grade_parts,
    is_dan,
    needs_nsr_consent,
    public_grade,
)


def test_the_scale_runs_from_20_kyu_to_6_dan() -> None:
    assert grade_of(20, "Kyu") == 1
    assert grade_of(1, "Kyu") == LAST_KYU
    assert grade_of(1, "Dan") == FIRST_DAN
    assert grade_of(5, "Dan") == NSR_CONSENT_FROM
    assert grade_of(6, "Dan") == TOP_AWARDED_GRADE
    assert grade_of(7, "Dan") == SEVEN_DAN
    assert list(AWARDED_GRADES) == [NO_GRADE, *range(1, 27)]
    assert [grade_label(g) for g in DAN_GRADES] == [f"{n} Dan" for n in range(1, 7)]


@pytest.mark.parametrize("grade", range(1, SEVEN_DAN + 1))
def test_grade_parts_inverts_grade_of(grade: int) -> None:
    parts = grade_parts(grade)
    assert parts is not None
    assert grade_of(*parts) == grade


@pytest.mark.parametrize(("level", "unit"), [(0, "Kyu"), (21, "Kyu"), (0, "Dan"), (8, "Dan")])
def test_no_such_grade(level: int, unit: str) -> None:
    with pytest.raises(ValueError, match="no such grade"):
        grade_of(level, unit)  # type: ignore[arg-type]


def test_labels() -> None:
    assert grade_label(NO_GRADE) == ""
    assert grade_label(18) == "3 Kyu"
    assert grade_label(22) == "2 Dan"
    with pytest.raises(ValueError, match="no such grade index"):
        grade_label(28)


def test_dan_grades_wait_and_5_dan_needs_the_nsr() -> None:
    assert [g for g in AWARDED_GRADES if is_dan(g)] == list(DAN_GRADES)
    assert [g for g in AWARDED_GRADES if needs_nsr_consent(g)] == [grade_of(5, "Dan"), grade_of(6, "Dan")]


@pytest.mark.parametrize(
    ("computed", "held", "shown"),
    [
        (NO_GRADE, NO_GRADE, NO_GRADE),
        (18, NO_GRADE, 18),  # a Kyu grade shows at once
        (LAST_KYU, NO_GRADE, LAST_KYU),
        (FIRST_DAN, NO_GRADE, LAST_KYU),  # 1 Dan pending: 1 Kyu shows
        (22, FIRST_DAN, FIRST_DAN),  # 2 Dan computed, 1 Dan approved, 2 Dan pending
        (22, 22, 22),
        (FIRST_DAN, 22, 22),  # a correction left the computed grade below an approved one: it stays
        (15, FIRST_DAN, FIRST_DAN),
        (25, 24, 24),
    ],
)
def test_public_grade(computed: int, held: int, shown: int) -> None:
    assert public_grade(computed, held) == shown


def test_public_grade_without_held_grades_caps_at_1_kyu() -> None:
    assert [public_grade(g) for g in AWARDED_GRADES] == [min(g, LAST_KYU) for g in AWARDED_GRADES]
