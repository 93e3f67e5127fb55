"""The rating calculator: what a table of planned games would do to a rating."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from ratings.engine import EngineError
from ratings.engine.categories import PROVISIONAL_FROM
from ratings.models import Player
from ratings.selectors.calculator import (
    Calculation,
    calculate,
    current_states,
    players_by_federation_id,
    state_of_rating,
)
from ratings.selectors.search import player_search
from ratings.web.caching import public_page
from ratings.web.forms import PlannedGameFormSet, StartForm

MAX_NAMESAKES = 5  # the players named to choose from when a name is not enough


def _players_named(texts: list[str]) -> tuple[dict[str, Player], list[str]]:
    """The player each text names, by federation id or else by name as the search finds him; a problem for a
    text that names nobody, or several players (then their ids, to choose from)."""
    players = players_by_federation_id(texts)
    problems = []
    for text in dict.fromkeys(t for t in texts if t and t not in players):
        found = player_search(text, limit=MAX_NAMESAKES)
        if found.only is not None:
            players[text] = found.only
        elif not found.players:
            problems.append(_("No player has the name or federation id “%(text)s”.") % {"text": text})
        else:
            choices = ", ".join(f"{p.family_name} {p.given_name} ({p.federation_id})" for p in found.players)
            problems.append(
                _("“%(text)s” names several players: give one's federation id (%(choices)s%(more)s).")
                % {"text": text, "choices": choices, "more": ", …" if found.more else ""}
            )
    return players, problems


def _calculation(start: StartForm, games: Any) -> tuple[Calculation | None, list[str]]:
    """The engine's rating of the valid forms' plan, or None with the problems to show."""
    rows = [form for form in games if form.has_changed()]
    ids = [start.cleaned_data["player"], *(form.cleaned_data.get("opponent", "") for form in rows)]
    players, problems = _players_named(ids)
    player = players.get(start.cleaned_data["player"])
    planned = [game for form in rows if (game := form.planned(players)) is not None]
    if player is not None and any(g.opponent == player for g in planned):
        problems.append(_("A player cannot play against himself."))
    if not planned and not problems:
        problems.append(_("Give at least one opponent: a player's name or federation id, or a rating."))
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
    games = PlannedGameFormSet(request.GET if bound else None)
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
