"""A mistake a person reports on a player's page or a table's page, without an account
(ratings/services/reports.py): it waits for a rating officer, who corrects it or rejects it with a reason,
and the reporter is told the outcome in his language. The address is personal data: never shown publicly, in
the player's privacy export (without the address: it is the reporter's), deleted with his erasure."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ratings.models.history import Correction
from ratings.models.players import Player
from ratings.models.tables import Game, Table


class ReportStatus(models.TextChoices):
    NEW = "new", _("new")
    IN_PROGRESS = "in_progress", _("in progress")
    CORRECTED = "corrected", _("corrected")
    REJECTED = "rejected", _("rejected")


REPORT_SETTLED = (ReportStatus.CORRECTED, ReportStatus.REJECTED)


class MistakeReport(models.Model):
    """ "Something wrong?": what is wrong, about ``player`` and/or ``table`` (and the ``game`` in it).

    It reaches the officers' queue once ``confirmed_at`` is set by the link of the confirmation message (the
    same double opt-in as the players' subscribers); an unconfirmed report expires."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="reports", verbose_name=_("player")
    )
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports", verbose_name=_("table")
    )
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports", verbose_name=_("game")
    )
    what = models.TextField(_("what is wrong"), max_length=2000)
    email = models.EmailField(_("e-mail address"))
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    status = models.CharField(_("status"), max_length=12, choices=ReportStatus.choices, default=ReportStatus.NEW)
    reason = models.TextField(_("reason"), blank=True, help_text=_("Why it is rejected: the reporter is told it."))
    correction = models.ForeignKey(
        Correction,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("correction"),
        help_text=_("The correction that settled it."),
    )
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("decided by"),
    )
    history = HistoricalRecords(excluded_fields=["email"])

    class Meta:
        verbose_name = _("reported mistake")
        verbose_name_plural = _("reported mistakes")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(player__isnull=False) | Q(table__isnull=False), name="report_names_player_or_table"
            ),
            models.CheckConstraint(condition=~Q(status="rejected") | ~Q(reason=""), name="report_rejection_has_reason"),
        ]
        indexes = [models.Index(fields=["status", "confirmed_at"], name="report_queue_idx")]

    def __str__(self) -> str:
        about = self.table or self.player
        return f"{about}: {self.what[:60]}"
