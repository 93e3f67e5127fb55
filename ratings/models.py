"""Data and constraints of the federation: players, tournaments, tables, games and the rating history.

Two kinds of rows live here:

* **facts** a person enters — players, tournaments, tables, their entries and games, promotion decisions;
  these keep an audit history (django-simple-history), so a correction never loses what was there before;
* **derived rows** the re-rating service computes from the facts — ``RatingRow`` (a player's state before and
  after a table, with the per-game explanation) and the engine's findings in ``Promotion``. They are replaced,
  never edited, whenever something they depend on changes (ratings/services/rerate.py).

Rules live in ratings/engine and ratings/services; here only what the database itself can guarantee.
"""

from __future__ import annotations

import datetime
import secrets
import unicodedata
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django_countries.fields import CountryField
from simple_history.models import HistoricalRecords

from ratings.engine import categories, grade_label, scores
from ratings.engine.grades import AWARDED_GRADES, FIRST_DAN, NO_GRADE, NSR_CONSENT_FROM
from ratings.engine.prior_grades import PRIOR_GRADE_LEVELS, prior_grade_label

VALID_FOREVER = datetime.date(9999, 12, 31)
"""``RatingRow.valid_until`` of a player's latest row."""

GRADE_CHOICES = [(g, grade_label(g) if g != NO_GRADE else _("no grade")) for g in AWARDED_GRADES]
"""The FESA grade scale as the engine numbers it (ratings/engine/grades.py)."""


def prior_grade_condition() -> Q:
    """What the database accepts as a prior grade: none, or one the engine's ``PRIOR_GRADE_LEVELS`` allows."""
    condition = Q(prior_grade_kind="") & Q(prior_grade_level__isnull=True)
    for kind, (low, high) in PRIOR_GRADE_LEVELS.items():
        # A range test alone lets a NULL level through (a CHECK passes on unknown), so a kind without a level
        # would be stored, though nothing rates it as a prior grade.
        level = Q(prior_grade_level__isnull=False) & Q(prior_grade_level__gte=low) & Q(prior_grade_level__lte=high)
        condition |= Q(prior_grade_kind=kind) & level
    return condition


# Letters that Unicode does not decompose into a base letter and an accent, spelt as people type them.
_PLAIN_LETTERS = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "đ": "d",
        "Đ": "D",
        "ł": "l",
        "Ł": "L",
        "þ": "th",
        "Þ": "TH",
        "ı": "i",
        "ß": "ss",
    }
)


def name_search_key(text: str) -> str:
    """The accent-free, case-free form of a name that name search compares: "Åberg Wiethölter" -> "aberg wietholter".

    Done in Python rather than with a database function so that SQLite and PostgreSQL match alike; spaces
    are collapsed so that a query's words can be looked for one by one.
    """
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN_LETTERS))
    folded = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(folded.split())


GERMAN_FOLDS = (("ae", "a"), ("oe", "o"), ("ue", "u"), ("ss", "s"))
"""German names written without umlauts or ß, in the order they are folded: a name search folds both the query
and the stored key with them, so that "mueller", "müller" and "muller" all read "muller"."""


def name_fold_key(text: str) -> str:
    """The search key of ``text`` with the German spellings folded: "Müller" and "Mueller" -> "muller".

    Applied to the query only: the stored ``search_name`` keeps the plain key, and the search folds it in SQL
    with the same pairs in the same order (ratings/selectors/search.py), as ``str.replace`` and SQL's REPLACE
    both replace left to right without overlap.
    """
    key = name_search_key(text)
    for pair, single in GERMAN_FOLDS:
        key = key.replace(pair, single)
    return key


def new_federation_id() -> str:
    """A short, unambiguous code that identifies a player for good (no 0/O or 1/I to misread)."""
    alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    return "".join(secrets.choice(alphabet) for _ in range(8))


class PriorGradeKind(models.TextChoices):
    KYU = "kyu", _("Kyu")
    DAN = "dan", _("Dan (amateur)")
    PRO = "pro", _("Dan (professional)")


class PriorGradeSource(models.TextChoices):
    NATIONAL = "national", _("national federation")
    NSR = "nsr", _("Japan Shogi Association (NSR)")
    OTHER = "other", _("other")


class Category(models.TextChoices):
    """Where a player stands in the rules (ratings/engine/categories.py): unrated, provisional, established."""

    UNRATED = categories.UNRATED, _("unrated")
    PROVISIONAL = categories.PROVISIONAL, _("provisional")
    ESTABLISHED = categories.ESTABLISHED, _("established")


class Player(models.Model):
    federation_id = models.CharField(
        _("federation id"), max_length=12, unique=True, default=new_federation_id, editable=False
    )
    family_name = models.CharField(_("family name"), max_length=100)
    given_name = models.CharField(_("given name"), max_length=100, blank=True)
    nationality = CountryField(_("nationality"), blank=True)
    residence = CountryField(_("country of residence"), blank=True)
    is_professional = models.BooleanField(_("professional"), default=False)
    date_of_birth = models.DateField(
        _("date of birth"), null=True, blank=True, help_text=_("Private: only used to tell namesakes apart.")
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
    # come first, by id (ratings/services/fesa_state.py). Set from the opening state by players_refresh.
    list_order = models.PositiveIntegerField(default=0, editable=False)

    # Derived from the names on every save (name search, ratings/filters.py); rows written without save()
    # (bulk_create) leave it empty, and the search falls back to the names themselves for those.
    search_name = models.CharField(max_length=201, blank=True, default="", editable=False)

    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["family_name", "given_name"]
        indexes = [
            models.Index(fields=["-rating"], name="player_rating_idx"),
            models.Index(fields=["nationality", "-rating"], name="player_country_rating_idx"),
            models.Index(fields=["last_played"], name="player_last_played_idx"),
            models.Index(fields=["family_name", "given_name"], name="player_name_idx"),
            models.Index(fields=["grade"], name="player_grade_idx"),
            models.Index(fields=["category"], name="player_category_idx"),
            # The public rating list (ratings/selectors): its order, walked with a LIMIT instead of
            # sorting the whole list, and "active, not a professional", counted from the index alone.
            models.Index(fields=["-rating", "list_order", "id"], name="player_list_rank_idx"),
            models.Index(fields=["last_played", "is_professional", "prior_grade_kind"], name="player_active_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=prior_grade_condition(),
                name="player_prior_grade_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.family_name} {self.given_name}".strip()

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.search_name = name_search_key(f"{self.family_name} {self.given_name}")
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"family_name", "given_name"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "search_name"}
        super().save(*args, **kwargs)

    @property
    def prior_grade_label(self) -> str:
        if not self.prior_grade_kind or self.prior_grade_level is None:
            return ""
        return prior_grade_label(self.prior_grade_kind, self.prior_grade_level)


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200)
    city = models.CharField(_("city"), max_length=100, blank=True)
    country = CountryField(_("country"), blank=True)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    time_control = models.CharField(_("time control"), max_length=100, blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True, verbose_name=_("directors")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(m2m_fields=[directors])

    class Meta:
        ordering = ["-end_date", "name"]
        indexes = [
            models.Index(fields=["-end_date"], name="tournament_end_idx"),
            models.Index(fields=["country", "-end_date"], name="tournament_country_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=F("start_date")), name="tournament_dates_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.end_date:%Y})" if self.end_date else self.name


class TableStatus(models.TextChoices):
    DRAFT = "draft", _("draft")
    SUBMITTED = "submitted", _("submitted, waiting to be rated")
    RATED = "rated", _("rated")
    # From FESA's published result tables, before the opening balance: shown, never rated (HistoricalRow).
    HISTORICAL = "historical", _("imported from FESA, not rated")


class Table(models.Model):
    """The unit of rating (R11): its games count as played at one moment, its date and sequence order it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(_("name"), max_length=100, blank=True, help_text=_("For tournaments with several."))
    date = models.DateField(_("date"), help_text=_("The last day of play."))
    sequence = models.PositiveSmallIntegerField(
        _("sequence"), default=1, help_text=_("Order among tables of the same date.")
    )
    status = models.CharField(_("status"), max_length=10, choices=TableStatus.choices, default=TableStatus.DRAFT)
    submitted_at = models.DateTimeField(null=True, blank=True, editable=False)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
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
        default=False,
        editable=False,
        help_text=_("Changed since it was last rated: re-rate it even if its players' states are unchanged."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["date", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["date", "sequence"], name="table_one_sequence_per_date"),
            models.CheckConstraint(condition=Q(sequence__gte=1), name="table_sequence_positive"),
        ]
        indexes = [models.Index(fields=["status"], name="table_status_idx")]

    def __str__(self) -> str:
        tournament = self.tournament.name if self.tournament_id else ""
        label = f"{tournament}, {self.name}" if self.name else tournament
        return f"{label} ({self.date:%Y-%m-%d})" if self.date else label


class TableEntry(models.Model):
    """A player's line in a table; ``seat`` is his number in the crosstable (turnering.txt's line number)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    seat = models.PositiveSmallIntegerField(_("number"))
    history = HistoricalRecords()

    class Meta:
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

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField(_("round"))
    first = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player"))
    second = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", null=True, blank=True, verbose_name=_("opponent")
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


class RatingRow(models.Model):
    """A player's rating through one table: states before and after, and how each game moved him.

    ``state_before``/``state_after`` are engine PlayerStates as JSON (ratings/states.py); ``detail`` is the
    per-game explanation (opponent rating used, expected score, K, change, bonus). Replaced as a whole by
    every re-rate that reaches the table.
    """

    class Method(models.TextChoices):
        NORMAL = "normal", _("normal")
        PERFORMANCE = "performance", _("performance")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rating_rows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_rows")
    # The table's position, copied so that "the state as of a date" reads one index.
    date = models.DateField()
    sequence = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=12, choices=Method.choices)
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    change = models.IntegerField(null=True, blank=True, help_text=_("Normal rating only."))
    performance = models.FloatField(null=True, blank=True, help_text=_("Performance-rated: the exact root."))
    rated_games = models.PositiveSmallIntegerField()
    score = models.FloatField()
    games_before = models.PositiveIntegerField()
    games_after = models.PositiveIntegerField()
    grade_before = models.PositiveSmallIntegerField(choices=GRADE_CHOICES)
    grade_after = models.PositiveSmallIntegerField(choices=GRADE_CHOICES)
    state_before = models.JSONField()
    state_after = models.JSONField()
    detail = models.JSONField(default=list)
    # The date of the player's next rating row (9999-12-31 for his latest): this row is his state for every
    # list date from ``date`` up to the day before. Maintained by the re-rate (services/rerate/validity.py),
    # so that a list of a past date is one indexed range read.
    valid_until = models.DateField(db_default=VALID_FOREVER, editable=False)

    class Meta:
        ordering = ["date", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="rating_row_once_per_table"),
        ]
        indexes = [
            models.Index(fields=["player", "date", "sequence"], name="rating_row_player_date_idx"),
            models.Index(fields=["date", "sequence"], name="rating_row_date_idx"),
            models.Index(fields=["player", "valid_until", "date"], name="rating_row_valid_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.table_id}: {self.rating_before} -> {self.rating_after}"


class OpeningState(models.Model):
    """A player's state before the first table this site holds (a migrated FESA list, ratings/fesa_files).

    Re-rating from scratch starts from these; a player without one starts new.
    """

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="opening_state")
    state = models.JSONField()
    source = models.CharField(max_length=200, blank=True)
    imported_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"opening state of {self.player_id}"


class HistoricalRow(models.Model):
    """A player's published result in a historical table (TableStatus.HISTORICAL): FESA's numbers as its
    result table printed them, kept apart from the rating rows so that nothing re-rates or replays them.

    ``rating_before`` is empty for a player rated by performance (the table prints only his new rating).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="historical_rows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="historical_rows")
    date = models.DateField()
    sequence = models.PositiveSmallIntegerField()
    rating_before = models.IntegerField(null=True, blank=True)
    rating_after = models.IntegerField()
    change = models.IntegerField(null=True, blank=True)
    performance = models.BooleanField(default=False)
    rated_games = models.PositiveSmallIntegerField()
    score = models.FloatField()
    grade_before = models.PositiveSmallIntegerField(choices=GRADE_CHOICES)
    grade_after = models.PositiveSmallIntegerField(choices=GRADE_CHOICES)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "player"], name="historical_row_once_per_table")]
        indexes = [models.Index(fields=["player", "date", "sequence"], name="historical_row_player_idx")]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.table_id} (published): {self.rating_before} -> {self.rating_after}"


class ListArrival(models.Model):
    """A player who came onto the FESA program's list from a ``nye-spillere`` file: with the opening balance
    (``table`` empty) or with a table, at ``position`` in that file.

    The program puts a run's new players in front of its list before sorting it by rating, so where they
    came in decides the order of equal ratings in every list written afterwards
    (ratings/fesa_files/list_order.py). A player without one joined with the opening list or at his first
    rated table.
    """

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="list_arrival")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"{self.player_id} listed with {self.table_id or 'the opening balance'}"


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
    """A promotion the engine found, and what the grade officers decided about it (ratings/services/grades.py).

    ``table`` is empty only when the table it was earned in was deleted: the record, and any decision on it,
    stays until re-rating finds the grade elsewhere. ``reviewed_*`` hold the grade officer's decision on an
    approved grade the history no longer supports (kept: still approved; taken away: revoked), apart from
    ``decided_*``, which keep who approved or rejected it.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="promotions")
    grade = models.PositiveSmallIntegerField(_("grade"), choices=GRADE_CHOICES)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="promotions")
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
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(_("reason"), blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(_("flag decided at"), null=True, blank=True)
    review_reason = models.TextField(_("flag decision reason"), blank=True)
    created_at = models.DateTimeField(_("found at"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
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
        return f"{self.player} to {grade_label(self.grade)} ({self.get_status_display()})"


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

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="resolutions")
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
        ordering = ["-resolved_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(cleared_at__isnull=True), name="table_one_live_resolution"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table} by {self.rule} ({self.resolved_at:%Y-%m-%d})"


class PromotionRevision(models.Model):
    """A grade officer's change of a decision already taken: approved to revoked, or rejected to approved.

    The promotion's own fields then hold the new decision; this row keeps who changed it, when, from what to
    what and why (the audit history of ``Promotion`` has every field besides). Staff only: the public pages
    show the dates of a player's grade steps, never a reason or an officer.
    """

    promotion = models.ForeignKey(Promotion, on_delete=models.CASCADE, related_name="revisions")
    status_before = models.CharField(_("before"), max_length=10, choices=PromotionStatus.choices)
    status_after = models.CharField(_("after"), max_length=10, choices=PromotionStatus.choices)
    reason = models.TextField(_("reason"))
    revised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("by")
    )
    revised_at = models.DateTimeField(_("revised at"))

    class Meta:
        ordering = ["promotion", "revised_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="promotion_revision_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.promotion_id}: {self.status_before} -> {self.status_after}"


class ProposalStatus(models.TextChoices):
    PENDING = "pending", _("waiting for a rating officer")
    CONFIRMED = "confirmed", _("confirmed")
    REJECTED = "rejected", _("rejected")


class PriorGradeProposal(models.Model):
    """A prior grade a tournament director proposed for a new player (ratings/services/prior_grade_proposals.py).

    It does not count for rating: the player's own prior-grade fields do, and only a rating officer sets them,
    by confirming the proposal (which re-rates what follows) or directly.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="prior_grade_proposals")
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


class PendingRerate(models.Model):
    """Re-rate needed from this table position": one row, holding the earliest point asked for.

    Written in the same transaction as the edit that needs it, so a crash between the edit and the
    re-rate, or a broker that is down, loses nothing: the next run (task, beat or command) picks it up.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1, editable=False)
    from_date = models.DateField()
    from_sequence = models.PositiveSmallIntegerField()
    requested_at = models.DateTimeField()
    generation = models.PositiveIntegerField(default=0, help_text=_("Bumped by every request."))

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(id=1), name="pending_rerate_singleton")]

    def __str__(self) -> str:
        return f"re-rate from {self.from_date} #{self.from_sequence}"


class RerateRun(models.Model):
    """A log line per re-rate: when, from where, how much it did, how it ended."""

    class Outcome(models.TextChoices):
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    from_date = models.DateField(null=True, blank=True)
    from_sequence = models.PositiveSmallIntegerField(null=True, blank=True)
    tables_rated = models.PositiveIntegerField(default=0)
    tables_unchanged = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.RUNNING)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"re-rate at {self.started_at:%Y-%m-%d %H:%M:%S} ({self.outcome})"


class PrivacyAction(models.Model):
    """An export or an erasure of one player's personal data (ratings/services/privacy.py): of whom, by whom,
    when. It holds nothing of the data itself, so it may outlive an erasure (docs/privacy.md)."""

    class Kind(models.TextChoices):
        EXPORT = "export", _("export")
        ERASURE = "erasure", _("erasure")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="privacy_actions")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    done_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    done_at = models.DateTimeField(_("done at"))

    class Meta:
        ordering = ["-done_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of player {self.player_id} at {self.done_at:%Y-%m-%d %H:%M}"


class UploadConfirmation(models.Model):
    """An upload's confirmation that was carried out: each preview's token saves at most one table.

    The preview's signed payload carries a random token; confirming inserts it here in the same transaction
    as the table, so a replayed or double-clicked confirmation finds it taken and saves nothing.
    """

    token = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    confirmed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"upload confirmed at {self.confirmed_at:%Y-%m-%d %H:%M:%S}"


class Correction(models.Model):
    """A rating officer's change to the past: a submitted or rated table, a prior grade, a player's identity.

    ``before`` and ``after`` hold the facts changed as they were and became (ids, for undoing them through
    the same services); ``summary`` says it in people's words, with names. An undo is a correction too, whose
    ``undoes`` is the correction it reverses (ratings/services/corrections.py).
    """

    class Kind(models.TextChoices):
        TABLE = "table", _("table")
        PRIOR_GRADE = "prior_grade", _("prior grade")
        IDENTITY = "identity", _("player's identity")

    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="corrections", verbose_name=_("table")
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="corrections", verbose_name=_("player")
    )
    reason = models.TextField(_("reason"))
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("made by"),
    )
    made_at = models.DateTimeField(_("made at"), auto_now_add=True, db_index=True)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    summary = models.TextField(_("change"))
    undoes = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by", verbose_name=_("undoes")
    )

    class Meta:
        ordering = ["-made_at", "-pk"]
        constraints = [models.CheckConstraint(condition=~Q(reason=""), name="correction_has_a_reason")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} corrected on {self.made_at:%Y-%m-%d}"
