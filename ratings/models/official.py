"""Rating lists as stored rows: today's list, a past date's list, and the official lists, one row per player.

The rating list of a date (docs/rules.md §8) follows from the rating history. It is written out as a
``StoredList`` and its ``ListEntry`` rows (ratings/services/lists.py): today's after every re-rate and every
morning (the two-year window moves), a past date's when it is first asked for. Both are keyed by the data
version they were made of, so a change of the history is never read through an older list; lists of older
versions are deleted after a while.

An ``OfficialList`` keeps what the federation published: its own ``StoredList`` of entries with the figures as
they stood, and the all.txt file byte for byte. Written once by ratings/services/official_lists.py; nothing
updates them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django_countries.fields import Country

from ratings.engine.prior_grades import prior_grade_label
from ratings.models.common import GRADE_CHOICES, Category, PriorGradeKind, latin_name
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


class StoredList(models.Model):
    """One rating list written out: of ``date``, the FESA list (``active``) or every rated player, made of the
    data ``version``; or an official list as published (``official``, version empty)."""

    class Kind(models.TextChoices):
        COMPUTED = "computed", _("computed from the history")
        OFFICIAL = "official", _("official, as published")

    kind = models.CharField(max_length=8, choices=Kind.choices)
    date = models.DateField(_("list date"))
    active = models.BooleanField(default=True)
    version = models.CharField(max_length=40, blank=True)
    official = models.OneToOneField(
        OfficialList, null=True, blank=True, on_delete=models.CASCADE, related_name="stored_list"
    )
    built_at = models.DateTimeField(auto_now_add=True)
    player_count = models.PositiveIntegerField(default=0)
    ranked_count = models.PositiveIntegerField(default=0)
    # Whether its lines are in the indexes of the sorts and filters (``ListEntry.indexed``): the lists the pages
    # link are (today's, the latest list dates', the official ones); a past date's list, made on a visitor's
    # first view, is not.
    indexed = models.BooleanField(default=False, editable=False)

    class Meta:
        verbose_name = _("stored rating list")
        verbose_name_plural = _("stored rating lists")
        constraints = [
            models.UniqueConstraint(
                fields=["date", "active", "version"],
                condition=models.Q(kind="computed"),
                name="stored_list_once_per_version",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date.isoformat()} ({self.kind})"


class ListEntry(models.Model):
    """A player on a stored list, with his figures on it.

    ``position`` numbers every line in list order (highest rating first, then the FESA program's state order),
    as FESA's all.txt does, and ``country_position`` within the player's country; ``rank`` and ``country_rank``
    number only the players whose rating rests on enough games (docs/rules.md §8), the ranks the pages show, and
    are empty for the others. ``player`` links the line to the player's page; on an official list it is emptied if
    the player row ever goes, and the line keeps his name, federation id and figures as published.
    """

    # Both are indexed by the Meta's indexes below, which lead with them. No foreign key of a line is checked by
    # the database: a list is written whole from the rows just read (ratings/services/lists.py) and deleted
    # whole, and the checks took more than half of the database's time to write one (bench/README.md). Django
    # applies ``on_delete`` itself (a player or club deleted: rare, and a scan of every line).
    stored_list = models.ForeignKey(
        StoredList, on_delete=models.CASCADE, related_name="entries", db_index=False, db_constraint=False
    )
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="list_entries",
        verbose_name=_("player"),
        db_index=False,
        db_constraint=False,
    )
    position = models.PositiveIntegerField(_("line"))
    country_position = models.PositiveIntegerField(_("line in country"))
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    country_rank = models.PositiveIntegerField(_("country rank"), null=True, blank=True)
    federation_id = models.CharField(_("federation id"), max_length=12)
    family_name = models.CharField(_("family name"), max_length=100)
    given_name = models.CharField(_("given name"), max_length=100, blank=True)
    latin_family_name = models.CharField(max_length=100, blank=True)
    latin_given_name = models.CharField(max_length=100, blank=True)
    search_name = models.CharField(max_length=606, blank=True)
    nationality = models.CharField(_("nationality"), max_length=2, blank=True)
    list_order = models.PositiveIntegerField(default=0, editable=False)
    rating = models.IntegerField(_("rating"))
    games = models.PositiveIntegerField(_("games"))
    grade = models.PositiveSmallIntegerField(_("FESA grade"), choices=GRADE_CHOICES)
    fesa_grade = models.PositiveSmallIntegerField(_("FESA grade (computed)"), choices=GRADE_CHOICES)
    pending_grade = models.PositiveSmallIntegerField(_("pending Dan grade"), null=True, blank=True)
    prior_grade_kind = models.CharField(_("prior grade"), max_length=3, choices=PriorGradeKind.choices, blank=True)
    prior_grade_level = models.PositiveSmallIntegerField(_("prior grade level"), null=True, blank=True)
    category = models.CharField(_("category"), max_length=12, choices=Category.choices)
    last_played = models.DateField(_("last played"), null=True, blank=True)
    # The share of the list's ranked players rated below him, in percent, in the federation and among his
    # nationality; empty for a player the list does not rank (and in the country for one without a nationality).
    percentile = models.FloatField(_("percentile"), null=True, blank=True)
    country_percentile = models.FloatField(_("percentile in country"), null=True, blank=True)
    # What the club and category filters read, as of the list's date: his club then, his narrowest age category
    # then (the category only, never the date of birth: docs/privacy.md), and whether he is on the women's list.
    club = models.ForeignKey(
        "Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False,
        db_constraint=False, verbose_name=_("club"),
    )  # fmt: skip
    age_group = models.CharField(_("Age category"), max_length=3, blank=True)
    womens_list = models.BooleanField(_("women's list"), default=False)
    # Its list's ``indexed``, the condition of the sort and filter indexes below: a query of an indexed list's
    # lines names it (ratings/selectors/lists.py ``list_entries``), or the database cannot use them.
    indexed = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["stored_list", "position"]
        verbose_name = _("list entry")
        verbose_name_plural = _("list entries")
        constraints = [
            models.UniqueConstraint(fields=["stored_list", "position"], name="list_entry_position_once"),
        ]
        # A list is read by its position (the unique constraint's index). A player's line on a list, and his lines
        # on the official lists (their few lists joined first), by the (list, player) index: led by the list, so
        # that a list's lines are written into one end of it and not all over it (bench/README.md).
        # The lists the pages link are also read in each sort and by each filter from an index of its own, which
        # keeps a page at the same cost however long the list. They double the time to make a list: a past date's
        # list, made on a visitor's first view, is left out of them and sorted whole (bench/README.md, "Indexes
        # for the sorts and filters"). Each sort's order ends with the line's position, in the direction that
        # makes the other way round the index read backwards (ratings/web/tables.py).
        indexes = [
            models.Index(fields=["stored_list", "player"], name="list_entry_list_player_idx"),
            *(
                models.Index(
                    fields=["stored_list", *fields], name=f"list_entry_{name}_idx", condition=models.Q(indexed=True)
                )
                for name, fields in (
                    ("country", ["nationality", "position"]),
                    ("club", ["club", "position"]),
                    ("age", ["age_group", "position"]),
                    ("women", ["womens_list", "position"]),
                    ("category", ["category", "position"]),
                    ("name", ["search_name", "position"]),
                    ("rating", ["rating", "-position"]),
                    ("grade", ["grade", "rating", "-position"]),
                    ("games", ["games", "-position"]),
                    ("played", ["last_played", "-position"]),
                )
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.family_name} {self.given_name}".strip()

    @property
    def file_name(self) -> tuple[str, str]:
        """(family, given) as FESA's files and the exports write them (``Player.file_name``)."""
        return latin_name(self.family_name, self.given_name, self.latin_family_name, self.latin_given_name)

    @property
    def country(self) -> Country:
        return Country(self.nationality)

    @property
    def prior_grade_label(self) -> str:
        """As ``Player.prior_grade_label``."""
        if not self.prior_grade_kind or self.prior_grade_level is None:
            return ""
        return prior_grade_label(self.prior_grade_kind, self.prior_grade_level)

    @property
    def shown_pending_grade(self) -> int | None:
        """The pending Dan grade, where it is above the grade held (what "1 Kyu (1 Dan pending)" shows)."""
        return self.pending_grade if self.pending_grade and self.pending_grade > self.grade else None
