"""Tournaments, their tables, entries and games, and the records around a table (settling, upload confirmations)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField
from simple_history.models import HistoricalRecords

from ratings.engine import scores
from ratings.models.common import check_names, place_name
from ratings.models.players import Player


class AnnouncementStatus(models.TextChoices):
    """A registered tournament's way through the rating officers; "" for one entered only with its results."""

    PROPOSED = "proposed", _("registered, waiting for review")
    ACCEPTED = "accepted", _("accepted")
    REFUSED = "refused", _("refused")


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    city = models.CharField(_("city"), max_length=100, blank=True)
    country = CountryField(_("country"), blank=True)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    time_control = models.CharField(_("time control"), max_length=100, blank=True)
    # The announcement (ratings/services/season/): what FESA asks of a tournament registered before it is played.
    main_time_minutes = models.PositiveSmallIntegerField(_("main time (minutes)"), null=True, blank=True)
    increment_seconds = models.PositiveSmallIntegerField(
        _("increment (seconds)"), null=True, blank=True, help_text=_("Fischer: added after each move.")
    )
    byoyomi_seconds = models.PositiveSmallIntegerField(
        _("byoyomi (seconds)"), null=True, blank=True, help_text=_("For each move once the main time is spent.")
    )
    mode = models.CharField(
        _("mode"), max_length=100, blank=True, help_text=_("The pairing system: Swiss, McMahon, round robin…")
    )
    contact = models.CharField(_("contact"), max_length=200, blank=True)
    host_club = models.ForeignKey(
        "ratings.Club",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_tournaments",
        verbose_name=_("host club"),
    )
    announcement_url = models.URLField(_("announcement"), blank=True, help_text=_("A link to the announcement."))
    planned_tables = models.PositiveSmallIntegerField(
        _("planned tables"), default=1, help_text=_("How many tables its results will make.")
    )
    announcement = models.CharField(
        _("announcement status"), max_length=10, choices=AnnouncementStatus.choices, blank=True, default=""
    )
    registered_at = models.DateTimeField(_("registered at"), null=True, blank=True, editable=False)
    reviewed_at = models.DateTimeField(_("reviewed at"), null=True, blank=True, editable=False)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
        verbose_name=_("reviewed by"),
    )
    review_reason = models.TextField(_("reason"), blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True, verbose_name=_("directors")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    history = HistoricalRecords(m2m_fields=[directors])

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-end_date", "name"]
        indexes = [
            models.Index(fields=["-end_date"], name="tournament_end_idx"),
            models.Index(fields=["country", "-end_date"], name="tournament_country_idx"),
            models.Index(fields=["announcement", "start_date"], name="tournament_announcement_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=F("start_date")), name="tournament_dates_ordered"),
            models.CheckConstraint(
                condition=Q(announcement__in=["", "proposed", "accepted", "refused"]),
                name="tournament_announcement_valid",
            ),
            models.CheckConstraint(
                condition=~Q(announcement="refused") | ~Q(review_reason=""), name="tournament_refusal_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.end_date:%Y})" if self.end_date else self.name

    @property
    def place(self) -> str:
        """ "Lyon, France" (``place_name``)."""
        return place_name(self.city, self.country)

    def clean(self) -> None:
        super().clean()
        check_names(self, "name", "city")


class TableStatus(models.TextChoices):
    DRAFT = "draft", _("draft")
    SUBMITTED = "submitted", _("submitted, waiting to be rated")
    RATED = "rated", _("rated")
    # From FESA's published result tables, before the opening balance: shown, never rated (HistoricalRow).
    HISTORICAL = "historical", _("imported from FESA, not rated")


class Table(models.Model):
    """The unit of rating (R11): its games count as played at one moment, its date and sequence order it."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="tables", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=100, blank=True, help_text=_("For tournaments with several."))
    date = models.DateField(_("date"), help_text=_("The last day of play."))
    sequence = models.PositiveSmallIntegerField(
        _("sequence"), default=1, help_text=_("Order among tables of the same date.")
    )
    status = models.CharField(_("status"), max_length=10, choices=TableStatus.choices, default=TableStatus.DRAFT)
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True, editable=False)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
        verbose_name=_("submitted by"),
    )
    first_rated_at = models.DateTimeField(_("first rated"), null=True, blank=True, editable=False)
    last_rerated_at = models.DateTimeField(_("last re-rated"), null=True, blank=True, editable=False)
    rating_error = models.TextField(_("rating error"), blank=True, editable=False)
    cycle_states = models.JSONField(
        _("states of a table that did not settle"),
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "Set when the last rating found the table cycling for ever: {'players': [ids], 'states': [[ratings]]}."
        ),
    )
    needs_rerate = models.BooleanField(
        _("needs rerate"),
        default=False,
        editable=False,
        help_text=_("Changed since it was last rated: re-rate it even if its players' states are unchanged."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["date", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["date", "sequence"], name="table_one_sequence_per_date"),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="table_sequence_positive"),
        ]
        indexes = [models.Index(fields=["status"], name="table_status_idx")]

    def __str__(self) -> str:
        label = self.label_of(self.tournament.name if self.tournament_id else "", self.name)
        return f"{label} ({self.date:%Y-%m-%d})" if self.date else label

    @staticmethod
    def label_of(tournament: str, name: str) -> str:
        """A table as pages, feeds, files and messages name it: "tournament, name", or the tournament alone
        when it has one table (no name); from the two names, for code that reads them without the rows."""
        return f"{tournament}, {name}" if name else tournament

    @property
    def label(self) -> str:
        """``label_of`` this table (reads its tournament: select it with the table)."""
        return self.label_of(self.tournament.name, self.name)

    def clean(self) -> None:
        super().clean()
        check_names(self, "name")


class TableEntry(models.Model):
    """A player's line in a table; ``seat`` is his number in the crosstable (turnering.txt's line number)."""

    # No index of its own: "entry_player_once_per_table" leads with the table.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="entries", verbose_name=_("table"), db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player"))
    seat = models.PositiveSmallIntegerField(_("number"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("table entry")
        ordering = ["table", "seat"]
        verbose_name_plural = _("table entries")
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="entry_player_once_per_table"),
            models.UniqueConstraint(fields=["table", "seat"], name="entry_seat_once_per_table"),
            models.CheckConstraint(condition=Q(seat__gte=1), name="entry_seat_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.seat}. {self.player}"


class GameResult(models.TextChoices):
    # The codes and what they score are the engine's (ratings/engine/scores.py).
    FIRST_WON = scores.FIRST_WON, _("first player won")
    SECOND_WON = scores.SECOND_WON, _("second player won")
    DRAW = scores.DRAW, _("draw")
    # No opponent: counted in the standings, never rated (R4).
    BYE = scores.BYE, _("bye (full point)")
    HALF_BYE = scores.HALF_BYE, _("half-point bye")
    ABSENT = scores.ABSENT, _("absent")
    NO_SHOW = scores.NO_SHOW, _("no-show")


PAIRED_RESULTS = [GameResult(code) for code in scores.PAIRED_RESULTS]


class HandicapCode(models.TextChoices):
    S = "S", _("sente (S)")
    M = "M", _("sente (M)")
    L = "L", _("lance (L)")
    B = "B", _("bishop (B)")
    R = "R", _("rook (R)")
    RL = "RL", _("rook and lance (RL)")
    P2 = "2p", _("two pieces (2p)")
    P4 = "4p", _("four pieces (4p)")
    P5 = "5p", _("five pieces (5p)")
    P6 = "6p", _("six pieces (6p)")


class HandicapGiver(models.TextChoices):
    FIRST = "first", _("first player")
    SECOND = "second", _("second player")


class Game(models.Model):
    """A round's pairing, or a round without a game (``second`` empty: bye, absence, no-show).

    A game that was not actually played (forfeit, walk-over) keeps its result for the standings with
    ``played`` off and is not rated; a sennichite/jishogi replay is rated as a draw whatever its outcome.
    """

    # No index of their own: "game_first_once_per_round" leads with the table, "game_second_idx" with the second
    # player.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="games", verbose_name=_("table"), db_index=False
    )
    round = models.PositiveSmallIntegerField(_("round"))
    first = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player"))
    second = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("opponent"),
        db_index=False,
    )
    result = models.CharField(_("result"), max_length=10, choices=GameResult.choices)
    handicap = models.CharField(_("handicap"), max_length=2, choices=HandicapCode.choices, blank=True)
    handicap_giver = models.CharField(_("given by"), max_length=6, choices=HandicapGiver.choices, blank=True)
    played = models.BooleanField(_("played"), default=True, help_text=_("Off for forfeits and walk-overs."))
    replay_draw = models.BooleanField(
        _("sennichite/jishogi replay"), default=False, help_text=_("Rated as a draw whatever the replay's outcome.")
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["table", "round", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(round__gte=1), name="game_round_positive"),
            models.CheckConstraint(condition=~Q(first=F("second")), name="game_not_against_oneself"),
            models.UniqueConstraint(fields=["table", "round", "first"], name="game_first_once_per_round"),
            models.UniqueConstraint(fields=["table", "round", "second"], name="game_second_once_per_round"),
            models.CheckConstraint(
                condition=(Q(second__isnull=False) & Q(result__in=PAIRED_RESULTS))
                | (Q(second__isnull=True) & ~Q(result__in=PAIRED_RESULTS)),
                name="game_result_matches_pairing",
            ),
            models.CheckConstraint(
                condition=(Q(handicap="") & Q(handicap_giver=""))
                | (~Q(handicap="") & ~Q(handicap_giver="") & Q(second__isnull=False)),
                name="game_handicap_has_giver",
            ),
        ]
        indexes = [models.Index(fields=["second", "table"], name="game_second_idx")]

    def __str__(self) -> str:
        # Shown in the admin's change messages and history: names, never the players' database ids.
        return f"R{self.round}: {self.first} v {self.second or '-'} ({self.get_result_display()})"

    @property
    def is_rated(self) -> bool:
        return self.second_id is not None and self.played


class UnsettledTable(Table):
    """The tables whose last rating did not settle: the rating officer's queue (docs/rules.md §10)."""

    class Meta:
        proxy = True
        verbose_name = _("table that did not settle")
        verbose_name_plural = _("tables that did not settle")


class TableResolution(models.Model):
    """A rating officer's decision to rate a table that does not settle by the project's rule.

    It holds for the cycle it was taken on (``states``, as ``Table.cycle_states``): re-rating applies the rule
    to the table while its cycle is that one. A correction that makes the table settle, or changes its cycle,
    clears it (``cleared_at``); the record stays, as every resolution taken.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="resolutions", verbose_name=_("table"))
    rule = models.CharField(_("rule"), max_length=40)
    states = models.JSONField(_("states of the cycle"))
    result = models.JSONField(_("ratings by the rule"), help_text=_("Player id to the rating the rule gives."))
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("resolved by")
    )
    resolved_at = models.DateTimeField(_("resolved"))
    cleared_at = models.DateTimeField(
        _("cleared"),
        null=True,
        blank=True,
        help_text=_("When a correction made the table settle or changed its cycle."),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("table resolution")
        verbose_name_plural = _("table resolutions")
        ordering = ["-resolved_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(cleared_at__isnull=True), name="table_one_live_resolution"
            )
        ]

    def __str__(self) -> str:
        return gettext("%(table)s by %(rule)s (%(date)s)") % {
            "table": self.table,
            "rule": self.rule,
            "date": f"{self.resolved_at:%Y-%m-%d}",
        }


class UploadConfirmation(models.Model):
    """An upload's confirmation that was carried out: each preview's token saves at most one table.

    The preview's signed payload carries a random token; confirming inserts it here in the same transaction
    as the table, so a replayed or double-clicked confirmation finds it taken and saves nothing.
    """

    token = models.CharField(_("token"), max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("table")
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("upload confirmation")
        verbose_name_plural = _("upload confirmations")

    def __str__(self) -> str:
        time = f"{timezone.localtime(self.confirmed_at):%Y-%m-%d %H:%M:%S}"
        return gettext("upload confirmed at %(time)s") % {"time": time}
