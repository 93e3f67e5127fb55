"""The public pages beyond the list: player search, tournaments, top lists and statistics, the rating
calculator. Thin views over ratings/selectors/ (search, tournaments, stats, calculator)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from ratings.charts import bar_chart
from ratings.conditional import public_page
from ratings.engine import EngineError
from ratings.engine.categories import PROVISIONAL_FROM
from ratings.forms_pages import GameFormSet, StartForm, TopListForm
from ratings.models import Tournament
from ratings.selectors import list_countries
from ratings.selectors.calculator import (
    Calculation,
    calculate,
    current_states,
    players_by_federation_id,
    state_of_rating,
)
from ratings.selectors.search import player_search
from ratings.selectors.stats import ACTIVE_DAYS, YearNumbers, federation_by_year, most_active, top_players
from ratings.selectors.tournaments import tournament_for_page, tournament_page


@public_page
def search(request: HttpRequest) -> HttpResponse:
    """The search box's answer: straight to the player's page when exactly one player matches, else the list."""
    query = request.GET.get("q", "").strip()
    result = player_search(query)
    if result.only is not None:
        return redirect("ratings:player", result.only.federation_id)
    return render(request, "ratings/search.html", {"result": result, "search_query": query})


@public_page
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament with each of its public tables: final standings, performance, rating change, crosstable."""
    try:
        tournament = tournament_for_page(pk)
    except Tournament.DoesNotExist:
        raise Http404(_("No tournament with a public table has that number.")) from None
    context = {"page": tournament_page(tournament), "tournament": tournament, "section": "tournaments"}
    return render(request, "ratings/tournament_detail.html", context)


def _calculation(start: StartForm, games: Any) -> tuple[Calculation | None, list[str]]:
    """The engine's rating of the valid forms' plan, or None with the problems to show."""
    rows = [form for form in games if form.has_changed()]
    ids = [start.cleaned_data["player"], *(form.cleaned_data.get("opponent", "") for form in rows)]
    players = players_by_federation_id(ids)
    problems = [
        _("No player has the federation id %(id)s.") % {"id": i} for i in dict.fromkeys(ids) if i and i not in players
    ]
    player = players.get(start.cleaned_data["player"])
    planned = [game for form in rows if (game := form.planned(players)) is not None]
    if player is not None and any(g.opponent == player for g in planned):
        problems.append(_("A player cannot play against himself."))
    if not planned and not problems:
        problems.append(_("Give at least one opponent: a player's federation id or a rating."))
    if problems:
        return None, problems
    opponents = current_states([p for p in {g.opponent for g in planned} | {player} if p is not None])
    if player is not None:
        state = opponents[player.pk]
    else:
        state = state_of_rating(start.cleaned_data.get("rating") or 0, start.cleaned_data["games"])
    try:
        return calculate(start=state, games=planned, opponents=opponents), []
    except EngineError as exc:
        return None, [str(exc)]


@public_page
def calculator(request: HttpRequest) -> HttpResponse:
    """What a table of planned games would do to a rating, by the FESA rules: a form, and the engine's answer
    game by game. A link from a player's page (``?player=ID``) fills in the player."""
    bound = "form-TOTAL_FORMS" in request.GET
    start = StartForm(request.GET if bound else None, initial={"player": request.GET.get("player", "")})
    games = GameFormSet(request.GET if bound else None)
    context: dict[str, Any] = {
        "start": start,
        "games": games,
        "section": "calculator",
        "provisional_from": PROVISIONAL_FROM,
    }
    if bound and start.is_valid() and games.is_valid():
        context["calculation"], context["problems"] = _calculation(start, games)
    status = 400 if bound and (start.errors or any(games.errors) or context.get("problems")) else 200
    return render(request, "ratings/calculator.html", context, status=status)


def _year_charts(years: list[YearNumbers]) -> list[tuple[str, SafeString]]:
    oldest_first = years[::-1]
    titles = {
        "tables": _("Rated tables"),
        "games": _("Rated games"),
        "new_players": _("New players"),
        "promotions": _("Promotions"),
    }
    return [
        (title, bar_chart([(str(y.year), getattr(y, name)) for y in oldest_first], title=title, chart_id=name))
        for name, title in titles.items()
    ]


@public_page
def statistics(request: HttpRequest) -> HttpResponse:
    """Top players (overall, or of one country or grade), the most active players of the last twelve months,
    and the federation's numbers by year with their charts."""
    form = TopListForm(request.GET or None, countries=list_countries())
    if form.is_bound and not form.is_valid():
        country, grade = "", None
    else:
        country = form.cleaned_data.get("country", "") if form.is_bound else ""
        grade = int(form.cleaned_data["grade"]) if form.is_bound and form.cleaned_data.get("grade") else None
    years = federation_by_year(getattr(request, "data_version", None))
    context = {
        "form": form,
        "section": "statistics",
        "top": list(top_players(country=country, grade=grade)),
        "active": list(most_active()),
        "years": years,
        "charts": _year_charts(years),
        "active_days": ACTIVE_DAYS,
    }
    return render(request, "ratings/statistics.html", context, status=400 if form.errors else 200)
