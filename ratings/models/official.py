"""Official rating lists: a list as the federation published it on a date, frozen.

The rating list of a date (ratings/selectors/lists.py) is computed from the rating history, so it moves when
a later correction changes the past. An ``OfficialList`` keeps what was published: one ``OfficialListEntry``
per player with his figures as they stood (rank, country rank, name, country, rating, grade, category, games),
and the all.txt file byte for byte. Written once by ratings/services/official_lists.py; nothing updates them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings.models.common import GRADE_CHOICES, Category, PriorGradeKind
from ratings.models.players import Player


class OfficialList(models.Model):
    """A rating list published on ``date``: its title and note, who published it and when, its all.txt."""

    date = models.DateField(_("list date"), unique=True)
    title = models.CharField(_("title"), max_length=200, blank=True)
    note = models.TextField(_("note"), blank=True)
    published_at = models.DateTimeField(_("published at"))
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("published by"),
    )
    all_txt = models.BinaryField(_("all.txt as published"), help_text=_("ISO-8859-1, as FESA's files are."))
    player_count = models.PositiveIntegerField(_("players"))
    country_count = models.PositiveIntegerField(_("countries"))

    class Meta:
        ordering = ["-date"]
        verbose_name = _("official list")
        verbose_name_plural = _("official lists")

    def __str__(self) -> str:
        return self.title or f"{self.date.isoformat()}"


class OfficialListEntry(models.Model):
    """A player on a published list, with the figures the list showed for him (never updated).

    ``player`` links the line to the player's page; it is emptied if the player row ever goes, and the line
    keeps his name, federation id and figures as published.
    """

    official_list = models.ForeignKey(
        OfficialList, on_delete=models.CASCADE, related_name="entries", verbose_name=_("official list")
    )
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="official_list_entries",
        verbose_name=_("player"),
    )
    rank = models.PositiveIntegerField(_("rank"))
    country_rank = models.PositiveIntegerField(_("country rank"))
    federation_id = models.CharField(_("federation id"), max_length=12)
    family_name = models.CharField(_("family name"), max_length=100)
    given_name = models.CharField(_("given name"), max_length=100, blank=True)
    nationality = models.CharField(_("nationality"), max_length=2, blank=True)
    rating = models.IntegerField(_("rating"))
    games = models.PositiveIntegerField(_("games"))
    grade = models.PositiveSmallIntegerField(_("FESA grade"), choices=GRADE_CHOICES)
    fesa_grade = models.PositiveSmallIntegerField(_("FESA grade (computed)"), choices=GRADE_CHOICES)
    pending_grade = models.PositiveSmallIntegerField(_("pending Dan grade"), null=True, blank=True)
    prior_grade_kind = models.CharField(_("prior grade"), max_length=3, choices=PriorGradeKind.choices, blank=True)
    prior_grade_level = models.PositiveSmallIntegerField(_("prior grade level"), null=True, blank=True)
    category = models.CharField(_("category"), max_length=12, choices=Category.choices)
    last_played = models.DateField(_("last played"), null=True, blank=True)
    list_order = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["official_list", "rank"]
        verbose_name = _("official list entry")
        verbose_name_plural = _("official list entries")
        constraints = [
            models.UniqueConstraint(fields=["official_list", "rank"], name="official_entry_rank_once"),
        ]
        indexes = [models.Index(fields=["player", "official_list"], name="official_entry_player_idx")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.family_name} {self.given_name}".strip()
