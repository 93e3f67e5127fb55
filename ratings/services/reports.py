"""A mistake reported by anyone, without an account: "Something wrong?" on a player's and a table's page.

* **Double opt-in, throttled,** as the players' subscribers (ratings/services/season/subscriptions.py):
  ``report_request`` records the report unconfirmed and queues a message whose link carries a signed, expiring
  token; only ``report_confirm`` puts it in the rating officers' queue. An address is sent at most
  ``CONFIRMATIONS_PER_DAY`` confirmation requests a day (the form is limited per client address too,
  ratings/web/throttling.py), and an unconfirmed report expires after SUBSCRIPTION_CONFIRM_DAYS.
* **The queue.** A rating officer moves a report to "in progress", "corrected" (linking the correction that
  settled it, ratings/services/corrections: one of the reported table, or for a report about a player, of him
  or of a table he played) or "rejected" with a reason (``report_decide``). Corrected or rejected is final: the
  reporter was told. It counts in the officers' daily digest while new or in progress.
* **The outcome** (corrected or rejected, with the reason) is mailed to the reporter in the language he wrote
  in, through the outbox; its event names the report (``report:<id>:...``), so deleting the report deletes it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ratings.models import (
    REPORT_SETTLED,
    Correction,
    Game,
    MistakeReport,
    OutgoingMail,
    Player,
    ReportStatus,
    Table,
    TableEntry,
)
from ratings.services.fingerprints import version_check, version_of
from ratings.services.mail import mail_queue, site_link
from ratings.services.season.subscriptions import CONFIRMATIONS_PER_DAY, normalise_email

CONFIRM_SALT = "ratings.reports.confirm"


def _event(report_id: int, rest: str) -> str:
    return f"report:{report_id}:{rest}"


def report_token(report: MistakeReport) -> str:
    return signing.dumps({"r": report.pk}, salt=CONFIRM_SALT)


def report_token_id(token: str) -> int | None:
    """The report of a confirmation token, or None when it is forged, damaged or expired."""
    try:
        payload = signing.loads(token, salt=CONFIRM_SALT, max_age=dt.timedelta(days=settings.SUBSCRIPTION_CONFIRM_DAYS))
    except signing.BadSignature:
        return None
    value = payload.get("r") if isinstance(payload, dict) else None
    return value if isinstance(value, int) else None


def report_request(
    *, player: Player | None, table: Table | None, game: Game | None, what: str, email: str, language: str
) -> MistakeReport:
    """Record a report unconfirmed and queue its confirmation message (see the module's doc). Raises
    ValidationError on a report that names nothing, a game outside its table, or an unknown language."""
    what = what.strip()
    if language not in dict(settings.LANGUAGES):
        raise ValidationError(_("Unknown language."))
    if player is None and table is None:
        raise ValidationError(_("A report names a player or a table."))
    if game is not None and (table is None or game.table_id != table.pk):
        raise ValidationError(_("The game is not one of the table's."))
    if not what:
        raise ValidationError(_("Say what is wrong."))
    email = normalise_email(email)
    with transaction.atomic():
        report = MistakeReport.objects.create(
            player=player, table=table, game=game, what=what[:2000], email=email, language=language
        )
        since = timezone.now() - dt.timedelta(days=1)
        recent = OutgoingMail.objects.filter(
            recipient=email, event_key__startswith="report:", event_key__endswith=":confirm", created_at__gte=since
        )
        if recent.count() < CONFIRMATIONS_PER_DAY:
            with translation.override(language):
                subject, body = _confirmation_text(report)
            mail_queue(event_key=_event(report.pk, "confirm"), recipient=email, subject=subject, body=body)
    return report


def _about(report: MistakeReport) -> str:
    parts = [str(p) for p in (report.player, report.table) if p is not None]
    game = report.game
    if game is not None:  # several games may share a round: the players name it
        parts.append(
            _("round %(round)d, %(first)s against %(second)s")
            % {"round": game.round, "first": game.first, "second": game.second or "–"}
        )
    return ", ".join(parts)


def _confirmation_text(report: MistakeReport) -> tuple[str, str]:
    subject = _("FESA ratings: confirm your report of a mistake")
    lines = [
        _("Someone, probably you, reported a mistake to the FESA rating site about %(about)s:")
        % {"about": _about(report)},
        "",
        report.what,
        "",
        _("To send it to the rating officers, open this link within %(days)d days and press the button:")
        % {"days": settings.SUBSCRIPTION_CONFIRM_DAYS},
        site_link("ratings:report_confirm", report_token(report)),
        "",
        _("If you did not send it, ignore this message: nothing more will be sent."),
    ]
    return subject, "\n".join(lines)


def report_confirm(*, token: str) -> MistakeReport | None:
    """Put the report of ``token`` in the officers' queue; None for a bad or expired token or a report that no
    longer exists. Confirming again changes nothing more."""
    report_id = report_token_id(token)
    if report_id is None:
        return None
    with transaction.atomic():
        report = MistakeReport.objects.select_for_update().filter(pk=report_id).first()
        if report is not None and report.confirmed_at is None:
            report.confirmed_at = timezone.now()
            report.save(update_fields=["confirmed_at"])
    return report


def report_confirmed(report_id: int) -> bool:
    """Whether the report is in the officers' queue already (``report_token_id`` of a link opened again)."""
    return MistakeReport.objects.filter(pk=report_id, confirmed_at__isnull=False).exists()


def _facts(report: MistakeReport) -> tuple[str, str, int | None]:
    return (report.status, report.reason, report.correction_id)


def report_version(report: MistakeReport) -> str:
    """The version of the report as its page shows it, for the officer's decision to carry."""
    return version_of(_facts(report))


def report_decision_check(report: MistakeReport, *, status: str, reason: str, correction: Correction | None) -> None:
    """Raise ValidationError (by field where one is to blame) if the rules refuse moving ``report``, as it is
    now, to ``status`` with ``reason`` and ``correction``; the admin's form asks it before the service does."""
    if report.status in REPORT_SETTLED:  # its decision is stamped and the reporter told: nothing may change it
        raise ValidationError(
            _("This report is settled (%(status)s) and the reporter was told; it cannot be decided again.")
            % {"status": report.get_status_display()}
        )
    if status not in ReportStatus.values:
        raise ValidationError({"status": _("Unknown status.")})
    if report.confirmed_at is None:
        raise ValidationError(_("The reporter has not confirmed this report yet."))
    if status == ReportStatus.REJECTED and not reason.strip():
        raise ValidationError({"reason": _("Say why the report is rejected: the reporter is told.")})
    if correction is not None and status != ReportStatus.CORRECTED:
        raise ValidationError({"correction": _("Only a corrected report links to its correction.")})
    if status == ReportStatus.CORRECTED and correction is None:
        raise ValidationError({"correction": _("Link the correction that settled it: the reporter is told.")})
    if correction is not None and not _settles(correction, report):
        raise ValidationError(
            {
                "correction": _(
                    "That correction is not about what was reported: link one of the reported table, or of the "
                    "reported player or a table he played."
                )
            }
        )


def settling_corrections(report: MistakeReport) -> QuerySet[Correction]:
    """The corrections that may settle ``report``, the newest first: those of its table, else
    those of its player or of a table he sat in."""
    if report.table_id is not None:
        about = Q(table_id=report.table_id)
    elif report.player_id is not None:
        played = TableEntry.objects.filter(player_id=report.player_id).values("table_id")
        about = Q(player_id=report.player_id) | Q(table_id__in=played)
    else:
        return Correction.objects.none()
    return Correction.objects.filter(about).order_by("-made_at", "-pk")


def _settles(correction: Correction, report: MistakeReport) -> bool:
    """Whether ``correction`` is about what ``report`` names (``settling_corrections``)."""
    return settling_corrections(report).filter(pk=correction.pk).exists()


def report_decide(
    *,
    report: MistakeReport,
    status: str,
    reason: str = "",
    correction: Correction | None = None,
    user: Any,
    expected: str | None,
) -> MistakeReport:
    """A rating officer moves ``report`` to ``status``; settling it (corrected, rejected) tells the reporter, once:
    a settled report is final. Raises ValidationError as ``report_decision_check`` does; ChangedMeanwhile when
    ``expected`` is not the report's version now (None: no page was shown)."""
    reason = reason.strip()
    with transaction.atomic():
        report = MistakeReport.objects.select_for_update().get(pk=report.pk)
        version_check(expected, _facts(report))  # another officer may have decided since the page was loaded
        report_decision_check(report, status=status, reason=reason, correction=correction)
        was = report.status
        report.status, report.reason, report.correction = status, reason, correction
        if status in REPORT_SETTLED:
            report.decided_at, report.decided_by = timezone.now(), user
        report.save()
        if status in REPORT_SETTLED and status != was:
            with translation.override(report.language):
                subject, body = _outcome_text(report)
            mail_queue(
                event_key=_event(report.pk, f"outcome:{status}"), recipient=report.email, subject=subject, body=body
            )
    return report


def _outcome_text(report: MistakeReport) -> tuple[str, str]:
    subject = _("FESA ratings: your report of a mistake")
    if report.status == ReportStatus.CORRECTED:
        outcome = _("The rating officers corrected it. Thank you.")
    else:
        outcome = _("The rating officers found nothing to correct: %(reason)s") % {"reason": report.reason}
    lines = [_("You reported a mistake about %(about)s:") % {"about": _about(report)}, "", report.what, "", outcome]
    if report.table_id is not None:
        lines += ["", site_link("ratings:table", report.table_id)]
    elif report.player is not None:
        lines += ["", site_link("ratings:player", report.player.federation_id)]
    return subject, "\n".join(lines)


def reports_waiting() -> int:
    """Confirmed reports that wait for a rating officer (new or in progress): the digest counts them."""
    return MistakeReport.objects.filter(
        confirmed_at__isnull=False, status__in=[ReportStatus.NEW, ReportStatus.IN_PROGRESS]
    ).count()


def reports_expire(*, now: dt.datetime) -> int:
    """Delete the reports never confirmed within SUBSCRIPTION_CONFIRM_DAYS, with their messages."""
    old = MistakeReport.objects.filter(
        confirmed_at__isnull=True, created_at__lt=now - dt.timedelta(days=settings.SUBSCRIPTION_CONFIRM_DAYS)
    )
    return reports_delete(old.values_list("pk", flat=True))


def reports_delete(report_ids: Any) -> int:
    """Delete the reports ``report_ids`` and the outbox rows of their messages (which hold the address)."""
    ids = list(report_ids)
    for report_id in ids:
        OutgoingMail.objects.filter(event_key__startswith=f"report:{report_id}:").delete()
    MistakeReport.history.filter(id__in=ids).delete()
    return MistakeReport.objects.filter(pk__in=ids).delete()[0]
