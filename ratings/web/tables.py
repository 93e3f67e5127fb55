"""The public lists as django-tables2 tables, and the rating list's export records.

Sorting is done by the database: every sortable column names the queryset fields it sorts by (annotations
of ratings/selectors/), and every sort ends on a unique key so that pages never overlap.
"""

from __future__ import annotations

import datetime as dt
from functools import cached_property
from typing import TYPE_CHECKING

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _
from django_countries.fields import Country

from ratings.engine import grade_label
from ratings.models import Category
from ratings.selectors import LIST_ORDER
from ratings.selectors.clubs import clubs_on

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

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


class RatingListTable(tables.Table):
    """A rating list: its rows are a stored list's entries (``selectors.list_entries``), filtered, sorted and paged
    in SQL. The columns give the headers, the sorting and the pagination; ratings/_rating_list_table.html writes
    the rows. Every sort ends on the list's order, so that pages never overlap."""

    label: StrOrPromise = _("Rating list")  # the name of its box for a screen reader (ratings/_table.html)

    rank = tables.Column(verbose_name=_("Rank"), order_by=LIST_ORDER, attrs=NUM)
    country_rank = tables.Column(verbose_name=_("In country"), order_by=("nationality", *LIST_ORDER), attrs=EXTRA_NUM)
    # By the name's search key (accents and case folded: ÁLVAREZ under A, "de Groot" under D, whatever the
    # database's collation), the name as it is read.
    name = tables.Column(verbose_name=_("Name"), accessor="family_name", order_by=("search_name", "position"))
    nationality = tables.Column(verbose_name=_("Country"), order_by=("nationality", *LIST_ORDER))
    # Each player's club on the list's date: a computed list's line holds it (``prefetch_related("club")``), an
    # official list's is read by ``clubs_show``. Left out on a phone.
    club = tables.Column(verbose_name=_("Club"), accessor="player_id", orderable=False, attrs=CLUB)
    rating = tables.Column(
        verbose_name=_("Rating"),
        order_by=("rating", "-position"),
        initial_sort_descending=True,
        attrs={"th": {"class": "num"}, "td": {"class": "num rating"}},
    )
    grade = tables.Column(
        verbose_name=_("FESA grade"),
        order_by=("grade", "rating", "-position"),
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
        verbose_name=_("Games"), order_by=("games", "-position"), initial_sort_descending=True, attrs=EXTRA_NUM
    )
    category = tables.Column(verbose_name=_("Category"), order_by=("category", *LIST_ORDER), attrs=EXTRA)
    last_played = tables.DateColumn(
        verbose_name=_("Last played"),
        order_by=("last_played", "-position"),
        initial_sort_descending=True,
        format="Y-m-d",
        attrs={"td": {"class": "minor"}, "th": {"class": "minor"}},
    )

    class Meta:
        template_name = "ratings/_rating_list_table.html"
        attrs = {"class": "data rating-list"}
        empty_text = _("No player matches these filters.")

    def clubs_show(self, on: dt.date) -> None:
        """Give each entry of the page its player's club on ``on``, the list's date (``entry.club``): one query.
        For an official list, whose lines do not keep the club (not published: docs/privacy.md)."""
        entries = [row.record for row in self.paginated_rows]
        clubs = clubs_on([e.player_id for e in entries if e.player_id], on)
        for entry in entries:
            entry.club = clubs.get(entry.player_id)

    # The rows' names of countries and categories, in the reader's language: translated once a page, not once a row.
    @cached_property
    def country_names(self) -> dict[str, str]:
        return {code: Country(code).name for code in {row.record.nationality for row in self.paginated_rows}}

    @cached_property
    def category_labels(self) -> dict[str, str]:
        return {value: str(label) for value, label in CATEGORY_LABELS.items()}


class PendingPromotionTable(tables.Table):
    """Dan promotions waiting for approval (rows: Promotions with player and table__tournament, and
    ``highest_pending``). The columns give the headers and the pagination; ratings/_pending_promotion_table.html
    writes the rows."""

    label: StrOrPromise = _("Dan promotions waiting for approval")

    player = tables.Column(verbose_name=_("Player"), orderable=False)
    nationality = tables.Column(
        verbose_name=_("Country"), accessor="player__nationality__code", orderable=False, attrs=EXTRA
    )
    grade = tables.Column(verbose_name=_("Grade"), orderable=False)
    table = tables.Column(verbose_name=_("Table"), orderable=False, empty_values=())
    date = tables.DateColumn(
        verbose_name=_("Date"), accessor="table__date", format="Y-m-d", orderable=False, attrs=EXTRA
    )  # under the table's name on a phone
    route = tables.Column(
        verbose_name=_("Route"), orderable=False, attrs={"td": {"class": "minor"}, "th": {"class": "minor"}}
    )

    class Meta:
        template_name = "ratings/_pending_promotion_table.html"
        attrs = {"class": "data"}
        empty_text = _("No Dan promotion is waiting for approval.")


class TournamentTable(tables.Table):
    """Tournaments, each with its public tables (rows: ``selectors.tournaments_list``). The columns give the
    headers, the sorting and the pagination; ratings/_tournament_table.html writes the rows."""

    label: StrOrPromise = _("Tournaments")

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
        template_name = "ratings/_tournament_table.html"
        attrs = {"class": "data tournaments"}
        empty_text = _("No tournament matches these filters.")
