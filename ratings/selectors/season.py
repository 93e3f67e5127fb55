"""The season as the public and the rating officers see it: the calendar of accepted tournaments and where each
tournament's results stand.

A tournament's stage, in order: announced (before its first day), being played, results awaited (after its last
day, until ``SEASON_RESULTS_DEADLINE_DAYS`` later), overdue (past that deadline with nothing received),
received (a table submitted, waiting to be rated) and rated (every submitted table rated). Each stage carries
its date: the deadline, the day the first table was received, the day the last one was rated.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from django.conf import settings
from django.db.models import Count, Exists, Max, Min, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ratings.models import AnnouncementStatus, Table, TableStatus, Tournament

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

STAGES = {
    "announced": _("announced"),
    "playing": _("being played"),
    "awaited": _("results awaited"),
    "overdue": _("results overdue"),
    "received": _("results received"),
    "rated": _("rated"),
}


@dataclass(frozen=True)
class SeasonStatus:
    stage: str
    deadline: dt.date
    received_on: dt.date | None
    rated_on: dt.date | None

    @property
    def label(self) -> str:
        return str(STAGES[self.stage])


def results_deadline(end_date: dt.date) -> dt.date:
    return end_date + dt.timedelta(days=settings.SEASON_RESULTS_DEADLINE_DAYS)


class Results(TypedDict):
    """What ``with_results`` annotates each tournament with."""

    received_at: dt.datetime | None
    rated_at: dt.datetime | None
    waiting_total: int
    rated_total: int


def with_results(queryset: QuerySet[Tournament]) -> QuerySet[WithAnnotations[Tournament, Results]]:
    """Annotate each tournament with what its stage needs, in the same query."""
    sent = Q(tables__status__in=[TableStatus.SUBMITTED, TableStatus.RATED])
    return queryset.annotate(
        received_at=Min("tables__submitted_at", filter=sent),
        rated_at=Max("tables__first_rated_at", filter=Q(tables__status=TableStatus.RATED)),
        waiting_total=Count("tables", filter=Q(tables__status=TableStatus.SUBMITTED), distinct=True),
        rated_total=Count("tables", filter=Q(tables__status=TableStatus.RATED), distinct=True),
    )


def season_status(tournament: WithAnnotations[Tournament, Results], *, today: dt.date) -> SeasonStatus:
    """The stage of a tournament annotated by ``with_results``."""
    received = getattr(tournament, "received_at", None)
    rated = getattr(tournament, "rated_at", None)
    deadline = results_deadline(tournament.end_date)
    received_on = timezone.localdate(received) if received else None
    rated_on = timezone.localdate(rated) if rated else None
    if tournament.rated_total and not tournament.waiting_total:
        stage = "rated"
    elif received_on is not None:
        stage = "received"
    elif today < tournament.start_date:
        stage = "announced"
    elif today <= tournament.end_date:
        stage = "playing"
    else:
        stage = "overdue" if today > deadline else "awaited"
    return SeasonStatus(stage=stage, deadline=deadline, received_on=received_on, rated_on=rated_on)


def announced_tournaments() -> QuerySet[Tournament]:
    """The public tournaments of the calendar: the accepted ones."""
    return Tournament.objects.filter(announcement=AnnouncementStatus.ACCEPTED)


def calendar_tournaments(*, year: int, month: int | None = None, country: str = "") -> list[Tournament]:
    """Accepted tournaments playing in ``year`` (and ``month``), in ``country`` if given, by first day."""
    first = dt.date(year, month or 1, 1)
    last = dt.date(year + (month or 12) // 12, (month or 12) % 12 + 1, 1) - dt.timedelta(days=1)
    qs = announced_tournaments().filter(start_date__lte=last, end_date__gte=first)
    if country:
        qs = qs.filter(country=country)
    return list(with_results(qs).order_by("start_date", "name"))


def coming_tournaments(*, today: dt.date, country: str = "") -> list[Tournament]:
    """Accepted tournaments not over by ``today`` (being played or to come), in ``country`` if given, by first
    day: what the calendar opens on."""
    qs = announced_tournaments().filter(end_date__gte=today)
    if country:
        qs = qs.filter(country=country)
    return list(with_results(qs).order_by("start_date", "name"))


def calendar_countries() -> list[str]:
    """The countries of accepted tournaments, for the calendar's filter."""
    return sorted(set(announced_tournaments().exclude(country="").values_list("country", flat=True)))


def status_list(*, today: dt.date, days: int = 120) -> list[tuple[Tournament, SeasonStatus]]:
    """Tournaments that ended in the last ``days`` days (accepted or holding a submitted table), newest first,
    each with its stage: what players ask about."""
    since = today - dt.timedelta(days=days)
    sent = Table.objects.filter(tournament=OuterRef("pk"), status__in=[TableStatus.SUBMITTED, TableStatus.RATED])
    qs = Tournament.objects.filter(end_date__gte=since, end_date__lt=today).filter(
        Q(announcement=AnnouncementStatus.ACCEPTED) | Exists(sent)
    )
    tournaments = with_results(qs).order_by("-end_date", "name")
    return [(t, season_status(t, today=today)) for t in tournaments]


def overdue_tournaments(*, today: dt.date) -> QuerySet[Tournament]:
    """Accepted tournaments past their results deadline with no table received: the rating officers' queue."""
    last_end = today - dt.timedelta(days=settings.SEASON_RESULTS_DEADLINE_DAYS + 1)
    return (
        with_results(announced_tournaments().filter(end_date__lte=last_end))
        .filter(received_at__isnull=True)
        .order_by("end_date", "name")
    )


def tournament_season(tournament: Tournament, *, today: dt.date) -> SeasonStatus | None:
    """The stage of an accepted tournament for its page; None for one entered only with its results."""
    if tournament.announcement != AnnouncementStatus.ACCEPTED:
        return None
    return season_status(with_results(Tournament.objects.filter(pk=tournament.pk)).get(), today=today)
