"""How well the rating systems predict the federation's games: one report per version of the data.

A derived row like the rating rows, made by a task (ratings/services/predictions.py) and never edited by hand;
it holds the comparison's figures as JSON, and while the task runs, how far it has come.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class PredictionReport(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    # The data version it was computed for (ratings/selectors/versions.py): one report per version.
    version = models.CharField(_("data version"), max_length=32, unique=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.RUNNING)
    tables_total = models.PositiveIntegerField(_("tables in all"), default=0)
    tables_done = models.PositiveIntegerField(_("tables done"), default=0)
    started_at = models.DateTimeField(_("started at"))
    updated_at = models.DateTimeField(_("updated at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    result = models.JSONField(_("figures"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        verbose_name = _("prediction report")
        verbose_name_plural = _("prediction reports")
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"{self.version} ({self.status})"

    @property
    def percent_done(self) -> int:
        if not self.tables_total:
            return 0
        return min(100, self.tables_done * 100 // self.tables_total)
