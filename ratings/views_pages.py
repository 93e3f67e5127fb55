"""The public pages beyond the list: player search, tournaments, top lists and statistics, the rating
calculator. Thin views over ratings/selectors/ (search, tournaments, stats, calculator)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from ratings.models import Tournament
from ratings.selectors.search import player_search
from ratings.selectors.tournaments import tournament_for_page, tournament_page


def search(request: HttpRequest) -> HttpResponse:
    """The search box's answer: straight to the player's page when exactly one player matches, else the list."""
    query = request.GET.get("q", "").strip()
    result = player_search(query)
    if result.only is not None:
        return redirect("ratings:player", result.only.federation_id)
    return render(request, "ratings/search.html", {"result": result, "search_query": query})


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament with each of its public tables: final standings, performance, rating change, crosstable."""
    try:
        tournament = tournament_for_page(pk)
    except Tournament.DoesNotExist:
        raise Http404(_("No tournament with a public table has that number.")) from None
    context = {"page": tournament_page(tournament), "tournament": tournament, "section": "tournaments"}
    return render(request, "ratings/tournament_detail.html", context)
