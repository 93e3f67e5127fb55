"""The rating list of a date, and the words the public pages share.

The rating list (RULES.md §8, FESA-FILES.md all.txt): the players who played a rated table on or after the same
day two years before the list's date ("active"), professionals left out, highest rating first. Today's list
reads the players' derived columns; a list as of a past date reads each player's latest rating row on or
before that date, or the opening state he was migrated with if he has no such row. Both are lazy querysets, so
that filters, sorting and pagination run in the database.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db.models import (
    Case,
    CharField,
    DateField,
    F,
    Func,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast, Coalesce, Greatest, Least
from django.utils import timezone
from django_countries import countries

from ratings.engine.categories import ESTABLISHED_FROM
from ratings.engine.grades import FIRST_DAN, LAST_KYU
from ratings.models import (
    Category,
    Player,
    Promotion,
    PromotionStatus,
    RatingRow,
    Table,
    TableStatus,
)

ACTIVE_YEARS = 2
PUBLIC_TABLE_STATUSES = [TableStatus.SUBMITTED, TableStatus.RATED]
SHOWN_PROMOTION_STATUSES = [PromotionStatus.EFFECTIVE, PromotionStatus.APPROVED]
LIST_ORDER = ("-list_rating", "family_name", "given_name", "pk")


def active_cutoff(date: dt.date) -> dt.date:
    """The first day that still counts as "within two years before ``date``".

    As the FESA program compares it (ratings/fesa_files/alltxt.py): on or after the same day two years
    earlier; for 29 February that day does not exist and the first day that counts is 1 March.
    """
    try:
        return date.replace(year=date.year - ACTIVE_YEARS)
    except ValueError:
        return dt.date(date.year - ACTIVE_YEARS, 3, 1)


def public_players() -> QuerySet[Player]:
    """Players the public lists may show: not professionals (by flag or by a professional prior grade)."""
    return Player.objects.filter(is_professional=False).exclude(prior_grade_kind="pro")


def pending_dan(outer: str = "pk") -> Subquery:
    """The lowest Dan grade the player waits for approval of ("1 Kyu (1 Dan pending)"), or NULL."""
    return Subquery(
        Promotion.objects.filter(player=OuterRef(outer), status=PromotionStatus.PENDING, grade__gte=FIRST_DAN)
        .order_by("grade")
        .values("grade")[:1]
    )


def rating_list(*, date: dt.date | None = None, active: bool = True) -> QuerySet[Player]:
    """The rating list of ``date`` (None or today or later: today's), as Players annotated with the ``list_*``
    values of that date: ``list_rating``, ``list_games``, ``list_grade`` (the public grade), ``list_category``,
    ``list_last_played``. Give the rows shown their pending Dan grades with :func:`attach_pending_grades`.

    ``active`` keeps the FESA list's players only; otherwise every player with a rating on that date.
    Ordered by rating, highest first, then by name (a row's position is its rank; see :func:`list_positions`).
    """
    today = timezone.localdate()
    if date is None or date >= today:
        qs = _current_list()
        date = today
    else:
        qs = _list_as_of(date)
    if active:
        return qs.filter(list_last_played__gte=active_cutoff(date)).order_by(*LIST_ORDER)
    return qs.filter(list_games__gt=0).order_by(*LIST_ORDER)


def _current_list() -> QuerySet[Player]:
    return public_players().annotate(
        list_rating=F("rating"),
        list_games=F("games"),
        list_grade=F("grade"),
        list_category=F("category"),
        list_last_played=F("last_played"),
    )


class _JSONArrayLength(Func):
    """Length of a JSON array (SQLite ``json_array_length``, PostgreSQL ``jsonb_array_length``)."""

    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return super().as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


def _list_as_of(date: dt.date) -> QuerySet[Player]:
    """Each player's values from his latest rating row on or before ``date``, else from his opening state
    (a migrated FESA list) if that is dated on or before ``date``.

    Grades as the public saw them that day: a Dan grade shows if it was approved by then (or came with the
    opening state); one found by then but not yet approved shows as pending.
    """
    rows = RatingRow.objects.filter(player=OuterRef("pk"), date__lte=date).order_by("-date", "-sequence")

    def latest(name: str) -> Subquery:
        return Subquery(rows.values(name)[:1])

    state = "opening_state__state"
    opening_last = Cast(KeyTextTransform("last_played", state), DateField())
    has_opening = Q(opening_state__isnull=False, asof_opening_last__lte=date)

    def opening(value: Any) -> Case:
        return Case(When(has_opening, then=value), default=None)

    end_of_day = timezone.make_aware(dt.datetime.combine(date + dt.timedelta(days=1), dt.time.min))
    approved_by_then = Promotion.objects.filter(
        player=OuterRef("pk"), status=PromotionStatus.APPROVED, grade__gte=FIRST_DAN, table__date__lte=date
    ).filter(Q(decided_at__lt=end_of_day) | Q(decided_at__isnull=True))
    unrated_opening = has_opening & ~Q(opening_state__state__result_list=None)
    return (
        public_players()
        .alias(asof_opening_last=opening_last, asof_method=latest("method"))
        .annotate(
            list_rating=Coalesce(
                latest("rating_after"), opening(Cast(KeyTextTransform("rating", state), IntegerField()))
            ),
            list_games=Coalesce(
                latest("games_after"),
                opening(
                    Case(
                        When(
                            Q(opening_state__state__result_list=None),
                            then=Cast(KeyTextTransform("game_count", state), IntegerField()),
                        ),
                        default=_JSONArrayLength(KeyTransform("result_list", state)),
                    )
                ),
            ),
            list_last_played=Coalesce(latest("date"), opening(opening_last)),
            asof_computed_grade=Coalesce(
                latest("grade_after"), opening(Cast(KeyTextTransform("grade", state), IntegerField()))
            ),
            asof_held_grade=Coalesce(
                Subquery(approved_by_then.order_by("-grade").values("grade")[:1]),
                opening(Cast(KeyTextTransform("grade", state), IntegerField())),
                Value(0),
            ),
        )
        .annotate(
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


def attach_pending_grades(players: Sequence[Player], date: dt.date | None = None) -> None:
    """Set ``list_pending_grade`` on each of ``players`` (rows of :func:`rating_list` of ``date``): the lowest Dan
    grade above his ``list_grade`` that waits for approval, or that waited on ``date`` (found by then, approved
    only later); None if there is none. One query for all of them, the page's rows only: as a subquery of the
    list it would run for every player of the list whenever the list is sorted by something else than rating.
    """
    if not players:
        return
    # Read by player and grade only (the player index) and sorted out here: a status condition in SQL would
    # tempt SQLite, which keeps no statistics, to walk every pending promotion of the federation instead.
    today = date is None or date >= timezone.localdate()
    end_of_day = None if today else timezone.make_aware(dt.datetime.combine(date + dt.timedelta(days=1), dt.time.min))
    grades: dict[int, list[int]] = {}
    for player_id, grade, status, decided_at, table_date in Promotion.objects.filter(
        player_id__in=[p.pk for p in players], grade__gte=FIRST_DAN
    ).values_list("player_id", "grade", "status", "decided_at", "table__date"):
        if today:
            waiting = status == PromotionStatus.PENDING
        else:
            found_by_then = table_date is not None and table_date <= date
            approved_later = status == PromotionStatus.APPROVED and decided_at is not None and decided_at >= end_of_day
            waiting = found_by_then and (status == PromotionStatus.PENDING or approved_later)
        if waiting:
            grades.setdefault(player_id, []).append(grade)
    for player in players:
        above = [g for g in grades.get(player.pk, ()) if g > (player.list_grade or 0)]  # type: ignore[attr-defined]
        player.list_pending_grade = min(above, default=None)  # type: ignore[attr-defined]


def list_positions(qs: QuerySet[Player]) -> dict[int, int]:
    """Each player's rank in the (filtered) list ``qs``: 1, 2, 3 ... in rating order, equal ratings one after
    another by name, as FESA numbers its list. For a page sorted by another column; in rating order a row's rank
    is simply its position. One narrow query walking the list-order index: cheaper on SQLite than a window
    function, which copies every row of the list before it numbers them."""
    return {pk: rank for rank, pk in enumerate(qs.order_by(*LIST_ORDER).values_list("pk", flat=True), 1)}


def list_dates(limit: int = 6) -> list[dt.date]:
    """The dates of the most recent official lists: FESA publishes a list after each rated table.

    Read backwards along the tables' (date, sequence) index and sorted out here, so that the query stops early
    (a status condition would make SQLite sort every rated table's date instead).
    """
    dates: list[dt.date] = []
    for date, status in Table.objects.order_by("-date", "-sequence").values_list("date", "status")[: limit * 20]:
        if status == TableStatus.RATED and date not in dates:
            dates.append(date)
            if len(dates) == limit:
                break
    return dates


def list_countries() -> list[tuple[str, str]]:
    """(code, name) of the countries the federation's players come from, by name: the choices worth offering
    in the country filter (any country code stays a valid filter value)."""
    # All players, professionals too: read from the country index alone, without touching the rows.
    codes = set(Player.objects.values_list("nationality", flat=True).distinct().order_by()) - {""}
    return sorted(((code, str(countries.name(code))) for code in codes), key=lambda c: c[1])


def is_list_date(date: dt.date) -> bool:
    return Table.objects.filter(status=TableStatus.RATED, date=date).exists()
