"""Registering a tournament before it is played, and a rating officer's review of it.

A director registers his tournament (the one its results will go into: the upload and hand entry start from
it); the registration keeps FESA's rules (rules.py) or is refused at once with the rule it breaks. A rating
officer then accepts it (it becomes public: the calendar, its page, the iCal and Atom feeds) or refuses it
with a reason. A change to a registered tournament by its director sends it back to review; the notice period
counts from the first registration, so moving the dates does not renew it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.access import is_rating_officer
from ratings.models import AnnouncementStatus, Tournament
from ratings.services.season.rules import announcement_problems, time_control_label
from ratings.services.tournaments import tournament_save


def registration_problems(
    *,
    registered_at: dt.datetime | None,
    start_date: dt.date,
    city: str,
    country: str,
    contact: str,
    main_time_minutes: int | None,
    increment_seconds: int | None,
    byoyomi_seconds: int | None,
) -> dict[str, str]:
    """What keeps a registration from being saved, by field (``registered_at`` None: registered now)."""
    problems = announcement_problems(
        registered_on=timezone.localdate(registered_at or timezone.now()),
        start_date=start_date,
        minutes=main_time_minutes,
        increment=increment_seconds,
        byoyomi=byoyomi_seconds,
    )
    if not city:
        problems["city"] = _("Give the city.")
    if not country:
        problems["country"] = _("Give the country.")
    if not contact:
        problems["contact"] = _("Give a contact: an e-mail address or a telephone number.")
    return problems


@transaction.atomic
def tournament_register(
    *,
    tournament: Tournament | None,
    user: Any,
    name: str,
    start_date: dt.date,
    end_date: dt.date,
    city: str,
    country: str,
    main_time_minutes: int | None,
    increment_seconds: int | None,
    byoyomi_seconds: int | None,
    mode: str,
    contact: str,
    announcement_url: str = "",
    planned_tables: int = 1,
    directors: Iterable[Any] | None = None,
) -> Tournament:
    """Register a new tournament (``tournament`` None) or change a registered one; raises ``ValidationError``
    by field when FESA's rules refuse it. Saved as waiting for review, unless a rating officer changes a
    tournament already accepted."""
    now = timezone.now()
    registered = tournament.registered_at if tournament is not None and tournament.registered_at else now
    problems = registration_problems(
        registered_at=registered,
        start_date=start_date,
        city=city,
        country=country,
        contact=contact,
        main_time_minutes=main_time_minutes,
        increment_seconds=increment_seconds,
        byoyomi_seconds=byoyomi_seconds,
    )
    if problems:
        raise ValidationError(problems)
    tournament = tournament_save(
        tournament=tournament,
        user=user,
        name=name,
        city=city,
        country=country,
        start_date=start_date,
        end_date=end_date,
        time_control=time_control_label(main_time_minutes, increment_seconds, byoyomi_seconds),
        directors=directors,
    )
    tournament.main_time_minutes, tournament.increment_seconds = main_time_minutes, increment_seconds
    tournament.byoyomi_seconds, tournament.mode, tournament.contact = byoyomi_seconds, mode, contact
    tournament.announcement_url, tournament.planned_tables = announcement_url, planned_tables
    tournament.registered_at = registered
    if not (tournament.announcement == AnnouncementStatus.ACCEPTED and is_rating_officer(user)):
        tournament.announcement = AnnouncementStatus.PROPOSED
        tournament.reviewed_at, tournament.reviewed_by, tournament.review_reason = None, None, ""
    tournament.save()
    return tournament


def _review(*, tournament: Tournament, user: Any, status: str, reason: str, allowed: list[str]) -> Tournament:
    if not is_rating_officer(user):
        raise ValidationError(_("Only a rating officer reviews a registered tournament."))
    now = timezone.now()
    # Compare-and-set: two officers reviewing at once, or a review of a tournament changed meanwhile, fails.
    changed = Tournament.objects.filter(pk=tournament.pk, announcement__in=allowed).update(
        announcement=status, reviewed_at=now, reviewed_by=user, review_reason=reason
    )
    if changed != 1:
        raise ValidationError(_("This tournament is not waiting for that review any more: reload it."))
    tournament.refresh_from_db()
    tournament.save(update_fields=["announcement"])  # its audit row: the public pages' data version moves
    return tournament


@transaction.atomic
def tournament_accept(*, tournament: Tournament, user: Any, reason: str = "") -> Tournament:
    """Accept a registered tournament: it becomes public."""
    return _review(
        tournament=tournament,
        user=user,
        status=AnnouncementStatus.ACCEPTED,
        reason=reason,
        allowed=[AnnouncementStatus.PROPOSED, AnnouncementStatus.REFUSED],
    )


@transaction.atomic
def tournament_refuse(*, tournament: Tournament, user: Any, reason: str) -> Tournament:
    """Refuse a registered tournament (or withdraw an acceptance) with a reason its director reads."""
    if not reason.strip():
        raise ValidationError({"review_reason": _("Say why the tournament is refused.")})
    return _review(
        tournament=tournament,
        user=user,
        status=AnnouncementStatus.REFUSED,
        reason=reason.strip(),
        allowed=[AnnouncementStatus.PROPOSED, AnnouncementStatus.ACCEPTED],
    )
