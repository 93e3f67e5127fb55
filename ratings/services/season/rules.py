"""FESA's rules for a registered tournament, as pure functions over plain values.

A tournament is registered at least ``SEASON_NOTICE_DAYS`` before its first day and plays at least one of the
minimum time controls: ``SEASON_MIN_FISCHER`` (main time + an increment after each move) or
``SEASON_MIN_BYOYOMI`` (main time + byoyomi once it is spent). FESA's defaults: 14 days, 30 min + 30 s, or
20 min + 40 s byoyomi. A control meets a minimum when both of its parts reach the minimum's.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from django.conf import settings
from django.utils.translation import gettext as _


class TimeMinimum(NamedTuple):
    minutes: int
    seconds: int


def parse_minimum(text: str) -> TimeMinimum:
    """``"30+30"`` -> TimeMinimum(30, 30); the settings module refuses any other shape."""
    minutes, seconds = text.split("+")
    return TimeMinimum(int(minutes), int(seconds))


def time_minimums() -> tuple[TimeMinimum, TimeMinimum]:
    """The Fischer and the byoyomi minimum in force."""
    return parse_minimum(settings.SEASON_MIN_FISCHER), parse_minimum(settings.SEASON_MIN_BYOYOMI)


def time_control_label(minutes: int | None, increment: int | None, byoyomi: int | None) -> str:
    """ "30 min + 30 s", "20 min + 40 s byoyomi" or "" when no main time is given."""
    if minutes is None:
        return ""
    if byoyomi:
        return _("%(minutes)d min + %(seconds)d s byoyomi") % {"minutes": minutes, "seconds": byoyomi}
    return _("%(minutes)d min + %(seconds)d s") % {"minutes": minutes, "seconds": increment or 0}


def time_control_problem(*, minutes: int | None, increment: int | None, byoyomi: int | None) -> str | None:
    """Why this control is below FESA's minimum, or None when it meets one."""
    fischer, japanese = time_minimums()
    if minutes is None:
        return _("Give the main time.")
    if increment and byoyomi:
        return _("Give an increment or a byoyomi, not both.")
    if byoyomi:
        if minutes >= japanese.minutes and byoyomi >= japanese.seconds:
            return None
    elif minutes >= fischer.minutes and (increment or 0) >= fischer.seconds:
        return None
    return _("FESA rates games of at least %(fischer)s or %(byoyomi)s.") % {
        "fischer": time_control_label(fischer.minutes, fischer.seconds, None),
        "byoyomi": time_control_label(japanese.minutes, None, japanese.seconds),
    }


def announcement_problems(
    *,
    registered_on: dt.date,
    start_date: dt.date,
    minutes: int | None,
    increment: int | None,
    byoyomi: int | None,
) -> dict[str, str]:
    """The federation's rules a registration breaks, by field; empty when it keeps them all."""
    problems: dict[str, str] = {}
    notice = settings.SEASON_NOTICE_DAYS
    if (start_date - registered_on).days < notice:
        problems["start_date"] = _(
            "A tournament is registered at least %(days)d days before it starts (the earliest start now: %(date)s)."
        ) % {"days": notice, "date": (registered_on + dt.timedelta(days=notice)).isoformat()}
    time_problem = time_control_problem(minutes=minutes, increment=increment, byoyomi=byoyomi)
    if time_problem:
        problems["main_time_minutes"] = time_problem
    return problems
