""" "Something wrong?" on a player's page and a table's page: the form, its answer, and the confirmation link's
page (ratings/services/reports.py). Never in the page cache (a CSRF token, a personal link); the address is
never shown."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from ratings.models import Game, MistakeReport, Player, Table
from ratings.selectors.lists import PUBLIC_TABLE_STATUSES
from ratings.services.reports import report_confirm, report_confirmed, report_request, report_token_id
from ratings.web.forms import ReportForm
from ratings.web.throttling import ReportThrottle
from ratings.web.views.players import player_or_404


def _game_label(game: Game) -> str:
    return _("Round %(round)d: %(first)s – %(second)s") % {
        "round": game.round,
        "first": game.first,
        "second": game.second or "—",
    }


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def report(request: HttpRequest, federation_id: str = "", pk: int | None = None) -> HttpResponse:
    """The form, about a player (his tables to choose from; ``?table=`` one of them), a table (its games), or
    a player in a table (his games in it)."""
    player = None
    if federation_id:
        player = player_or_404(federation_id)
    wanted = pk if pk is not None else request.GET.get("table", "")
    table = None
    if str(wanted).isdigit():
        table = (
            Table.objects.filter(pk=int(wanted), status__in=PUBLIC_TABLE_STATUSES).select_related("tournament").first()
        )
        if table is None:
            raise Http404(_("No public table has that number."))
    tables: list[tuple[int, str]] = []
    if player is not None and table is None:
        rows = player.rating_rows.select_related("table__tournament").order_by("-date", "-sequence")
        tables = [(row.table_id, f"{row.date:%Y-%m-%d} {row.table.label}") for row in rows]  # the date once
    games: list[tuple[int, str]] = []
    if table is not None:
        query = Game.objects.filter(table=table).select_related("first", "second").order_by("round", "pk")
        if player is not None:
            query = query.filter(Q(first=player) | Q(second=player))
        games = [(g.pk, _game_label(g)) for g in query]
    form = ReportForm(
        request.POST or None,
        tables=tables,
        games=games,
        initial={"language": translation.get_language() or settings.LANGUAGE_CODE},
    )
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            status = 400
        elif not ReportThrottle().allow_request(request, None):
            form.add_error(None, _("Too many requests from your address: try again later."))
            status = 429
        else:
            data = form.cleaned_data
            chosen = table or (Table.objects.filter(pk=data["table"]).first() if data.get("table") else None)
            game = Game.objects.filter(pk=data["game"]).first() if data.get("game") else None
            try:
                report_request(
                    player=player,
                    table=chosen,
                    game=game,
                    what=data["what"],
                    email=data["email"],
                    language=data["language"],
                )
            except ValidationError as error:
                form.add_error(None, error)
                status = 400
            else:
                back = (
                    {"player": player.federation_id} if player is not None else {"table": chosen.pk if chosen else ""}
                )
                return redirect(f"{reverse('ratings:report_sent')}?{urlencode(back)}")
    context = {"player": player, "table": table, "form": form}
    return render(request, "ratings/report.html", context, status=status)


@never_cache
def report_sent(request: HttpRequest) -> HttpResponse:
    """The answer to a sent form, with the way back to the page it was sent from."""
    federation_id, table_id = request.GET.get("player", ""), request.GET.get("table", "")
    player = Player.objects.filter(federation_id=federation_id).first() if federation_id else None
    table = Table.objects.filter(pk=int(table_id)).first() if player is None and table_id.isdigit() else None
    return render(request, "ratings/report_sent.html", _way_back(player, table))


def _way_back(player: Player | None, table: Table | None) -> dict[str, object]:
    """The page a report is about, to lead back to: the player's, else the table's if it is public."""
    public = table is not None and table.status in PUBLIC_TABLE_STATUSES
    return {"player": player, "table": table if player is None and public else None}


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def report_confirm_view(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a button (a mail program that follows links must not confirm for the person); POST confirms."""
    report_id = report_token_id(token)
    if report_id is None:
        return render(request, "ratings/report_confirm.html", {"state": "invalid"}, status=400)
    # What the link confirms, in the reporter's own words, and the page it is about.
    sent = MistakeReport.objects.filter(pk=report_id).select_related("player", "table__tournament").first()
    context = {"report": sent, **(_way_back(sent.player, sent.table) if sent else {})}
    if request.method != "POST":
        # A link opened again once confirmed says so, rather than asking as if nothing had been sent.
        state = "done" if report_confirmed(report_id) else "ask"
        return render(request, "ratings/report_confirm.html", {"state": state, **context})
    if report_confirm(token=token) is None:
        return render(request, "ratings/report_confirm.html", {"state": "invalid"}, status=400)
    return render(request, "ratings/report_confirm.html", {"state": "done", **context})
