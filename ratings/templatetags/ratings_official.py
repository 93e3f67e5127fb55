"""What the official lists' pages (templates/jinja2/ratings/official_list_revised.html) call: a figure of a revised
list, published and today."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django_jinja import library

from ratings.models import ListEntry
from ratings.selectors.official_lists import RevisedRow
from ratings.web.tables import CATEGORY_LABELS, grade_text

_SHOWN: dict[str, Callable[[ListEntry], Any]] = {
    "rank": lambda e: "–" if e.rank is None else e.rank,  # the public rank, as the "rank" change compares it
    "country": lambda e: e.nationality or "–",
    "rating": lambda e: e.rating,
    "grade": lambda e: grade_text(e.grade, e.shown_pending_grade) or "–",
    "games": lambda e: e.games,
    "category": lambda e: CATEGORY_LABELS.get(e.category, e.category),
}


@library.global_function
def revised_cell(row: RevisedRow, kind: str) -> SafeString:
    """The published figure, and today's after an arrow where it changed; today's alone for a player added
    since, the published one alone for a player dropped since."""
    shown = _SHOWN[kind]
    was = shown(row.published) if row.published is not None else None
    now = shown(row.now) if row.now is not None else None
    if was is not None and now is not None and kind in row.changes:
        return format_html(
            '<span class="was">{}</span> <span aria-hidden="true">→</span> <strong>{}</strong>', was, now
        )
    if was is not None:
        return format_html("{}", was)
    return format_html("<strong>{}</strong>", now)
