"""The public lists as django-tables2 tables, and the rating list's export records.

Sorting is done by the database: every sortable column names the queryset fields it sorts by (annotations
of ratings/selectors/), and every sort ends on a unique key so that pages never overlap.
"""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings.engine import grade_label
from ratings.models import Category, Club, Player, Promotion
from ratings.selectors import LIST_ORDER

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
EXTRA = {"th": {"class": "extra"}, "td": {"class": "extra"}}  # left out on a phone, with the "minor" columns
EXTRA_NUM = {"th": {"class": "num extra"}, "td": {"class": "num extra"}}
CLUB = {"th": {"class": "extra club"}, "td": {"class": "extra club"}}
CATEGORY_LABELS = dict(Category.choices)


def grade_text(grade: int | None, pending: int | None = None) -> str:
    """ "1 Kyu", "1 Kyu (1 Dan pending)", or "" for no grade."""
    shown = grade_label(grade or 0)
    if pending and pending > (grade or 0):
        return str(_("%(grade)s (%(pending)s pending)") % {"grade": shown or "–", "pending": grade_label(pending)})
    return shown


def player_link(player: Player) -> SafeString:
    url = reverse("ratings:player", args=[player.federation_id])
    return format_html('<a href="{}">{}</a> {}', url, player.family_name.upper(), player.given_name)


class RatingListTable(tables.Table):
    """The rating list: rows are the ranked rows of ``selectors.rating_list`` (sorted and paged in memory).

    The columns give the headers, the sorting and the pagination; the rows themselves are written in the same
    order by the ``rating_list_rows`` template tag (ratings/templatetags/ratings_public.py), straight from the
    records: fifty rows rendered cell by cell through the column machinery cost more than the rest of the page.
    """

    rank = tables.Column(
        verbose_name=_("Rank"),
        accessor="public_rank",
        order_by=LIST_ORDER,
        attrs=NUM,
    )
    country_rank = tables.Column(
        verbose_name=_("In country"),
        accessor="public_country_rank",
        order_by=("nationality_code", *LIST_ORDER),
        attrs=EXTRA_NUM,
    )
    name = tables.Column(verbose_name=_("Name"), accessor="family_name", order_by=("family_name", "given_name", "pk"))
    nationality = tables.Column(
        verbose_name=_("Country"), accessor="nationality_code", order_by=("nationality_code", *LIST_ORDER)
    )
    # Each player's club on the list's date (``clubs``, set by the view); left out on a phone.
    club = tables.Column(verbose_name=_("Club"), accessor="pk", orderable=False, attrs=CLUB)
    rating = tables.Column(
        verbose_name=_("Rating"),
        accessor="list_rating",
        order_by=("list_rating", "pk"),
        initial_sort_descending=True,
        attrs={"th": {"class": "num"}, "td": {"class": "num rating"}},
    )
    grade = tables.Column(
        verbose_name=_("FESA grade"),
        accessor="list_grade",
        order_by=("list_grade", "list_rating", "pk"),
        initial_sort_descending=True,
        empty_values=(),
    )
    prior_grade = tables.Column(
        verbose_name=_("Prior grade"),
        accessor="prior_grade_label",
        orderable=False,
        attrs={"td": {"class": "minor"}, "th": {"class": "minor"}},
    )
    games = tables.Column(
        verbose_name=_("Games"),
        accessor="list_games",
        order_by=("list_games", "pk"),
        initial_sort_descending=True,
        attrs=EXTRA_NUM,
    )
    category = tables.Column(
        verbose_name=_("Category"), accessor="list_category", order_by=("list_category", "pk"), attrs=EXTRA
    )
    last_played = tables.DateColumn(
        verbose_name=_("Last played"),
        accessor="list_last_played",
        order_by=("list_last_played", "pk"),
        initial_sort_descending=True,
        format="Y-m-d",
        attrs={"td": {"class": "minor"}, "th": {"class": "minor"}},
    )

    class Meta:
        template_name = "ratings/_rating_list_table.html"
        attrs = {"class": "data rating-list"}
        empty_text = _("No player matches these filters.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clubs: dict[int, Club] = {}  # each row's player's club on the list's date


class PendingPromotionTable(tables.Table):
    """Dan promotions waiting for approval (rows: Promotions with player and table__tournament)."""

    player = tables.Column(verbose_name=_("Player"), orderable=False)
    # Read through the Country object: a model field with choices would make django-tables2 look up the
    # display name among 250 countries for every row.
    nationality = tables.Column(verbose_name=_("Country"), accessor="player__nationality__code", orderable=False)
    grade = tables.Column(verbose_name=_("Grade"), orderable=False)
    table = tables.Column(verbose_name=_("Table"), orderable=False, empty_values=())
    date = tables.DateColumn(verbose_name=_("Date"), accessor="table__date", format="Y-m-d", orderable=False)
    route = tables.Column(
        verbose_name=_("Route"), orderable=False, attrs={"td": {"class": "minor"}, "th": {"class": "minor"}}
    )

    class Meta:
        template_name = "ratings/_quick_table.html"
        attrs = {"class": "data"}
        empty_text = _("No Dan promotion is waiting for approval.")

    def render_player(self, record: Promotion) -> SafeString:
        return player_link(record.player)

    def render_nationality(self, record: Promotion) -> SafeString:
        country = record.player.nationality
        return format_html('<abbr title="{}">{}</abbr>', country.name, country.code)

    def render_grade(self, record: Any) -> str:
        highest = getattr(record, "highest_pending", None)
        if highest and highest > record.grade:
            return f"{grade_label(record.grade)} – {grade_label(highest)}"
        return grade_label(record.grade)

    def render_table(self, record: Promotion) -> SafeString | str:
        if record.table is None:
            return ""
        table = record.table
        tournament = format_html(
            '<a href="{}#table-{}">{}</a>',
            reverse("ratings:tournament", args=[table.tournament_id]),
            table.pk,
            table.tournament.name,
        )
        if not table.name:
            return tournament
        return format_html('{}, <a href="{}">{}</a>', tournament, reverse("ratings:table", args=[table.pk]), table.name)

    def render_route(self, record: Promotion) -> str:
        return str(record.get_route_display())


class TournamentTable(tables.Table):
    """Tournaments, each with its public tables (rows: ``selectors.tournaments_list``)."""

    end_date = tables.DateColumn(
        verbose_name=_("Date"), format="Y-m-d", order_by=("end_date", "name", "pk"), attrs={"td": {"class": "date"}}
    )
    name = tables.Column(verbose_name=_("Tournament"), order_by=("name", "pk"))
    city = tables.Column(
        verbose_name=_("City"), orderable=False, attrs={"td": {"class": "minor"}, "th": {"class": "minor"}}
    )
    country = tables.Column(
        verbose_name=_("Country"), accessor="country__code", order_by=("country", "-end_date", "pk"), attrs=EXTRA
    )
    tables_ = tables.Column(verbose_name=_("Tables"), accessor="public_tables", orderable=False, empty_values=())

    class Meta:
        template_name = "ratings/_quick_table.html"
        attrs = {"class": "data tournaments"}
        empty_text = _("No tournament matches these filters.")

    def render_end_date(self, record: Any) -> str:
        if record.start_date == record.end_date:
            return record.end_date.isoformat()
        return f"{record.start_date.isoformat()} – {record.end_date.isoformat()}"

    def render_name(self, record: Any) -> SafeString:
        return format_html('<a href="{}">{}</a>', reverse("ratings:tournament", args=[record.pk]), record.name)

    def render_country(self, record: Any) -> SafeString | str:
        if not record.country:
            return ""
        return format_html('<abbr title="{}">{}</abbr>', record.country.name, record.country.code)

    def render_tables_(self, record: Any) -> SafeString:
        items = [
            format_html(
                '<li><a href="{}">{}</a> <span class="minor">{}</span></li>',
                reverse("ratings:table", args=[t.pk]),
                t.name or _("Table of %(date)s") % {"date": t.date.isoformat()},
                ngettext("%(count)s player", "%(count)s players", t.player_count) % {"count": t.player_count},
            )
            for t in record.public_tables
        ]
        return format_html('<ul class="plain">{}</ul>', SafeString("".join(items)))
