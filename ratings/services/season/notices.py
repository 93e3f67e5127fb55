"""Telling directors that their tables were rated: after a re-rate run, each director of a tournament whose
table the run rated for the first time or changed gets one message listing those tables, whatever the number
of edits the run served (the quiet moment before a run gathers a burst of them). The event is the run, so a
repeated task sends nothing new. Texts in the site's default language (LANGUAGE_CODE).

A table the run re-rated after a rating officer's correction says so: corrected (a correction of the table
itself), or re-rated after a correction of an earlier table or of a player's prior grade or a merge, each with
the reason the officer gave and the table's link. The officer is named by his role, as on the public pages,
which show the reasons to everyone and the officer's name to staff only.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from django.conf import settings
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _

from ratings.models import Correction, RerateRun, Table
from ratings.services.mail import mail_queue, site_link


def call_runs(*, run_id: int, since: dt.datetime | None) -> tuple[RerateRun, RerateRun] | None:
    """The first and the last run of the re-rate call that ended with run ``run_id`` (None while it runs).

    ``since``: when the call began. A call runs again when an edit comes in during its run; what all its runs
    did is told once, with the last.
    """
    run = RerateRun.objects.filter(pk=run_id, finished_at__isnull=False).first()
    if run is None:
        return None
    opening = run
    if since is not None:
        earlier = RerateRun.objects.filter(started_at__gte=since, started_at__lt=run.started_at)
        opening = earlier.order_by("started_at", "pk").first() or run
    return opening, run


def run_directors_notify(*, run_id: int, since: dt.datetime | None = None) -> int:
    """Queue the directors' messages for the tables run ``run_id`` rated or changed; how many were queued.

    ``since``: when the re-rate call began. A call runs again when an edit comes in during its run, and its
    runs then make one message: the tables and corrections of every run it made are told with the last.
    """
    runs = call_runs(run_id=run_id, since=since)
    if runs is None:
        return 0
    opening, run = runs
    window = {"gte": opening.started_at, "lte": run.finished_at}
    touched = (
        Table.objects.filter(
            Q(first_rated_at__gte=window["gte"], first_rated_at__lte=window["lte"])
            | Q(last_rerated_at__gte=window["gte"], last_rerated_at__lte=window["lte"])
        )
        .select_related("tournament")
        .prefetch_related("tournament__directors")
        .order_by("date", "sequence")
    )
    served = _served_corrections(opening.started_at, run.started_at)
    lines: dict[str, list[str]] = defaultdict(list)
    corrected: set[str] = set()
    with translation.override(settings.LANGUAGE_CODE):
        for table in touched:
            first = table.first_rated_at is not None and table.first_rated_at >= opening.started_at
            label = table.label
            line = (
                _("%(table)s (%(date)s): rated") if first else _("%(table)s (%(date)s): re-rated, its ratings changed")
            ) % {
                "table": label,
                "date": table.date.isoformat(),
            }
            told = [] if first else _corrections_of(table, served)
            if told:
                line = _correction_lines(table, label, told)
            else:  # the table's page, as a correction's entry has it: the director checks what was rated
                line = f"{line}\n  {site_link('ratings:table', table.pk)}"
            for director in table.tournament.directors.all():
                if director.email:
                    lines[director.email].append(line)
                    if told:
                        corrected.add(director.email)
        queued = 0
        for email, table_lines in sorted(lines.items()):
            body = "\n".join(table_lines)
            subject = (
                _("FESA ratings: your tables were corrected")
                if email in corrected
                else _("FESA ratings: your tables were rated")
            )
            queued += (
                mail_queue(event_key=f"tables-rated:{run.pk}", recipient=email, subject=subject, body=body) is not None
            )
    return queued


def _served_corrections(opening: dt.datetime, last: dt.datetime) -> list[Correction]:
    """The corrections the runs started from ``opening`` to ``last`` are the first to serve: made since the run
    before them started, up to the last one's start. (One committed while a run was starting is served by the
    call's next run, which the call's message covers too: ``since``.)"""
    previous = (
        RerateRun.objects.filter(started_at__lt=opening)
        .order_by("-started_at")
        .values_list("started_at", flat=True)
        .first()
    )
    corrections = Correction.objects.filter(made_at__lte=last).exclude(kind=Correction.Kind.IDENTITY)
    if previous is not None:
        corrections = corrections.filter(made_at__gt=previous)
    return list(corrections.select_related("table__tournament", "player").order_by("made_at", "pk"))


def _corrections_of(table: Table, served: list[Correction]) -> list[Correction]:
    """The served corrections that re-rated ``table``: its own first, then those of earlier tables and of
    players (a prior grade or a merge re-rates from the player's first table). A player's identity is not
    rated, so its corrections re-rate nothing and are left out before this."""
    own = [c for c in served if c.table_id == table.pk]
    position = (table.date, table.sequence)
    earlier = [
        c
        for c in served
        if c.kind != Correction.Kind.TABLE
        or (c.table is not None and c.table_id != table.pk and (c.table.date, c.table.sequence) <= position)
    ]
    return own + earlier


def _correction_lines(table: Table, label: str, told: list[Correction]) -> str:
    """The table's entry: corrected, or re-rated after corrections elsewhere; each with its reason; the link."""
    own = told[0].table_id == table.pk
    heading = (
        _("%(table)s (%(date)s): corrected by a rating officer")
        if own
        else _("%(table)s (%(date)s): re-rated after a rating officer's correction")
    ) % {"table": label, "date": table.date.isoformat()}
    lines = [heading]
    for correction in told:
        lines.append(
            _("  - %(what)s: %(reason)s") % {"what": _corrected_what(correction, table), "reason": correction.reason}
        )
    lines.append(f"  {site_link('ratings:table', table.pk)}")
    return "\n".join(lines)


def _corrected_what(correction: Correction, table: Table) -> str:
    if correction.table_id == table.pk:
        return _("this table")
    if correction.kind == Correction.Kind.TABLE:
        return _("the table %(table)s") % {"table": correction.table}
    if correction.kind == Correction.Kind.PRIOR_GRADE:
        return _("the prior grade of %(player)s") % {"player": correction.player}
    return _("a merge of duplicate players (%(player)s)") % {"player": correction.player}
