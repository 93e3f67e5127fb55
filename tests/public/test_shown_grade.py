"""The grade a past page shows: Kyu as computed, Dan only as far as held, a held grade never taken away."""

from __future__ import annotations

import pytest

from ratings.selectors.crosstable import shown_grade
from ratings.templatetags.ratings_public import is_kyu

# Scale: 18 = 3 Kyu, 20 = 1 Kyu, 21 = 1 Dan, 22 = 2 Dan, 23 = 3 Dan.


@pytest.mark.parametrize(
    ("computed", "held", "shown"),
    [
        (18, 0, 18),  # a Kyu grade takes effect at once
        (22, 0, 20),  # 2 Dan computed, nothing approved: 1 Kyu shows
        (22, 21, 21),  # 1 Dan approved, 2 Dan pending: 1 Dan shows
        (22, 22, 22),  # approved
        (21, 23, 23),  # 3 Dan approved, then a correction left the history at 1 Dan: flagged, still shown
        (18, 21, 21),  # the same below the Dan grades
    ],
)
def test_shown_grade_follows_decisions(computed: int, held: int, shown: int) -> None:
    assert shown_grade(computed, held) == shown


@pytest.mark.parametrize(("grade", "kyu"), [(None, False), (0, False), (1, True), (20, True), (21, False), (26, False)])
def test_is_kyu_filter_tells_kyu_grades_from_no_grade_and_dan(grade: int | None, kyu: bool) -> None:
    assert is_kyu(grade) is kyu
