"""The sitemap search engines read (django.contrib.sitemaps): the main pages, every player who has played,
every tournament with a public table, and the official lists. Served from /sitemap.xml as an index of sections,
each split into pages of at most 5,000 addresses."""

from __future__ import annotations

import datetime as dt

from django.contrib.sitemaps import Sitemap
from django.db.models import Exists, OuterRef, QuerySet
from django.urls import reverse

from ratings.models import OfficialList, Player, Tournament
from ratings.selectors.events import public_tables

PAGE_SIZE = 5_000


class PagesSitemap(Sitemap):
    """The pages every visitor starts from."""

    changefreq = "weekly"

    def items(self) -> list[str]:
        names = ("rating_list", "tournaments", "promotions", "statistics", "official_lists", "search", "calculator")
        return [f"ratings:{name}" for name in names] + ["downloads:index"]

    def location(self, item: str) -> str:
        return reverse(item)


class PlayersSitemap(Sitemap):
    """Every player with a rated game, by federation id; his page changes when he plays."""

    limit = PAGE_SIZE
    changefreq = "monthly"

    def items(self) -> QuerySet[Player]:
        return (
            Player.objects.filter(merged_into__isnull=True, games__gt=0)
            .only("federation_id", "last_played")
            .order_by("federation_id")
        )

    def location(self, item: Player) -> str:
        return reverse("ratings:player", args=[item.federation_id])

    def lastmod(self, item: Player) -> dt.date | None:
        return item.last_played


class TournamentsSitemap(Sitemap):
    """Every tournament with a submitted or rated table."""

    limit = PAGE_SIZE
    changefreq = "yearly"

    def items(self) -> QuerySet[Tournament]:
        return (
            Tournament.objects.filter(Exists(public_tables().filter(tournament=OuterRef("pk"))))
            .only("pk", "end_date")
            .order_by("pk")
        )

    def location(self, item: Tournament) -> str:
        return reverse("ratings:tournament", args=[item.pk])

    def lastmod(self, item: Tournament) -> dt.date | None:
        return item.end_date


class OfficialListsSitemap(Sitemap):
    """The published official lists: frozen, never changed."""

    changefreq = "never"

    def items(self) -> QuerySet[OfficialList]:
        return OfficialList.objects.only("date").order_by("date")

    def location(self, item: OfficialList) -> str:
        return reverse("ratings:official_list", args=[item.date.isoformat()])


SITEMAPS = {
    "pages": PagesSitemap,
    "players": PlayersSitemap,
    "tournaments": TournamentsSitemap,
    "official-lists": OfficialListsSitemap,
}
