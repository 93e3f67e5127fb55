"""Player search, and the clubs a query names."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from ratings.selectors.search import CLUB_LIMIT, clubs_named, player_search
from ratings.web.caching import public_page


@public_page
def search(request: HttpRequest) -> HttpResponse:
    """The search box's answer: straight to the player's page when exactly one player matches and no club, else
    the players and the clubs found."""
    query = request.GET.get("q", "").strip()
    result = player_search(query)
    clubs = clubs_named(query)
    if result.only is not None and not clubs:
        return redirect("ratings:player", result.only.federation_id)
    context = {"result": result, "clubs": clubs[:CLUB_LIMIT], "more_clubs": len(clubs) > CLUB_LIMIT}
    return render(request, "ratings/search.html", {**context, "search_query": query})
