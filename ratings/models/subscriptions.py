"""People told by e-mail about a player, without an account (ratings/services/season/subscriptions.py).

An address is personal data: it is never shown on a public page nor in the API, it goes into the player's
privacy export and is deleted by his erasure (docs/privacy.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ratings.models.players import Player


class Subscription(models.Model):
    """An address that asked to be told when ``player``'s tables are rated or corrected (``on_tables``) and when
    he is awarded a grade (``on_grades``), in ``language``.

    Nothing is sent for events until ``confirmed_at`` is set by the link of the confirmation message (double
    opt-in); an unconfirmed row expires after SUBSCRIPTION_CONFIRM_DAYS. The pair (player, address) is unique.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="subscriptions", verbose_name=_("player"))
    email = models.EmailField(_("e-mail address"))
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    on_tables = models.BooleanField(_("a table rated or corrected"), default=True)
    on_grades = models.BooleanField(_("a grade awarded"), default=True)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("e-mail subscription")
        verbose_name_plural = _("e-mail subscriptions")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["player", "email"], name="subscription_once_per_address"),
            models.CheckConstraint(condition=Q(on_tables=True) | Q(on_grades=True), name="subscription_some_event"),
        ]

    def __str__(self) -> str:
        return f"{self.player} → {self.email}"
