"""Player search."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from ratings.selectors.search import player_search
from ratings.web.caching import public_page


@public_page
def search(request: HttpRequest) -> HttpResponse:
    """The search box's answer: straight to the player's page when exactly one player matches, else the list."""
    query = request.GET.get("q", "").strip()
    result = player_search(query)
    if result.only is not None:
        return redirect("ratings:player", result.only.federation_id)
    return render(request, "ratings/search.html", {"result": result, "search_query": query})
