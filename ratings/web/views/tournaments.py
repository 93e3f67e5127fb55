"""The tournaments: the list by year and country, and each tournament's page."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings import selectors
from ratings.models import Tournament
from ratings.selectors.season import tournament_season
from ratings.selectors.tournaments import tournament_page
from ratings.web.caching import public_page
from ratings.web.filters import TournamentFilter
from ratings.web.tables import TournamentTable
from ratings.web.views.paging import paginate_table


@public_page
def tournament_list(request: HttpRequest) -> HttpResponse:
    """Tournaments by year and country, newest first, each with its public tables."""
    filterset = TournamentFilter(request.GET, queryset=selectors.tournaments_list())
    context: dict[str, Any] = {
        "filter": filterset,
        "section": "tournaments",
        "countries": selectors.tournament_countries(),
    }
    if not filterset.form.is_valid():
        return render(request, "ratings/tournament_list.html", context, status=400)
    table = TournamentTable(filterset.qs)
    paginate_table(table, request, per_page=25)
    context["table"] = table
    return render(request, "ratings/tournament_list.html", context)


@public_page
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament with each of its public tables: final standings, performance, rating change, crosstable."""
    try:
        page = tournament_page(pk)
    except Tournament.DoesNotExist:
        raise Http404(_("No tournament with a public table has that number.")) from None
    context = {
        "page": page,
        "tournament": page.tournament,
        "season": tournament_season(page.tournament, today=timezone.localdate()),
        "section": "tournaments",
    }
    return render(request, "ratings/tournament_detail.html", context)
