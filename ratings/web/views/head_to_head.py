"""Two players' games against each other, and a player's opponents (the way to each head-to-head)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from ratings.selectors.head_to_head import head_to_head, opponents_of
from ratings.web.caching import public_page
from ratings.web.views.players import player_or_404


@public_page
def head_to_head_page(request: HttpRequest, federation_id: str, other_id: str) -> HttpResponse:
    """The score between two players, each game with its table and date, and what their ratings expected."""
    a, b = player_or_404(federation_id), player_or_404(other_id)
    if a.pk == b.pk:
        raise Http404(_("A player has no games against himself."))
    return render(request, "ratings/head_to_head.html", {"h2h": head_to_head(a, b), "section": "list"})


@public_page
def opponents(request: HttpRequest, federation_id: str) -> HttpResponse:
    """Everyone the player met in a public table, each leading to their head-to-head."""
    player = player_or_404(federation_id)
    return render(
        request, "ratings/opponents.html", {"player": player, "opponents": opponents_of(player), "section": "list"}
    )
