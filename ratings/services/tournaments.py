"""Saving a tournament: the one write path of the admin and the FESA upload.

A tournament cannot end before it starts, nor move its dates away from its tables' dates (a table's date
lies within its tournament's: ratings/services/tables/dates.py); a tournament director who creates one becomes
one of its directors (rating officers and superusers assign directors by name). The database's own check
refuses reversed dates too, but only here does the refusal name the field.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ratings.access import is_director
from ratings.models import Tournament
from ratings.services.tables.dates import tournament_table_problems


def tournament_check(*, tournament: Tournament | None, start_date: dt.date, end_date: dt.date) -> None:
    """Raise ``ValidationError`` (by field) when ``tournament`` (None or unsaved: a new one) cannot be saved
    with these dates; the message names the tables the dates would leave out."""
    if end_date < start_date:
        raise ValidationError({"end_date": _("The tournament cannot end before it starts.")})
    problems = tournament_table_problems(tournament=tournament, start_date=start_date, end_date=end_date)
    if problems:
        raise ValidationError(problems)


@transaction.atomic
def tournament_save(
    *,
    tournament: Tournament | None,
    user: Any,
    name: str,
    start_date: dt.date,
    end_date: dt.date,
    city: str = "",
    country: str = "",
    time_control: str = "",
    directors: Iterable[Any] | None = None,
) -> Tournament:
    """Create a tournament (``tournament`` None or unsaved) or change one.

    ``directors`` None keeps the saved directors; a new tournament created by a tournament director gets him
    as a director in any case, so he can enter its tables.
    """
    tournament_check(tournament=tournament, start_date=start_date, end_date=end_date)
    creating = tournament is None or tournament.pk is None
    if tournament is None:
        tournament = Tournament()
    staff = user if getattr(user, "pk", None) else None
    if creating:
        tournament.created_by = staff
    tournament.name, tournament.city, tournament.country = name, city, country
    tournament.start_date, tournament.end_date, tournament.time_control = start_date, end_date, time_control
    tournament.save()
    if directors is not None:
        tournament.directors.set(directors)
    if creating and staff is not None and is_director(staff):
        tournament.directors.add(staff)
    return tournament
