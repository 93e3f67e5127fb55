"""Players and what the site holds about a person: opening state, prior-grade proposals, privacy actions."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Case, ExpressionWrapper, Q, When
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField
from simple_history.models import HistoricalRecords

from ratings.engine.prior_grades import prior_grade_label
from ratings.models.common import (
    GRADE_CHOICES,
    Category,
    IsoDate,
    JSONArrayLength,
    PriorGradeKind,
    PriorGradeSource,
    check_names,
    latin_name,
    new_federation_id,
    player_search_key,
    prior_grade_condition,
)

NAME_FIELDS = ("family_name", "given_name", "latin_family_name", "latin_given_name")
"""The fields the stored search key is made of (``Player.save``)."""


LEFT_OUT_OF_LISTS = Q(is_professional=True) | Q(prior_grade_kind="pro") | Q(merged_into__isnull=False)
"""The players the public lists leave out: professionals (by flag or by a professional prior grade), and records
merged into another (ratings/services/merge/apply.py)."""


class Player(models.Model):
    federation_id = models.CharField(
        _("federation id"), max_length=12, unique=True, default=new_federation_id, editable=False
    )
    family_name = models.CharField(_("family name"), max_length=100)
    given_name = models.CharField(_("given name"), max_length=100, blank=True)
    # A name in another script (山田 太郎) as the player writes it in Latin letters (Yamada Taro): FESA's files
    # and the exports write it, and the search finds him by it (models/common.py latin_name).
    latin_family_name = models.CharField(_("family name in Latin letters"), max_length=100, blank=True)
    latin_given_name = models.CharField(_("given name in Latin letters"), max_length=100, blank=True)
    nationality = CountryField(_("nationality"), blank=True)
    residence = CountryField(_("country of residence"), blank=True)
    is_professional = models.BooleanField(_("professional"), default=False)
    date_of_birth = models.DateField(
        _("date of birth"),
        null=True,
        blank=True,
        help_text=_(
            "Private, never shown: tells namesakes apart and sets the age category (juniors, seniors) that the "
            "lists show."
        ),
    )
    # The prior grade (R7): a grade from elsewhere, kept apart from the FESA grade. It decides a newcomer's
    # first rating, so changing it re-rates what follows (ratings/services/players.py).
    prior_grade_kind = models.CharField(_("prior grade"), max_length=3, choices=PriorGradeKind.choices, blank=True)
    prior_grade_level = models.PositiveSmallIntegerField(_("prior grade level"), null=True, blank=True)
    prior_grade_source = models.CharField(
        _("prior grade source"), max_length=10, choices=PriorGradeSource.choices, blank=True
    )
    prior_grade_note = models.CharField(_("prior grade note"), max_length=200, blank=True)
    prior_grade_date = models.DateField(_("prior grade date"), null=True, blank=True)

    # The women's list (ratings/selectors/categories.py), where the federation publishes one: only a rating
    # officer sets it, and only with the date the player consented to it recorded (a constraint holds the two
    # together); the consent is personal data, in the privacy export, and erased with the player.
    on_womens_list = models.BooleanField(
        _("on the women's list"), default=False, help_text=_("Only with the player's consent, recorded below.")
    )
    womens_list_consent = models.DateField(
        _("consent to the women's list"),
        null=True,
        blank=True,
        help_text=_("The date the player consented to appear on the women's list."),
    )

    # Derived by the re-rating service from the latest rating row; never edited by hand.
    rating = models.IntegerField(_("rating"), default=0, editable=False)
    games = models.PositiveIntegerField(_("games"), default=0, editable=False)
    category = models.CharField(
        _("category"), max_length=12, choices=Category.choices, default=Category.UNRATED, editable=False
    )
    fesa_grade = models.PositiveSmallIntegerField(
        _("FESA grade (computed)"), choices=GRADE_CHOICES, default=0, editable=False
    )
    grade = models.PositiveSmallIntegerField(
        _("FESA grade"),
        choices=GRADE_CHOICES,
        default=0,
        editable=False,
        help_text=_("The grade the public sees: Dan grades only once approved."),
    )
    peak_rating = models.IntegerField(_("peak rating"), default=0, editable=False)
    last_played = models.DateField(_("last played"), null=True, blank=True, editable=False)

    # The player's place among equal ratings on the rating list, as the FESA program keeps its state list:
    # his position in the imported list plus one; 0 for a player who came otherwise (a newcomer), and those
    # come first, by id (ratings/services/fesa/state.py). Set from the opening state by players_refresh.
    list_order = models.PositiveIntegerField(_("list order"), default=0, editable=False)

    # Derived from the names on every save (name search, ratings/web/filters.py); rows written without save()
    # (bulk_create) leave it empty, and the search falls back to the names themselves for those.
    search_name = models.CharField(_("search name"), max_length=606, blank=True, default="", editable=False)

    # Set when a rating officer merged this record into another one of the same person
    # (ratings/services/merge/apply.py): hidden from lists, search and the API; its page redirects there.
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_from",
        editable=False,
        verbose_name=_("merged into"),
    )

    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        # By the name's search key: accents and case folded, the same order on every database.
        ordering = ["search_name", "id"]
        indexes = [
            # The list sorted by a column (ratings/web/tables.py: each column's order, read either way): walked
            # in order with the page's LIMIT rather than sorting every player of the list.
            models.Index(fields=["rating", "id"], name="player_rating_sort_idx"),
            models.Index(fields=["games", "id"], name="player_games_sort_idx"),
            models.Index(fields=["nationality", "-rating", "list_order", "id"], name="player_country_sort_idx"),
            models.Index(fields=["last_played"], name="player_last_played_idx"),
            models.Index(fields=["search_name", "id"], name="player_name_idx"),
            models.Index(fields=["grade"], name="player_grade_idx"),
            models.Index(fields=["category"], name="player_category_idx"),
            # The public rating list (ratings/selectors): its order, walked with a LIMIT instead of
            # sorting the whole list, and "active, public" (by category too: the note under the list counts
            # the players it does not rank) counted from the index alone.
            models.Index(fields=["-rating", "list_order", "id"], name="player_list_rank_idx"),
            models.Index(
                fields=["last_played", "is_professional", "prior_grade_kind", "merged_into", "category"],
                name="player_active_idx",
            ),
            # The few players the public lists leave out (``LEFT_OUT_OF_LISTS``): a few entries, not every player.
            models.Index(fields=["id"], condition=LEFT_OUT_OF_LISTS, name="player_left_out_idx"),
            # The age categories (ratings/selectors/categories.py) are ranges of dates of birth.
            models.Index(fields=["date_of_birth"], name="player_birth_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=prior_grade_condition(),
                name="player_prior_grade_valid",
            ),
            models.CheckConstraint(
                condition=Q(on_womens_list=False) | Q(womens_list_consent__isnull=False),
                name="player_womens_list_consent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.family_name} {self.given_name}".strip()

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.search_name = player_search_key(
            self.family_name, self.given_name, self.latin_family_name, self.latin_given_name
        )
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and set(NAME_FIELDS) & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "search_name"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        check_names(self, *NAME_FIELDS)

    @property
    def file_name(self) -> tuple[str, str]:
        """(family, given) as FESA's files and the exports write them: the Latin form where given."""
        return latin_name(self.family_name, self.given_name, self.latin_family_name, self.latin_given_name)

    @property
    def prior_grade_label(self) -> str:
        if not self.prior_grade_kind or self.prior_grade_level is None:
            return ""
        return prior_grade_label(self.prior_grade_kind, self.prior_grade_level)


class WomensListEntry(Player):
    """A player as the admin's women's list screen shows him: whether he is on it, and since when he consented."""

    class Meta:
        proxy = True
        verbose_name = _("women's list entry")
        verbose_name_plural = _("women's list")


def _state_column(expression: Any, label: Any) -> models.GeneratedField:
    """A value of an opening state's JSON as a column the database keeps equal to it."""
    return models.GeneratedField(
        expression=expression, output_field=expression.output_field, db_persist=True, verbose_name=label
    )


class OpeningState(models.Model):
    """A player's state before the first table this site holds (a migrated FESA list, ratings/fesa_files).

    Re-rating from scratch starts from these; a player without one starts new.
    """

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="opening_state", verbose_name=_("player")
    )
    state = models.JSONField(_("state"))
    # What a past date's rating list reads of the state (ratings/selectors/list_values.py), kept by the
    # database beside it: the list reads them as columns for thousands of players instead of parsing
    # each player's JSON several times per list.
    rating = _state_column(Cast(KeyTextTransform("rating", "state"), models.IntegerField()), _("rating"))
    games = _state_column(
        Case(
            When(state__result_list=None, then=Cast(KeyTextTransform("game_count", "state"), models.IntegerField())),
            default=JSONArrayLength(KeyTransform("result_list", "state")),
        ),
        _("games"),
    )
    rated_by_performance = _state_column(
        ExpressionWrapper(~Q(state__result_list=None), output_field=models.BooleanField()), _("rated by performance")
    )
    grade = _state_column(Cast(KeyTextTransform("grade", "state"), models.IntegerField()), _("grade"))
    last_played = _state_column(IsoDate(KeyTextTransform("last_played", "state")), _("last played"))
    # The date of the player's first rating row (None: none yet), kept with his derived columns
    # (``players_refresh``, the re-rate's last pass; ``rerate --check`` checks it): a past date's list shows
    # him by this state until that date, and reads it here instead of looking for a row through all of them.
    first_rated = models.DateField(_("first rated"), null=True, blank=True, editable=False)
    source = models.CharField(_("source"), max_length=200, blank=True)
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)

    class Meta:
        verbose_name = _("opening state")
        verbose_name_plural = _("opening states")

    def __str__(self) -> str:
        return gettext("opening state of %(player)s") % {"player": self.player}


class ProposalStatus(models.TextChoices):
    PENDING = "pending", _("waiting for a rating officer")
    CONFIRMED = "confirmed", _("confirmed")
    REJECTED = "rejected", _("rejected")


class PriorGradeProposal(models.Model):
    """A prior grade a tournament director proposed for a new player (ratings/services/grades/proposals.py).

    It does not count for rating: the player's own prior-grade fields do, and only a rating officer sets them,
    by confirming the proposal (which re-rates what follows) or directly.
    """

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="prior_grade_proposals", verbose_name=_("player")
    )
    kind = models.CharField(_("prior grade"), max_length=3, choices=PriorGradeKind.choices)
    level = models.PositiveSmallIntegerField(_("prior grade level"))
    source = models.CharField(_("prior grade source"), max_length=10, choices=PriorGradeSource.choices)
    note = models.CharField(_("prior grade note"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=ProposalStatus.choices, default=ProposalStatus.PENDING
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("proposed by"),
    )
    proposed_at = models.DateTimeField(_("proposed at"), auto_now_add=True)
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
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("prior grade proposal")
        verbose_name_plural = _("prior grade proposals")
        ordering = ["-proposed_at"]
        constraints = [
            # One open proposal per player: a second one would leave the officer two answers to give.
            models.UniqueConstraint(
                fields=["player"], condition=Q(status="pending"), name="prior_grade_proposal_one_pending"
            ),
        ]
        indexes = [models.Index(fields=["status", "proposed_at"], name="prior_grade_proposal_queue_idx")]

    def __str__(self) -> str:
        return f"{self.player}: {prior_grade_label(self.kind, self.level)} ({self.get_status_display()})"

    @property
    def label(self) -> str:
        return prior_grade_label(self.kind, self.level)


class PrivacyAction(models.Model):
    """An export or an erasure of one player's personal data (ratings/services/privacy.py): of whom, by whom,
    when. It holds nothing of the data itself, so it may outlive an erasure (docs/privacy.md)."""

    class Kind(models.TextChoices):
        EXPORT = "export", _("export")
        ERASURE = "erasure", _("erasure")

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="privacy_actions", verbose_name=_("player")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    done_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("done by"),
    )
    done_at = models.DateTimeField(_("done at"))

    class Meta:
        verbose_name = _("privacy action")
        verbose_name_plural = _("privacy actions")
        ordering = ["-done_at"]

    def __str__(self) -> str:
        return gettext("%(kind)s of %(player)s at %(time)s") % {
            "kind": self.get_kind_display(),
            "player": self.player,
            "time": f"{timezone.localtime(self.done_at):%Y-%m-%d %H:%M}",
        }
