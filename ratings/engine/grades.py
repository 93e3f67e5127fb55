"""The FESA grade scale and what the public sees of it (docs/rules.md §1, §2, §7 and §8).

Grades are numbered on one scale so that "next grade" is +1: 0 = no grade, 1 = 20 Kyu .. 20 = 1 Kyu,
21 = 1 Dan .. 26 = 6 Dan, and 27 = 7 Dan, which exists only as the "next grade" of a 6 Dan in the tests of §7
and is never awarded. The database stores grades on this scale, so its choices come from ``AWARDED_GRADES``.
"""

from __future__ import annotations

from typing import Final

from .literals import GradeUnit

NO_GRADE: Final = 0
LAST_KYU: Final = 20  # 1 Kyu
FIRST_DAN: Final = 21
NSR_CONSENT_FROM: Final = 25
"""5 Dan and 6 Dan are awarded only with the Japan Shogi Association's (NSR) consent (R10)."""
SIX_DAN: Final = 26
SEVEN_DAN: Final = 27
TOP_AWARDED_GRADE: Final = SIX_DAN

AWARDED_GRADES: Final = range(NO_GRADE, TOP_AWARDED_GRADE + 1)
"""Every grade a player can hold, no grade included: what a grade column may store."""
DAN_GRADES: Final = range(FIRST_DAN, TOP_AWARDED_GRADE + 1)
"""The grades a grade officer decides on (docs/rules.md §8); Kyu grades take effect at once."""


def grade_of(level: int, unit: GradeUnit) -> int:
    """The scale index of ``level`` Kyu (1..20) or ``level`` Dan (1..7)."""
    if unit == "Kyu" and 1 <= level <= 20:
        return 21 - level
    if unit == "Dan" and 1 <= level <= 7:
        return 20 + level
    raise ValueError(f"no such grade: {level} {unit}")


def grade_parts(grade: int) -> tuple[int, GradeUnit] | None:
    """(level, "Kyu"|"Dan") of a scale index, or None for no grade."""
    if grade == NO_GRADE:
        return None
    if 1 <= grade <= LAST_KYU:
        return 21 - grade, "Kyu"
    if FIRST_DAN <= grade <= SEVEN_DAN:
        return grade - 20, "Dan"
    raise ValueError(f"no such grade index: {grade}")


def grade_label(grade: int) -> str:
    """ "3 Kyu", "1 Dan", or "" for no grade."""
    parts = grade_parts(grade)
    return "" if parts is None else f"{parts[0]} {parts[1]}"


def is_dan(grade: int) -> bool:
    """A Dan grade waits for a grade officer's approval before the public sees it (docs/rules.md §8)."""
    return grade >= FIRST_DAN


def needs_nsr_consent(grade: int) -> bool:
    return grade >= NSR_CONSENT_FROM


def public_grade(computed: int, held: int = NO_GRADE) -> int:
    """The grade the public sees, given the engine's ``computed`` grade and the highest grade the player ``held``.

    ``held`` is the highest grade he holds without the engine's say: a Dan grade a grade officer approved or
    the grade of the FESA list he was migrated from (NO_GRADE if none); reading those is the caller's part.
    A Kyu grade shows at once, a Dan grade only once held. A held grade shows even above the computed one: a
    correction that left the computed grade below an approved one flags it, and only the grade officer takes
    it away. So a player computed at 2 Dan who holds 1 Dan shows 1 Dan, and holding nothing, 1 Kyu.
    """
    return max(min(computed, LAST_KYU), held)
