"""The messages the site sends (ratings/services/mail/): one row per event and recipient, so nothing is sent
twice for one event, and the failures stay countable (the metrics) and visible."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class MailStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")


class OutgoingMail(models.Model):
    """A message to one address for one event: ``event_key`` names the event ("deadline-reminder:12:2026-07-20"),
    and the pair is unique, so a retried or repeated event finds the row it made and sends nothing new."""

    event_key = models.CharField(_("event"), max_length=200)
    recipient = models.EmailField(_("recipient"))
    subject = models.CharField(_("subject"), max_length=250)
    body = models.TextField(_("body"))
    # Extra header lines of the message, e.g. List-Unsubscribe for a subscriber (RFC 8058).
    headers = models.JSONField(_("headers"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=MailStatus.choices, default=MailStatus.QUEUED)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    failures = models.PositiveSmallIntegerField(_("failures"), default=0)  # only grows: the metrics count it
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("outgoing message")
        verbose_name_plural = _("outgoing messages")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["event_key", "recipient"], name="outgoing_mail_once_per_event"),
            models.CheckConstraint(condition=Q(status__in=["queued", "sent", "failed"]), name="outgoing_mail_status"),
        ]

    def __str__(self) -> str:
        return f"{self.event_key} → {self.recipient}"
