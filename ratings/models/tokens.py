"""Directors' personal access tokens for the submission API (ratings/api/submit.py), and the submissions it
answered, kept by the client's ``Idempotency-Key`` so that a retried submit never saves a second table.

A token is shown once, when it is created (ratings/admin/tokens.py); only its SHA-256 digest is stored, with its
first characters to recognise it in lists. It expires (``ACCESS_TOKEN_MAX_DAYS`` at most) and may be revoked; a
revoked token stays listed, with who revoked it and when.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ratings.models.tables import Table


class AccessToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens", verbose_name=_("owner")
    )
    name = models.CharField(
        _("name"), max_length=100, help_text=_("What the token is for: the program or computer that uses it.")
    )
    prefix = models.CharField(_("begins with"), max_length=16, editable=False)
    digest = models.CharField(_("digest"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True, editable=False)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
        verbose_name=_("revoked by"),
    )

    class Meta:
        verbose_name = _("access token")
        verbose_name_plural = _("access tokens")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(revoked_by__isnull=True) | Q(revoked_at__isnull=False), name="access_token_revoked_by_when"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    def is_active(self, now: dt.datetime | None = None) -> bool:
        """Neither revoked nor expired."""
        return self.revoked_at is None and self.expires_at > (now or timezone.now())


class ApiSubmission(models.Model):
    """A submit the API carried out, under the client's ``Idempotency-Key`` (unique per user): the same key again
    gets this answer back; with another body, an error. Only a saved table is kept: a refused submit may be
    fixed and sent again under the same key."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    key = models.CharField(_("idempotency key"), max_length=200)
    fingerprint = models.CharField(_("request fingerprint"), max_length=64)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("table")
    )
    status_code = models.PositiveSmallIntegerField(_("status code"), null=True, blank=True)
    answer = models.JSONField(_("answer"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("API submission")
        verbose_name_plural = _("API submissions")
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="api_submission_key_once")]

    def __str__(self) -> str:
        return self.key
