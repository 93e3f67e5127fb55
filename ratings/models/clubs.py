"""Clubs and the club each player belongs to, by date (ratings/selectors/clubs.py reads them).

A player's club is a history: each ``ClubMembership`` says "from ``since`` on, in ``club``" (``club`` empty: in
none from that date), so a list as of a past date shows the club of that date. A club's name is matched as a
player's is (``name_key``, the folded name: case, accents and the German spellings do not matter), one club per
folded name and country.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField
from simple_history.models import HistoricalRecords

from ratings.models.common import check_names, name_fold_key, place_name
from ratings.models.players import Player


class Club(models.Model):
    name = models.CharField(_("name"), max_length=150)
    country = CountryField(_("country"))
    city = models.CharField(_("city"), max_length=100, blank=True)
    website = models.URLField(_("web site"), blank=True)
    # The folded name (``name_fold_key``) a director's upload and the CSV import match a club by.
    name_key = models.CharField(_("name key"), max_length=300, editable=False, default="")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["country", "name_key"], name="club_one_per_name")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_fold_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        check_names(self, "name", "city")
        key = name_fold_key(self.name)
        if not key:
            return
        same = Club.objects.filter(country=self.country, name_key=key).exclude(pk=self.pk)
        if same.exists():
            raise ValidationError({"name": _("This country has a club of that name already.")})

    @property
    def place(self) -> str:
        """ "Ōsaka, Japan" (``place_name``)."""
        return place_name(self.city, self.country)


class ClubMembership(models.Model):
    """From ``since`` on, ``player`` is a member of ``club`` (empty: of no club), until his next membership."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="club_memberships", verbose_name=_("player")
    )
    club = models.ForeignKey(
        Club,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="memberships",
        verbose_name=_("club"),
        help_text=_("Empty: in no club from that date."),
    )
    since = models.DateField(_("since"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
        ordering = ["player", "-since"]
        constraints = [models.UniqueConstraint(fields=["player", "since"], name="club_membership_one_per_date")]
        # "The club of each player on a date" and "the members of a club on a date" (ratings/selectors/clubs.py).
        indexes = [
            models.Index(fields=["player", "-since"], name="club_membership_player_idx"),
            models.Index(fields=["club", "since"], name="club_membership_club_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.club or '—'} ({self.since:%Y-%m-%d})"
