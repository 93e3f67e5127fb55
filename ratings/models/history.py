"""The rating history the re-rate derives (rating rows), imported history, re-rate bookkeeping and corrections."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from ratings.models.common import GRADE_CHOICES, VALID_FOREVER
from ratings.models.players import Player
from ratings.models.tables import Table

# "change" is a noun here, not the admin's verb ("modifier", "zmień"): a rating's change, or what a correction
# changed, each with its context.
RATING_CHANGE = pgettext_lazy("a rating's change", "change")


class RatingRow(models.Model):
    """A player's rating through one table: states before and after, and how each game moved him.

    ``state_before``/``state_after`` are engine PlayerStates as JSON (ratings/models/states.py); ``detail`` is the
    per-game explanation (opponent rating used, expected score, K, change, bonus). Replaced as a whole by
    every re-rate that reaches the table.
    """

    class Method(models.TextChoices):
        NORMAL = "normal", _("normal")
        PERFORMANCE = "performance", _("performance")

    # No index of their own: "rating_row_once_per_table" leads with the table, "rating_row_player_date_idx" with the
    # player. Every re-rate deletes and inserts rows by the hundred thousand, and each index is written again.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="rating_rows", verbose_name=_("table"), db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_rows", verbose_name=_("player"), db_index=False
    )
    # The table's position, copied so that "the state as of a date" reads one index.
    date = models.DateField(_("date"))
    sequence = models.PositiveSmallIntegerField(_("sequence"))
    method = models.CharField(_("method"), max_length=12, choices=Method.choices)
    rating_before = models.IntegerField(_("rating before"))
    rating_after = models.IntegerField(_("rating after"))
    change = models.IntegerField(RATING_CHANGE, null=True, blank=True, help_text=_("Normal rating only."))
    performance = models.FloatField(
        _("performance"), null=True, blank=True, help_text=_("Performance-rated: the exact root.")
    )
    rated_games = models.PositiveSmallIntegerField(_("rated games"))
    score = models.FloatField(_("score"))
    games_before = models.PositiveIntegerField(_("games before"))
    games_after = models.PositiveIntegerField(_("games after"))
    grade_before = models.PositiveSmallIntegerField(_("grade before"), choices=GRADE_CHOICES)
    grade_after = models.PositiveSmallIntegerField(_("grade after"), choices=GRADE_CHOICES)
    state_before = models.JSONField(_("state before"))
    state_after = models.JSONField(_("state after"))
    detail = models.JSONField(_("detail"), default=list)
    # The date of the player's next rating row (9999-12-31 for his latest): this row is his state for every
    # list date from ``date`` up to the day before. Maintained by the re-rate (services/rerate/validity.py),
    # so that a list of a past date is one indexed range read.
    valid_until = models.DateField(_("valid until"), db_default=VALID_FOREVER, editable=False)

    class Meta:
        verbose_name = _("rating row")
        verbose_name_plural = _("rating rows")
        ordering = ["date", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="rating_row_once_per_table"),
        ]
        indexes = [
            models.Index(fields=["player", "date", "sequence"], name="rating_row_player_date_idx"),
            # With each row's table, player and link: a preview reads the links of every row from a date on
            # (ratings/services/rerate/sparse.py) from this index alone, not from the wide rows.
            models.Index(
                fields=["date", "sequence"],
                include=["table", "player", "valid_until"],
                name="rating_row_date_links_idx",
            ),
            # The row valid on a date, with the values a past date's list reads of it: the list is written from
            # this index alone, not from the wide rows (their states and games) it points to.
            models.Index(
                fields=["player", "valid_until", "date", "rating_after", "games_after", "grade_after", "method"],
                name="rating_row_valid_idx",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s at %(table)s: %(before)s → %(after)s") % {
            "player": self.player,
            "table": self.table,
            "before": self.rating_before,
            "after": self.rating_after,
        }


class HistoricalRow(models.Model):
    """A player's published result in a historical table (TableStatus.HISTORICAL): FESA's numbers as its
    result table printed them, kept apart from the rating rows so that nothing re-rates or replays them.

    ``rating_before`` is empty for a player rated by performance (the table prints only his new rating).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="historical_rows", verbose_name=_("table"))
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="historical_rows", verbose_name=_("player")
    )
    date = models.DateField(_("date"))
    sequence = models.PositiveSmallIntegerField(_("sequence"))
    rating_before = models.IntegerField(_("rating before"), null=True, blank=True)
    rating_after = models.IntegerField(_("rating after"))
    change = models.IntegerField(RATING_CHANGE, null=True, blank=True)
    performance = models.BooleanField(_("performance"), default=False)
    rated_games = models.PositiveSmallIntegerField(_("rated games"))
    score = models.FloatField(_("score"))
    grade_before = models.PositiveSmallIntegerField(_("grade before"), choices=GRADE_CHOICES)
    grade_after = models.PositiveSmallIntegerField(_("grade after"), choices=GRADE_CHOICES)

    class Meta:
        verbose_name = _("imported FESA row")
        verbose_name_plural = _("imported FESA rows")
        constraints = [models.UniqueConstraint(fields=["table", "player"], name="historical_row_once_per_table")]
        indexes = [models.Index(fields=["player", "date", "sequence"], name="historical_row_player_idx")]

    def __str__(self) -> str:
        return gettext("%(player)s at %(table)s (published): %(before)s → %(after)s") % {
            "player": self.player,
            "table": self.table,
            "before": self.rating_before,
            "after": self.rating_after,
        }


class ListArrival(models.Model):
    """A player who came onto the FESA program's list from a ``nye-spillere`` file: with the opening balance
    (``table`` empty) or with a table, at ``position`` in that file.

    The program puts a run's new players in front of its list before sorting it by rating, so where they
    came in decides the order of equal ratings in every list written afterwards
    (ratings/fesa_files/list_order.py). A player without one joined with the opening list or at his first
    rated table.
    """

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="list_arrival", verbose_name=_("player")
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("table")
    )
    position = models.PositiveIntegerField(_("position"))

    class Meta:
        verbose_name = _("arrival on the FESA list")
        verbose_name_plural = _("arrivals on the FESA list")

    def __str__(self) -> str:
        if self.table is None:
            return gettext("%(player)s listed with the opening balance") % {"player": self.player}
        return gettext("%(player)s listed with %(table)s") % {"player": self.player, "table": self.table}


class PendingRerate(models.Model):
    """Re-rate needed from this table position": one row, holding the earliest point asked for.

    Written in the same transaction as the edit that needs it, so a crash between the edit and the
    re-rate, or a broker that is down, loses nothing: the next run (task, beat or command) picks it up.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1, editable=False)
    from_date = models.DateField(_("from date"))
    from_sequence = models.PositiveSmallIntegerField(_("from sequence"))
    requested_at = models.DateTimeField(_("requested at"))
    generation = models.PositiveIntegerField(_("generation"), default=0, help_text=_("Bumped by every request."))

    class Meta:
        verbose_name = _("pending re-rate")
        verbose_name_plural = _("pending re-rates")
        constraints = [models.CheckConstraint(condition=Q(id=1), name="pending_rerate_singleton")]

    def __str__(self) -> str:
        return gettext("re-rate from %(date)s #%(sequence)s") % {"date": self.from_date, "sequence": self.from_sequence}


class RerateRun(models.Model):
    """A log line per re-rate: when, from where, how much it did, how it ended."""

    class Outcome(models.TextChoices):
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    started_at = models.DateTimeField(_("started at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    from_date = models.DateField(_("from date"), null=True, blank=True)
    from_sequence = models.PositiveSmallIntegerField(_("from sequence"), null=True, blank=True)
    tables_rated = models.PositiveIntegerField(_("tables rated"), default=0)
    tables_unchanged = models.PositiveIntegerField(_("tables unchanged"), default=0)
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices, default=Outcome.RUNNING)
    error = models.TextField(_("error"), blank=True)
    subscribers_told_at = models.DateTimeField(
        _("subscribers told at"),
        null=True,
        blank=True,
        help_text=_("When the subscribers of the players whose figures it changed were sent their messages."),
    )

    class Meta:
        verbose_name = _("re-rate run")
        verbose_name_plural = _("re-rate runs")
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return gettext("re-rate at %(time)s (%(outcome)s)") % {
            "time": f"{timezone.localtime(self.started_at):%Y-%m-%d %H:%M:%S}",
            "outcome": self.get_outcome_display(),
        }


class RerateChange(models.Model):
    """A player whose stored figures a re-rate run changed: his rating, grade and games counted before and after
    the run (``before``/``after``: {"rating", "grade", "games"}), and the tables whose rating row of his came,
    went or changed (``tables``: ids). The players a run merely passed over have none: nothing of theirs moved.

    Written in the run's transaction, so a worker stopped after the run still leaves what is to be told.
    """

    run = models.ForeignKey(RerateRun, on_delete=models.CASCADE, related_name="changes", verbose_name=_("re-rate run"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))
    tables = models.JSONField(_("tables"), default=list)

    class Meta:
        verbose_name = _("player's change in a re-rate")
        verbose_name_plural = _("players' changes in re-rates")
        constraints = [models.UniqueConstraint(fields=["run", "player"], name="rerate_change_once_per_player")]

    def __str__(self) -> str:
        return f"{self.player} ({self.run})"


class Correction(models.Model):
    """A rating officer's change to the past: a submitted or rated table, a prior grade, a player's identity.

    ``before`` and ``after`` hold the facts changed as they were and became (ids, for undoing them through
    the same services); ``summary`` says it in people's words, with names. An undo is a correction too, whose
    ``undoes`` is the correction it reverses (ratings/services/corrections/apply.py).
    """

    class Kind(models.TextChoices):
        TABLE = "table", _("table")
        PRIOR_GRADE = "prior_grade", _("prior grade")
        IDENTITY = "identity", _("player's identity")
        MERGE = "merge", _("merge of duplicate players")

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
    before = models.JSONField(_("before"), default=dict)
    after = models.JSONField(_("after"), default=dict)
    summary = models.TextField(pgettext_lazy("what a correction changed", "change"))
    undoes = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by", verbose_name=_("undoes")
    )

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        ordering = ["-made_at", "-pk"]
        constraints = [models.CheckConstraint(condition=~Q(reason=""), name="correction_has_a_reason")]

    def __str__(self) -> str:
        made = timezone.localtime(self.made_at) if self.made_at else timezone.now()
        return gettext("%(kind)s corrected on %(date)s") % {
            "kind": capfirst(self.get_kind_display()),
            "date": date_format(made, "DATE_FORMAT"),
        }
