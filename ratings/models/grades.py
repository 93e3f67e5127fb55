"""Promotions the engine finds and the grade officers' decisions on them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ratings.engine import grade_label
from ratings.engine.grades import FIRST_DAN, NSR_CONSENT_FROM
from ratings.models.common import GRADE_CHOICES
from ratings.models.players import Player
from ratings.models.tables import Table


class PromotionRoute(models.TextChoices):
    UPPER_BOUND = "upper_bound", _("reached the upper bound")
    MIDPOINT_RUN = "midpoint_run", _("run above the midpoint")
    LOWER_BOUND_RUN = "lower_bound_run", _("run above the lower bound")
    PROVISIONAL = "provisional", _("provisional")
    BOUND_TO_GET_IT = "bound_to_get_it", _("bound to get it")


class PromotionStatus(models.TextChoices):
    EFFECTIVE = "effective", _("effective")  # Kyu grades take effect at once
    PENDING = "pending", _("waiting for approval")
    APPROVED = "approved", _("approved")
    REJECTED = "rejected", _("rejected")
    WITHDRAWN = "withdrawn", _("withdrawn")  # the corrected history no longer supports it
    REVOKED = "revoked", _("revoked")  # an approved grade the grade officer took away after it was flagged


LIVE_PROMOTION_STATUSES = ["effective", "pending", "approved", "rejected"]
"""The statuses of the one record a player holds per grade; withdrawn and revoked ones are kept as history."""


class Promotion(models.Model):
    """A promotion the engine found, and what the grade officers decided about it
    (ratings/services/grades/promotions.py).

    ``table`` is empty only when the table it was earned in was deleted: the record, and any decision on it,
    stays until re-rating finds the grade elsewhere. ``reviewed_*`` hold the grade officer's decision on an
    approved grade the history no longer supports (kept: still approved; taken away: revoked), apart from
    ``decided_*``, which keep who approved or rejected it.
    """

    # No index of its own: "promotion_player_idx" leads with the player.
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="promotions", verbose_name=_("player"), db_index=False
    )
    grade = models.PositiveSmallIntegerField(_("grade"), choices=GRADE_CHOICES)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="promotions", verbose_name=_("table")
    )
    round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    game_number = models.PositiveIntegerField(_("game number"))
    route = models.CharField(_("route"), max_length=20, choices=PromotionRoute.choices)
    rating = models.FloatField(_("rating at promotion"))
    status = models.CharField(_("status"), max_length=10, choices=PromotionStatus.choices)
    supported = models.BooleanField(
        _("supported by the history"), default=True, help_text=_("Off when a correction took its ground away.")
    )
    flag_reason = models.CharField(_("why flagged or withdrawn"), max_length=300, blank=True)
    nsr_consent = models.BooleanField(_("NSR consent"), default=False)
    nsr_consent_date = models.DateField(_("NSR consent date"), null=True, blank=True)
    nsr_reference = models.CharField(_("NSR reference"), max_length=100, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decision_reason = models.TextField(_("reason"), blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("reviewed by"),
    )
    reviewed_at = models.DateTimeField(_("flag decided at"), null=True, blank=True)
    review_reason = models.TextField(_("flag decision reason"), blank=True)
    created_at = models.DateTimeField(_("found at"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("promotion")
        verbose_name_plural = _("promotions")
        ordering = ["-table__date", "player"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(status="approved") | Q(grade__lt=NSR_CONSENT_FROM) | Q(nsr_consent=True),
                name="promotion_high_dan_needs_nsr",
            ),
            models.CheckConstraint(
                condition=~Q(status="effective") | Q(grade__lt=FIRST_DAN), name="promotion_dan_not_automatic"
            ),
            # One live record per player and grade: re-rating matches the engine's findings to it.
            models.UniqueConstraint(
                fields=["player", "grade"],
                condition=Q(status__in=LIVE_PROMOTION_STATUSES),
                name="promotion_one_live_per_grade",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "grade"], name="promotion_status_idx"),
            models.Index(fields=["player", "grade"], name="promotion_player_idx"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s to %(grade)s (%(status)s)") % {
            "player": self.player,
            "grade": grade_label(self.grade),
            "status": self.get_status_display(),
        }


class PromotionRevision(models.Model):
    """A grade officer's change of a decision already taken: approved to revoked, or rejected to approved.

    The promotion's own fields then hold the new decision; this row keeps who changed it, when, from what to
    what and why (the audit history of ``Promotion`` has every field besides). Staff only: the public pages
    show the dates of a player's grade steps, never a reason or an officer.
    """

    promotion = models.ForeignKey(
        Promotion, on_delete=models.CASCADE, related_name="revisions", verbose_name=_("promotion")
    )
    status_before = models.CharField(_("before"), max_length=10, choices=PromotionStatus.choices)
    status_after = models.CharField(_("after"), max_length=10, choices=PromotionStatus.choices)
    reason = models.TextField(_("reason"))
    revised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("by")
    )
    revised_at = models.DateTimeField(_("revised at"))

    class Meta:
        verbose_name = _("promotion revision")
        verbose_name_plural = _("promotion revisions")
        ordering = ["promotion", "revised_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="promotion_revision_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.promotion}: {self.status_before} → {self.status_after}"
