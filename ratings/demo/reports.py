"""The demo's reported mistakes, one in each state of the officers' queue (ratings/services/reports.py): new, in
progress, corrected (about the table of the demo's latest correction, which it links; in progress when there is
none) and rejected with its reason, plus
one not confirmed yet, which the queue does not show. Reporters write from example.org addresses."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from ratings.access import RATING_OFFICERS
from ratings.models import Correction, Game, MistakeReport, ReportStatus, Table, TableStatus
from ratings.services.reports import report_decide, report_request

TEXTS = (
    ("new", "en", "Round {round} was a draw (sennichite replay), not a win."),
    ("in_progress", "de", "Mein Vorname wird mit ö geschrieben, nicht mit oe."),
    ("corrected", "fr", "La ronde {round} a été jouée avec un handicap de deux pièces."),
    ("rejected", "en", "I think I played this tournament in 2023."),
    ("unconfirmed", "en", "My opponent in round {round} was someone else."),
)
REASON = "The director's table and the scoresheets agree with the result as rated."
# A text names its round: the round of the game the report is about.


def demo_reports() -> int:
    """One report per state (and one unconfirmed) about the latest rated tables' games; how many were made.
    Nothing without a rated table, or a rating officer or superuser to decide them."""
    officer = (
        get_user_model()
        .objects.filter(Q(groups__name=RATING_OFFICERS) | Q(is_superuser=True), is_active=True)
        .order_by("pk")
        .first()
    )
    tables = list(Table.objects.filter(status=TableStatus.RATED).order_by("-date", "-sequence")[: len(TEXTS)])
    if officer is None or len(tables) < len(TEXTS):
        return 0
    # The corrected report is about the table of the demo's latest correction of a table, which settles it.
    correction = Correction.objects.filter(table__status=TableStatus.RATED).order_by("-made_at").first()
    for (state, language, what), table in zip(TEXTS, tables, strict=True):
        if state == ReportStatus.CORRECTED and correction is not None and correction.table is not None:
            table = correction.table
        game = Game.objects.filter(table=table, second__isnull=False).order_by("round", "pk").first()
        player = game.first if game is not None else None
        report = report_request(
            player=player,
            table=table,
            game=game,
            what=what.format(round=game.round if game is not None else 1),
            email=f"reporter-{state}@example.org",
            language=language,
        )
        if state == "unconfirmed":
            continue
        MistakeReport.objects.filter(pk=report.pk).update(confirmed_at=timezone.now())
        report.refresh_from_db()
        if state == ReportStatus.CORRECTED and correction is None:
            state = ReportStatus.IN_PROGRESS  # nothing corrected in this federation yet
        if state in (ReportStatus.IN_PROGRESS, ReportStatus.CORRECTED, ReportStatus.REJECTED):
            report_decide(
                report=report,
                status=state,
                reason=REASON if state == ReportStatus.REJECTED else "",
                correction=correction if state == ReportStatus.CORRECTED else None,
                user=officer,
                expected=None,
            )
    return len(TEXTS)
