"""The season's daily messages: a reminder to a tournament's directors before its results deadline, and the
rating officers' digest of what waits for them (overdue results, tables that did not settle, prior-grade
proposals, likely duplicate players).

Each message's event names its day or deadline, so running the daily task twice (or retrying it) sends
nothing new; a director who has no e-mail address is skipped. The texts are in the site's default language
(LANGUAGE_CODE): staff have no language of their own in the site.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ratings.access import RATING_OFFICERS
from ratings.models import Player, PriorGradeProposal, ProposalStatus
from ratings.selectors.duplicates import DuplicateSuspects, duplicate_suspects
from ratings.selectors.season import announced_tournaments, overdue_tournaments, results_deadline, with_results
from ratings.selectors.settle import unresolved_tables
from ratings.services.mail import mail_queue, site_link
from ratings.services.reports import reports_waiting


def deadline_reminders_queue(*, today: dt.date) -> int:
    """Remind the directors of each accepted tournament whose results are due within
    ``SEASON_REMINDER_DAYS`` and not received; returns how many messages were queued."""
    last_end = today - dt.timedelta(days=settings.SEASON_RESULTS_DEADLINE_DAYS)
    soon_end = last_end + dt.timedelta(days=settings.SEASON_REMINDER_DAYS)
    due = (
        with_results(announced_tournaments().filter(end_date__gte=last_end, end_date__lte=soon_end, end_date__lt=today))
        .filter(received_at__isnull=True)
        .prefetch_related("directors")
    )
    queued = 0
    with translation.override(settings.LANGUAGE_CODE):
        for tournament in due:
            deadline = results_deadline(tournament.end_date)
            subject = _("Results of %(tournament)s due on %(date)s") % {
                "tournament": tournament.name,
                "date": deadline.isoformat(),
            }
            body = _(
                "The results of %(tournament)s are due on %(date)s. Upload its turnering.txt or enter its tables "
                "in the site's admin; results sent later may go unrated."
            ) % {"tournament": tournament.name, "date": deadline.isoformat()}
            for director in tournament.directors.all():
                if director.email:
                    key = f"deadline-reminder:{tournament.pk}:{deadline.isoformat()}"
                    queued += (
                        mail_queue(event_key=key, recipient=director.email, subject=subject, body=body) is not None
                    )
    return queued


def officer_digest_queue(*, today: dt.date) -> int:
    """The rating officers' digest of what waits for them (overdue results, tables that did not settle,
    prior-grade proposals, likely duplicate players), once a day, only when something waits.

    Likely duplicates that are two people stay in the report until their names change, so they alone send
    no digest; a pair made by a player added since yesterday does. The detector reads every player's name
    (bench/bench_duplicates.py), so it runs only when the digest goes, or a player was added."""
    overdue = list(overdue_tournaments(today=today))
    unsettled = unresolved_tables().count()
    proposals = PriorGradeProposal.objects.filter(status=ProposalStatus.PENDING).count()
    reports = reports_waiting()
    since = timezone.make_aware(dt.datetime.combine(today - dt.timedelta(days=1), dt.time.min))
    if not (overdue or unsettled or proposals or reports or Player.objects.filter(created_at__gte=since).exists()):
        return 0
    suspects = duplicate_suspects(since=since)
    if not (overdue or unsettled or proposals or reports or suspects.new):
        return 0
    officers = (
        get_user_model()
        .objects.filter(Q(groups__name=RATING_OFFICERS) | Q(is_superuser=True), is_active=True)
        .exclude(email="")
    )
    queued = 0
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("FESA ratings: what waits for the rating officers on %(date)s") % {"date": today.isoformat()}
        lines = [
            _("%(tournament)s, ended %(end)s, results due %(date)s")
            % {
                "tournament": t.name,
                "end": t.end_date.isoformat(),
                "date": results_deadline(t.end_date).isoformat(),
            }
            for t in overdue
        ]
        if unsettled:
            lines.append(_("Tables that did not settle: %(count)d") % {"count": unsettled})
        if proposals:
            lines.append(_("Prior-grade proposals waiting: %(count)d") % {"count": proposals})
        if reports:
            lines.append(_("Reported mistakes waiting: %(count)d") % {"count": reports})
            lines.append(f"  {site_link('admin:ratings_mistakereport_changelist')}")
        if suspects.total:
            lines += _duplicate_lines(suspects)
        body = "\n".join(lines)
        for email in sorted(set(officers.values_list("email", flat=True))):
            key = f"officer-digest:{today.isoformat()}"
            queued += mail_queue(event_key=key, recipient=email, subject=subject, body=body) is not None
    return queued


def _duplicate_lines(suspects: DuplicateSuspects) -> list[str]:
    """The count, the newest pairs with a link to merge each, and the report's link."""
    lines = [
        _("Pairs of likely duplicate players: %(count)d, %(new)d of them new since yesterday")
        % {"count": suspects.total, "new": suspects.new}
    ]
    for pair in suspects.newest:
        first, second = (f"{p} ({p.federation_id}, {p.nationality.code or '—'})" for p in pair.both)
        lines.append(_("- %(first)s and %(second)s") % {"first": first, "second": second})
        merge = site_link("admin:ratings_player_merge", pair.second.pk, query=f"kept={pair.first.federation_id}")
        lines.append(f"  {merge}")
    lines.append(_("The report of likely duplicates: %(url)s") % {"url": site_link("admin:ratings_player_duplicates")})
    return lines
