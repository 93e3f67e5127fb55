"""A player's page and how one table moved him."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings import selectors
from ratings.models import Player
from ratings.selectors.categories import player_groups
from ratings.selectors.duplicates import merged_into_id_of
from ratings.selectors.official_lists import player_official_lists
from ratings.selectors.player_stats import best_wins, longest_run, peak_rank
from ratings.selectors.standing import player_standing
from ratings.services.lists import list_stored
from ratings.web.caching import public_page
from ratings.web.charts import ChartPoint, rating_chart


def player_or_404(federation_id: str) -> Player:
    """The player the public pages show under ``federation_id``, or a 404."""
    try:
        return selectors.player_for_page(federation_id)
    except Player.DoesNotExist:
        raise Http404(_("No player has that federation id.")) from None


@public_page
def player_detail(request: HttpRequest, federation_id: str) -> HttpResponse:
    """A player's standing, his rating over time, his tables (newest first, each leading to its game-by-game
    explanation on the table's own page) and his grade history. A record merged into another redirects there for
    good."""
    try:
        player = selectors.player_for_page(federation_id)
    except Player.DoesNotExist:
        kept = merged_into_id_of(federation_id)  # asked only when no shown player has the id
        if not kept:
            raise Http404(_("No player has that federation id.")) from None
        return HttpResponsePermanentRedirect(reverse("ratings:player", args=[kept]))
    grade_steps = selectors.player_grade_history(player)
    today = timezone.localdate()
    groups = player_groups(player, today)
    today_list = list_stored(None, active=True, version=getattr(request, "data_version", None))
    official = player_official_lists(player)
    standing = player_standing(player, today_list)
    tables = selectors.player_tables(player, grade_steps)
    historical = selectors.player_historical_rows(player)
    points = [
        ChartPoint(date=h.date, rating=h.rating_after, label=h.table.label, href=f"#table-{h.table_id}", imported=True)
        for h in historical
    ] + [
        ChartPoint(date=t.row.date, rating=t.row.rating_after, label=t.row.table.label, href=f"#table-{t.row.table_id}")
        for t in reversed(tables)
    ]
    context = {
        "player": player,
        "tables": tables,
        "performance_rated": any(t.performance_rated for t in tables),  # the footnote of the starred ratings
        "historical": historical[::-1],
        "grade_steps": grade_steps,
        "chart": rating_chart(points),
        "games_before_records": selectors.games_before_records(player),
        # The prior grade's win and loss, counted with his first table's games (docs/rules.md §6).
        "prior_grade_games": sum(t.row.games_after - t.row.games_before - t.row.rated_games for t in tables),
        "official_lists": official,
        "best_wins": best_wins(player),
        "peak_rank": peak_rank(official, today_rank=standing.rank, today=today),
        "longest_run": longest_run(t.row.date for t in tables),
        "clubs": groups.club_history,
        "club": groups.club,
        # Only the category is published, never the date of birth (docs/privacy.md).
        "age_category": groups.age_category.label if groups.age_category else "",
        "womens_list": groups.womens_list,
        "standing": standing,
    }
    return render(request, "ratings/player_detail.html", context)


@public_page
def player_table(request: HttpRequest, federation_id: str, table_id: int) -> HttpResponse:
    """How one table moved one player, game by game, with the way to his tables before and after it."""
    player = player_or_404(federation_id)
    entry = selectors.player_table_entry(player, table_id)
    if entry is None:
        raise Http404(_("The player has no rated game in that table."))
    earlier, later = selectors.player_table_neighbours(player, table_id)
    context = {"player": player, "entry": entry, "earlier": earlier, "later": later}
    return render(request, "ratings/player_table.html", context)
