"""Template filters of the public pages: grades, signed changes, scores."""

from __future__ import annotations

from django import template

from ratings.engine import grade_label
from ratings.tables import CATEGORY_LABELS, grade_text

register = template.Library()


@register.filter
def grade(value: int | None) -> str:
    """ "3 Kyu", "1 Dan", or "" for no grade."""
    return grade_label(value or 0)


@register.filter
def grade_pending(value: int | None, pending: int | None) -> str:
    """ "1 Kyu (1 Dan pending)" when a higher Dan grade waits for approval, else the grade alone."""
    return grade_text(value, pending)


@register.filter
def signed(value: float | int | None) -> str:
    """ "+23", "-14", "+0"; "" for None (a performance-rated player has no change)."""
    if value is None:
        return ""
    return f"{value:+d}" if isinstance(value, int) else f"{value:+.2f}"


@register.filter
def points(value: float | None) -> str:
    """A score with halves as FESA players write them: 2, 2½, ½."""
    if value is None:
        return ""
    whole, half = divmod(round(value * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


@register.filter
def category(value: str) -> str:
    """The category's label: unrated, provisional, established."""
    return str(CATEGORY_LABELS.get(value, value))
