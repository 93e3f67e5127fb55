"""Telling directors that their tables were rated: after a re-rate run, each director of a tournament whose
table the run rated for the first time or changed gets one message listing those tables, whatever the number
of edits the run served (the quiet moment before a run gathers a burst of them). The event is the run, so a
repeated task sends nothing new. Texts in the site's default language (LANGUAGE_CODE)."""

from __future__ import annotations

from collections import defaultdict

from django.conf import settings
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _

from ratings.models import RerateRun, Table
from ratings.services.mail import mail_queue


def run_directors_notify(*, run_id: int) -> int:
    """Queue the directors' messages for the tables run ``run_id`` rated or changed; how many were queued."""
    run = RerateRun.objects.filter(pk=run_id, finished_at__isnull=False).first()
    if run is None:
        return 0
    window = {"gte": run.started_at, "lte": run.finished_at}
    touched = (
        Table.objects.filter(
            Q(first_rated_at__gte=window["gte"], first_rated_at__lte=window["lte"])
            | Q(last_rerated_at__gte=window["gte"], last_rerated_at__lte=window["lte"])
        )
        .select_related("tournament")
        .prefetch_related("tournament__directors")
        .order_by("date", "sequence")
    )
    lines: dict[str, list[str]] = defaultdict(list)
    with translation.override(settings.LANGUAGE_CODE):
        for table in touched:
            first = table.first_rated_at is not None and table.first_rated_at >= run.started_at
            label = table.label
            line = (
                _("%(table)s (%(date)s): rated") if first else _("%(table)s (%(date)s): re-rated, its ratings changed")
            ) % {
                "table": label,
                "date": table.date.isoformat(),
            }
            for director in table.tournament.directors.all():
                if director.email:
                    lines[director.email].append(line)
        subject = _("FESA ratings: your tables were rated")
        queued = 0
        for email, table_lines in sorted(lines.items()):
            body = "\n".join(table_lines)
            queued += (
                mail_queue(event_key=f"tables-rated:{run.pk}", recipient=email, subject=subject, body=body) is not None
            )
    return queued
