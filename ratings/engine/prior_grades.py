"""Prior grades (R7; docs/rules.md §1, §2): which exist, how they read, and the rating each stands for.

A prior grade is a grade from elsewhere, kept apart from the FESA grade: n Kyu, amateur n Dan or
professional n Dan. ``PRIOR_GRADE_LEVELS`` is the one statement of which exist; the database's constraint,
the forms and the file imports take it from here.

Amateur Dan goes to 8 because docs/rules.md §2 gives a rating for amateur 7 and 8 Dan. Professional Dan goes to 9:
the rules rate "a professional n Dan" without a bound, but the Japan Shogi Association awards no grade above
9 Dan, so a professional 10 Dan can only be a typing error and is refused rather than rated at 2810.
"""

from __future__ import annotations

from typing import Final

from .constants import midpoint
from .errors import InvalidTable
from .grades import grade_of
from .literals import PriorGradeKind, is_prior_grade_kind
from .types import PriorGrade

PRIOR_GRADE_LEVELS: Final[dict[PriorGradeKind, tuple[int, int]]] = {
    "kyu": (1, 20),
    "dan": (1, 8),
    "pro": (1, 9),
}
"""The lowest and highest level of each kind of prior grade, both included."""

_UNITS: Final[dict[PriorGradeKind, str]] = {"kyu": "Kyu", "dan": "Dan", "pro": "Dan pro"}
_AMATEUR_8_DAN: Final = 3000
_PRO_BASE: Final = 2510
_PRO_STEP: Final = 30


def is_prior_grade(kind: str, level: int | None) -> bool:
    """Whether ``level`` ``kind`` is a prior grade that exists (unknown kinds and missing levels are not)."""
    if not is_prior_grade_kind(kind) or level is None:
        return False
    low, high = PRIOR_GRADE_LEVELS[kind]
    return low <= level <= high


def all_prior_grades() -> list[PriorGrade]:
    """Every prior grade that exists: Kyu from 20 down to 1, then amateur Dan, then professional Dan."""
    kyu_low, kyu_high = PRIOR_GRADE_LEVELS["kyu"]
    out = [PriorGrade("kyu", n) for n in range(kyu_high, kyu_low - 1, -1)]
    for kind in ("dan", "pro"):
        low, high = PRIOR_GRADE_LEVELS[kind]
        out.extend(PriorGrade(kind, n) for n in range(low, high + 1))
    return out


def prior_grade_label(kind: str, level: int) -> str:
    """ "3 Kyu", "2 Dan", "9 Dan pro"."""
    return f"{level} {_UNITS[kind]}"  # type: ignore[index]


def prior_grade_rating(prior: PriorGrade) -> int:
    """The rating a prior grade stands for (R7): the MP of the grade; amateur 7/8 Dan 2760/3000; pro 2510+30n."""
    kind, level = prior.kind, prior.level
    if not is_prior_grade(kind, level):
        raise InvalidTable(f"no such prior grade: {kind} {level}")
    if kind == "kyu":
        return midpoint(grade_of(level, "Kyu"))
    if kind == "dan":
        # 7 Dan is on the scale for the tests of §7, so its MP (2760) is there; 8 Dan is not.
        return _AMATEUR_8_DAN if level == 8 else midpoint(grade_of(level, "Dan"))
    return _PRO_BASE + _PRO_STEP * level
