"""Atom feeds of the latest rated tables and promotions (django.contrib.syndication), linked from every page's
<head> (templates/base.html), and of each club's tables (hosted, or played by its members), linked from its page:
thin interfaces over ratings/selectors/."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.contrib.syndication.views import Feed
from django.http import Http404, HttpRequest
from django.urls import reverse, reverse_lazy
from django.utils.feedgenerator import Atom1Feed, SyndicationFeed
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ratings import selectors
from ratings.engine import grade_label
from ratings.models import Club, Table, Tournament
from ratings.selectors.api import PlayerCount, rated_tables
from ratings.selectors.clubs import club_rated_tables
from ratings.selectors.crosstable import TablePromotion
from ratings.selectors.season import announced_tournaments

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

ITEMS = 30


class SiteFeed(Feed):
    """Atom asks for an author of every entry: the site's, given once for the feed."""

    feed_type = Atom1Feed
    author_name = gettext_lazy("FESA ratings")


class _TablesFeed(SiteFeed):
    """Rated tables as entries: the site's and a club's feed."""

    def item_title(self, table: Table) -> str:
        return f"{table.label} ({table.date.isoformat()})"

    def item_description(self, table: WithAnnotations[Table, PlayerCount]) -> str:
        place = table.tournament.place
        count = table.player_count
        players = ngettext("%(count)s player", "%(count)s players", count) % {"count": count}
        return f"{players}; {place}" if place else players

    def item_link(self, table: Table) -> str:
        return reverse("ratings:table", args=[table.pk])

    def item_pubdate(self, table: Table) -> dt.datetime | None:
        return table.first_rated_at

    def item_updateddate(self, table: Table) -> dt.datetime | None:
        return table.last_rerated_at or table.first_rated_at


class RatedTablesFeed(_TablesFeed):
    title = gettext_lazy("FESA ratings: rated tables")
    subtitle = gettext_lazy("The latest tables rated by the FESA rules.")
    link = reverse_lazy("ratings:tournaments")

    def items(self) -> list[Table]:
        return list(rated_tables()[:ITEMS])


class ClubTablesFeed(_TablesFeed):
    """What a club's secretary follows: the latest rated tables of the tournaments it hosted and those its
    members played (members on the table's date), each once."""

    subtitle = gettext_lazy("The latest rated tables of the tournaments this club hosted and of its members.")

    def get_object(self, request: HttpRequest, pk: int) -> Club:
        try:
            return Club.objects.get(pk=pk)
        except Club.DoesNotExist:
            raise Http404(_("No club has that number.")) from None

    def title(self, club: Club) -> str:
        return _("FESA ratings: %(club)s") % {"club": club.name}

    def link(self, club: Club) -> str:
        return reverse("ratings:club", args=[club.pk])

    def items(self, club: Club) -> list[Table]:
        return list(club_rated_tables(club)[:ITEMS])


def promotion_line(line: TablePromotion) -> str:
    """As FESA prints it under a result table: "Promoting NAME to 3 Kyu", and a Dan grade still pending."""
    parts = []
    if line.granted:
        parts.append(
            _("Promoting %(player)s to %(grade)s") % {"player": line.player, "grade": grade_label(line.granted)}
        )
    if line.pending:
        parts.append(
            _("%(player)s: %(grade)s waiting for approval")
            % {"player": line.player, "grade": grade_label(line.pending)}
        )
    return "; ".join(parts)


class PromotionsFeed(SiteFeed):
    title = gettext_lazy("FESA ratings: promotions")
    subtitle = gettext_lazy("Grades the latest rated tables gave.")
    link = reverse_lazy("ratings:promotions")

    def items(self) -> list[tuple[Table, list[TablePromotion]]]:
        tables = list(selectors.promotion_tables()[:ITEMS])
        lines = selectors.table_promotions([t.pk for t in tables])
        return [(t, lines.get(t.pk, [])) for t in tables]

    def item_title(self, item: tuple[Table, list[TablePromotion]]) -> str:
        table = item[0]
        return _("Promotions at %(table)s (%(date)s)") % {"table": table.label, "date": table.date.isoformat()}

    def item_description(self, item: tuple[Table, list[TablePromotion]]) -> str:
        return "\n".join(promotion_line(line) for line in item[1])

    def item_link(self, item: tuple[Table, list[TablePromotion]]) -> str:
        return reverse("ratings:table", args=[item[0].pk])

    def item_pubdate(self, item: tuple[Table, list[TablePromotion]]) -> dt.datetime | None:
        return item[0].first_rated_at

    def item_updateddate(self, item: tuple[Table, list[TablePromotion]]) -> dt.datetime | None:
        return item[0].last_rerated_at or item[0].first_rated_at

    def get_feed(self, obj: object, request: HttpRequest) -> SyndicationFeed:
        """An entry's id is its table's address, as in the tables feed: a reader that follows both must not take
        the promotions for the table, so they get an id of their own (the address with ``#promotions``)."""
        feed = super().get_feed(obj, request)
        for entry in feed.items:
            entry["unique_id"] = f"{entry['link']}#promotions"
        return feed


class AnnouncedTournamentsFeed(SiteFeed):
    """The tournaments a rating officer accepted last, for players who follow the season."""

    title = gettext_lazy("FESA ratings: announced tournaments")
    subtitle = gettext_lazy("Tournaments registered with FESA and accepted for rating.")
    link = reverse_lazy("ratings:calendar")

    def items(self) -> list[Tournament]:
        return list(announced_tournaments().order_by("-reviewed_at", "-pk")[:ITEMS])

    def item_title(self, tournament: Tournament) -> str:
        return _("%(name)s (%(start)s – %(end)s)") % {
            "name": tournament.name,
            "start": tournament.start_date.isoformat(),
            "end": tournament.end_date.isoformat(),
        }

    def item_description(self, tournament: Tournament) -> str:
        return "; ".join(p for p in (tournament.place, tournament.time_control, tournament.mode) if p)

    def item_link(self, tournament: Tournament) -> str:
        return reverse("ratings:tournament", args=[tournament.pk])

    def item_pubdate(self, tournament: Tournament) -> dt.datetime | None:
        return tournament.reviewed_at
