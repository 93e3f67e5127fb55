"""The rating list's values in SQL: today's from the players' derived columns, a past date's from the rating
rows valid on that date (``RatingRow.valid_until``) or the opening states.

The rating list (docs/rules.md §8, docs/fesa-files.md all.txt): the players who played a rated table on or after
the same day two years before the list's date ("active"), professionals left out. Both functions give lazy querysets of
Players annotated with the ``list_*`` values of the date; ratings/services/lists.py writes a list from them once
per date and version of the data, and the pages read what it wrote. A past date's ``list_grade`` leaves out the Dan
grades approved by then: the writer applies ``approved_dan_grades`` to the few players who have one.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, TypedDict

from django.db.models import (
    Case,
    CharField,
    F,
    FilteredRelation,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Greatest, Least
from django.utils import timezone

from ratings.engine.categories import ESTABLISHED_FROM
from ratings.engine.grades import FIRST_DAN, LAST_KYU
from ratings.models import LEFT_OUT_OF_LISTS, Category, Player, Promotion, PromotionStatus, RatingRow

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

ACTIVE_YEARS = 2
MEMBERS_ORDER = ("-list_rating", "list_order", "pk")
"""The list's order: highest rating first; among equal ratings the FESA program's state list's order, then id."""


def active_cutoff(date: dt.date) -> dt.date:
    """The first day that still counts as "within two years before ``date``".

    As the FESA program compares it (ratings/fesa_files/alltxt.py ``is_active``): on or after the same day two
    years earlier; for 29 February that day does not exist and the first day that counts is 1 March.
    """
    if date.year - ACTIVE_YEARS < dt.MINYEAR:
        return dt.date.min  # a list of the first years of the calendar: every date counts
    try:
        return date.replace(year=date.year - ACTIVE_YEARS)
    except ValueError:
        return dt.date(date.year - ACTIVE_YEARS, 3, 1)


def public_players() -> QuerySet[Player]:
    """Players the public lists may show: all but those ``LEFT_OUT_OF_LISTS`` (professionals, merged records)."""
    return Player.objects.exclude(LEFT_OUT_OF_LISTS)


def pending_dan(outer: str = "pk") -> Subquery:
    """The highest Dan grade the player waits for approval of, the top of a climb through several ("1 Kyu (3 Dan
    pending)", as his grade history shows it), or NULL."""
    return Subquery(
        Promotion.objects.filter(player=OuterRef(outer), status=PromotionStatus.PENDING, grade__gte=FIRST_DAN)
        .order_by("-grade")
        .values("grade")[:1]
    )


class ListValues(TypedDict):
    """The values ``list_values`` annotates each player with."""

    list_rating: int
    list_games: int
    list_grade: int
    list_fesa_grade: int
    list_category: str
    list_last_played: dt.date | None


def list_values(date: dt.date | None) -> QuerySet[WithAnnotations[Player, ListValues]]:
    """Every public player with his ``list_*`` values of ``date`` (None or today or later: today's), and his
    computed grade as ``list_fesa_grade``."""
    if date is None or date >= timezone.localdate():
        return _current_list()
    return _list_as_of(date)


def _current_list() -> QuerySet[WithAnnotations[Player, ListValues]]:
    return public_players().annotate(
        list_rating=F("rating"),
        list_games=F("games"),
        list_grade=F("grade"),
        list_fesa_grade=F("fesa_grade"),
        list_category=F("category"),
        list_last_played=F("last_played"),
    )


def _list_as_of(date: dt.date) -> QuerySet[WithAnnotations[Player, ListValues]]:
    """Each player's values from his rating row valid on ``date``, else from his opening state
    (a migrated FESA list) if that is dated on or before ``date``.

    Grades as the public saw them that day: a Dan grade shows if it came with the opening state or was approved
    by then; one found by then but not yet approved shows as pending. ``list_grade`` here counts the opening
    state's grade only: the few players with a Dan grade approved by then are read apart
    (``approved_dan_grades``) and graded by the list's writer, rather than asked for by a subquery per player.
    """
    # The one row valid on ``date`` (date <= D < valid_until): a join on the (player, valid_until, date) index
    # instead of a search for the latest row per player and column.
    valid = FilteredRelation("rating_rows", condition=Q(rating_rows__date__lte=date, rating_rows__valid_until__gt=date))

    def latest(name: str) -> F:
        return F(f"asof_row__{name}")

    has_opening = Q(opening_state__last_played__lte=date)

    def opening(name: str) -> Case:
        return Case(When(has_opening, then=F(f"opening_state__{name}")), default=None)

    unrated_opening = has_opening & Q(opening_state__rated_by_performance=True)
    return (
        public_players()
        .alias(asof_row=valid, asof_method=latest("method"))
        .annotate(
            list_rating=Coalesce(latest("rating_after"), opening("rating")),
            list_games=Coalesce(latest("games_after"), opening("games")),
            list_last_played=Coalesce(latest("date"), opening("last_played")),
            asof_computed_grade=Coalesce(latest("grade_after"), opening("grade")),
            asof_held_grade=Coalesce(opening("grade"), Value(0)),
        )
        .annotate(
            list_fesa_grade=F("asof_computed_grade"),
            # ratings.engine.grades.public_grade, in SQL, so that a whole list is graded in one query.
            list_grade=Greatest(Least(F("asof_computed_grade"), Value(LAST_KYU)), F("asof_held_grade")),
            list_category=Case(
                When(
                    Q(asof_method=RatingRow.Method.PERFORMANCE) | (Q(asof_method__isnull=True) & unrated_opening),
                    then=Value(Category.UNRATED),
                ),
                When(list_games__gte=ESTABLISHED_FROM, then=Value(Category.ESTABLISHED)),
                default=Value(Category.PROVISIONAL),
                output_field=CharField(),
            ),
        )
    )


def list_members(date: dt.date, active: bool) -> QuerySet[WithAnnotations[Player, ListValues]]:
    """The players on the list of ``date`` with their ``list_*`` values, in list order: ``active``, those who
    played a rated table within the two years before it (the FESA list); otherwise every player rated by then."""
    qs = list_values(date)
    qs = qs.filter(list_last_played__gte=active_cutoff(date)) if active else qs.filter(list_games__gt=0)
    return qs.order_by(*MEMBERS_ORDER)


def _end_of(date: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(date + dt.timedelta(days=1), dt.time.min))


def approved_dan_grades(date: dt.date) -> dict[int, int]:
    """The highest Dan grade each player had been approved by the end of a past ``date``, at a table on or
    before it (a decision recorded without a time counts): one query over those Dan promotions alone."""
    approved = Promotion.objects.filter(status=PromotionStatus.APPROVED, grade__gte=FIRST_DAN, table__date__lte=date)
    approved = approved.filter(Q(decided_at__lt=_end_of(date)) | Q(decided_at__isnull=True))
    return dict(approved.order_by("grade").values_list("player_id", "grade"))  # each one's highest comes last


def pending_dan_grades(date: dt.date) -> dict[int, list[int]]:
    """The Dan grades that wait for approval on ``date`` (today: pending now; a past date: found by then and
    approved only later, or still pending), by player: one query over those Dan promotions alone."""
    dan = Promotion.objects.filter(grade__gte=FIRST_DAN)
    if date >= timezone.localdate():
        waiting = dan.filter(status=PromotionStatus.PENDING)
    else:
        approved_later = Q(status=PromotionStatus.APPROVED, decided_at__gte=_end_of(date))
        waiting = dan.filter(Q(status=PromotionStatus.PENDING) | approved_later, table__date__lte=date)
    grades: dict[int, list[int]] = {}
    for player_id, grade in waiting.values_list("player_id", "grade"):
        grades.setdefault(player_id, []).append(grade)
    return grades
