"""When a table may be dated: within its tournament's dates, and not after today.

A mistyped year (2027 for 2024) would otherwise rate the table, publish it, link a rating list of a year that
does not exist yet, and block its players, whose next tables would all come "before their last rated table".
Tables are checked here through ``table_check`` / ``table_save``; tournaments, whose dates must keep holding
their tables' dates, through ``tournament_check``.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.models import Table, Tournament


def table_date_problems(*, date: dt.date, tournament: Tournament | None, today: dt.date | None = None) -> list[str]:
    """Why ``date`` cannot be the date of a table of ``tournament`` (None: not chosen yet); ``today`` None:
    the site's today."""
    problems = []
    if date > (today or timezone.localdate()):
        problems.append(_("The table's date %(date)s is in the future: check the year.") % {"date": date.isoformat()})
    if tournament is not None and not tournament.start_date <= date <= tournament.end_date:
        problems.append(
            _("The table's date %(date)s is outside its tournament's dates (%(start)s to %(end)s).")
            % {
                "date": date.isoformat(),
                "start": tournament.start_date.isoformat(),
                "end": tournament.end_date.isoformat(),
            }
        )
    return problems


def tournament_table_problems(
    *, tournament: Tournament | None, start_date: dt.date, end_date: dt.date
) -> dict[str, list[str]]:
    """The saved tables of ``tournament`` (None or unsaved: it has none) that these dates would leave out,
    by the field that leaves them out: ``"start_date"`` for tables before it, ``"end_date"`` after it."""
    if tournament is None or tournament.pk is None:
        return {}
    tables = Table.objects.filter(tournament=tournament).select_related("tournament").order_by("date", "sequence")
    problems = {}
    for name, outside in (
        ("start_date", tables.filter(date__lt=start_date)),
        ("end_date", tables.filter(date__gt=end_date)),
    ):
        labels = [str(table) for table in outside]
        if labels:
            problems[name] = [
                _("The tournament has tables outside these dates: %(tables)s. Change the tables' dates first.")
                % {"tables": "; ".join(labels)}
            ]
    return problems
