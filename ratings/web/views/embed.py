"""What a club's web site may embed: a player's badge (SVG: name, rating, grade) and a small top list (HTML, for
an iframe). These two are the only answers another site may frame; both are cached like every public page."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_replace
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.clickjacking import xframe_options_exempt

from ratings import selectors
from ratings.models import Category, Player
from ratings.selectors.stats import top_players
from ratings.web.caching import public_page
from ratings.web.tables import CATEGORY_LABELS, grade_text
from ratings.web.views.paging import int_param

TOP_SIZES = (5, 10, 15, 20, 25)
EMBEDDABLE = {"frame-ancestors": ["*"]}


@xframe_options_exempt
@csp_replace(EMBEDDABLE)
@public_page
def player_badge(request: HttpRequest, federation_id: str) -> HttpResponse:
    """The player's name, rating and grade as a 320 x 56 SVG image."""
    try:
        player = selectors.player_for_page(federation_id)
    except Player.DoesNotExist:
        raise Http404 from None
    context = {
        "player": player,
        "grade": grade_text(player.grade, player.list_pending_grade),
        "unrated": player.category == Category.UNRATED,
        "category": CATEGORY_LABELS.get(player.category, ""),
    }
    svg = render_to_string("ratings/embed/badge.svg", context, request=request)
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


@xframe_options_exempt
@csp_replace(EMBEDDABLE)
@public_page
def top_list(request: HttpRequest) -> HttpResponse:
    """Today's top players (of a country with ``?country=FR``), 5 to 25 of them (``?n=``), for an iframe."""
    country = request.GET.get("country", "").upper()[:2]
    if country and country not in dict(selectors.list_countries(getattr(request, "data_version", None))):
        raise Http404
    size = int_param(request, "n", 10, TOP_SIZES)
    context: dict[str, Any] = {"players": list(top_players(country=country, limit=size)), "country": country}
    return render(request, "ratings/embed/top_list.html", context)
