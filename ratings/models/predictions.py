"""How well the rating systems predict the federation's games: one report per version of the data; and the
what-ifs of FESA's rules with other constants, one per set of constants and version of the data.

Derived rows like the rating rows, made by tasks (ratings/services/predictions.py, ratings/services/whatif.py)
and never edited by hand; each holds its figures as JSON, and while the task runs, how far it has come.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ComputedReport(models.Model):
    """What a report's task writes as it goes: how far it has come, then its figures or its error."""

    tables_total = models.PositiveIntegerField(_("tables in all"), default=0)
    tables_done = models.PositiveIntegerField(_("tables done"), default=0)
    updated_at = models.DateTimeField(_("updated at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    result = models.JSONField(_("figures"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        abstract = True

    @property
    def percent_done(self) -> int:
        if not self.tables_total:
            return 0
        return min(100, self.tables_done * 100 // self.tables_total)


class PredictionReport(ComputedReport):
    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    # The data version it was computed for (ratings/selectors/versions.py): one report per version.
    version = models.CharField(_("data version"), max_length=32, unique=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.RUNNING)
    started_at = models.DateTimeField(_("started at"))

    class Meta:
        verbose_name = _("prediction report")
        verbose_name_plural = _("prediction reports")
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"{self.version} ({self.status})"


class WhatIfReport(ComputedReport):
    """FESA's rules replayed over the history with other constants (docs/rules.md §11): the figures of its
    predictions beside those of the stored ratings, and the players it would move most. Asked for by a rating
    officer; it never touches the federation's ratings."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    # The constants (ratings/engine/rules.py ``RuleConstants.as_json``) and their digest, the key with the data
    # version it was computed for: the same question on the same data is answered once.
    rules_key = models.CharField(_("constants' key"), max_length=16)
    rules = models.JSONField(_("constants"))
    version = models.CharField(_("data version"), max_length=32)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    requested_at = models.DateTimeField(_("requested at"))

    class Meta:
        verbose_name = _("what-if of the rules")
        verbose_name_plural = _("what-ifs of the rules")
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["rules_key", "version"], name="whatif_one_per_rules_and_version")
        ]

    def __str__(self) -> str:
        return f"{self.rules_key} / {self.version} ({self.status})"
