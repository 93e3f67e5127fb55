"""Clubs: their ranking by their best members' ratings, each club's page, and the ranking of countries."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from ratings.models import Club
from ratings.selectors.clubs import CLUB_TOP, COUNTRY_TOP, club_page, club_ranking, country_ranking
from ratings.web.caching import public_page


@public_page
def club_list(request: HttpRequest) -> HttpResponse:
    """Every club, ranked by the average rating of its best members."""
    context = {"ranking": club_ranking(getattr(request, "data_version", None)), "top": CLUB_TOP, "section": "clubs"}
    return render(request, "ratings/club_list.html", context)


@public_page
def club_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A club: where it is, its members with their ratings, its top average and the tournaments it hosted."""
    try:
        page = club_page(pk)
    except Club.DoesNotExist:
        raise Http404(_("No club has that number.")) from None
    return render(request, "ratings/club_detail.html", {"page": page, "top": CLUB_TOP, "section": "clubs"})


@public_page
def country_list(request: HttpRequest) -> HttpResponse:
    """The countries ranked by the average rating of their best players, as FIDE ranks federations."""
    ranking = country_ranking(getattr(request, "data_version", None))
    return render(request, "ratings/country_ranking.html", {"ranking": ranking, "top": COUNTRY_TOP, "section": "clubs"})
