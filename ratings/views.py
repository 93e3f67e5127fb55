"""The public pages: thin views over ratings/selectors/, the filters and the tables.

Bad input never gives a 500: an unknown player, table or list date is a 404; a malformed filter value is a
400 that shows the filter form with its message; a page number out of range shows the nearest page.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
    StreamingHttpResponse,
)
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig, Table

from ratings import selectors
from ratings.charts import ChartPoint, rating_chart
from ratings.conditional import public_page
from ratings.engine.categories import ESTABLISHED_FROM
from ratings.filters import RatingListFilter, TournamentFilter, filtered_rating_list
from ratings.models import Player, TableStatus
from ratings.models import Table as RatedTable
from ratings.selectors.duplicates import merged_into_id_of
from ratings.selectors.official_lists import player_official_lists
from ratings.selectors.search import namesake_ids
from ratings.tables import PendingPromotionTable, RatingListTable, TournamentTable

PER_PAGE_CHOICES = (25, 50, 100, 200)
RESULT_TABLE_URL_NAMES = ("files:table_result_txt", "ratings:table_result_txt")
ALL_TXT_URL_NAMES = ("files:rating_list",)


def _int_param(request: HttpRequest, name: str, default: int, allowed: tuple[int, ...] | None = None) -> int:
    try:
        value = int(request.GET.get(name, default))
    except ValueError:
        return default
    if allowed is not None and value not in allowed:
        return default
    return value


def paginate_table(table: Table, request: HttpRequest, *, per_page: int) -> None:
    """Sort the table from the request (unknown columns are ignored) and show the requested page, or the
    first/last page for a page number that is not one."""
    RequestConfig(request, paginate=False).configure(table)
    page = _int_param(request, table.prefixed_page_field, 1)
    try:
        table.paginate(page=page, per_page=per_page)
    except (EmptyPage, PageNotAnInteger):
        table.page = table.paginator.page(1 if page < 1 else table.paginator.num_pages)


def _parse_list_date(text: str) -> dt.date:
    """An official list's date from the URL: a date of a rated table, in ISO form; anything else is a 404."""
    try:
        date = dt.date.fromisoformat(text)
    except ValueError:
        raise Http404(_("There is no list of that date.")) from None
    if len(text) != 10 or not selectors.is_list_date(date):
        raise Http404(_("There is no list of that date."))
    return date


def _rating_list_filter(request: HttpRequest, list_date: str | None) -> RatingListFilter:
    data = request.GET.copy()
    data.setdefault("active", "active")
    if list_date is not None:
        data["date"] = _parse_list_date(list_date).isoformat()
    return RatingListFilter(data, queryset=Player.objects.none())


def _filtered_list(request: HttpRequest, filterset: RatingListFilter) -> tuple[selectors.RatingList, bool]:
    """(the filtered list, active only) of a valid filterset, of the data version the validators read."""
    return filtered_rating_list(filterset.form.cleaned_data, getattr(request, "data_version", None))


@public_page
def rating_list(request: HttpRequest, list_date: str | None = None) -> HttpResponse:
    """The front page: the FESA rating list of today, or of the date asked for, filtered and sorted. Every row
    shows its rank on the whole list and in its country, whatever the filters and the sorting."""
    filterset = _rating_list_filter(request, list_date)
    context: dict[str, Any] = {
        "filter": filterset,
        "list_dates": selectors.list_dates(),
        "today": timezone.localdate(),
        "export_query": request.GET.urlencode(),
        "section": "list",
        "countries": selectors.list_countries(),
        "established_from": ESTABLISHED_FROM,
        # The less used filters fold away (a <details>) unless one is in use or wrong.
        "more_filters": any(request.GET.get(k) for k in ("grade_min", "grade_max", "category", "date"))
        or request.GET.get("active", "active") != "active"
        or list_date is not None,
    }
    if not filterset.form.is_valid():
        context["more_filters"] = True
        return render(request, "ratings/rating_list.html", context, status=400)
    filtered, active = _filtered_list(request, filterset)
    date = None if filtered.date == timezone.localdate() else filtered.date
    table = RatingListTable(filtered)
    per_page = _int_param(request, "per_page", 50, PER_PAGE_CHOICES)
    paginate_table(table, request, per_page=per_page)
    export = request.GET.copy()
    for name in ("page", "sort", "per_page"):
        export.pop(name, None)
    if list_date is not None:
        export["date"] = list_date
    all_txt = _optional_url(ALL_TXT_URL_NAMES)
    if all_txt is not None:
        all_txt += "?" + urlencode({"format": "all.txt", "date": filtered.date.isoformat()})
    context.update(table=table, list_date=date, active=active, export_query=export.urlencode(), all_txt_url=all_txt)
    return render(request, "ratings/rating_list.html", context)


@public_page
def rating_list_export(request: HttpRequest, fmt: str) -> HttpResponse:
    """The filtered rating list, every row, as CSV or JSON (ratings/selectors/list_files.py: the columns of
    every file of the list); malformed filters give a 400 with the messages."""
    filterset = _rating_list_filter(request, None)
    if not filterset.form.is_valid():
        errors = {name: [str(e) for e in errs] for name, errs in filterset.form.errors.items()}
        return JsonResponse({"errors": errors}, status=400)
    filtered, active = _filtered_list(request, filterset)
    filename = f"fesa-rating-list-{filtered.date.isoformat()}.{fmt}"
    if fmt == "json":
        response: HttpResponse = HttpResponse(
            selectors.json_document(filtered, active=active), content_type="application/json; charset=utf-8"
        )
    else:
        response = StreamingHttpResponse(selectors.csv_lines(filtered), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _player_or_404(federation_id: str) -> Player:
    try:
        return selectors.player_for_page(federation_id)
    except Player.DoesNotExist:
        raise Http404(_("No player has that federation id.")) from None


@public_page
def player_detail(request: HttpRequest, federation_id: str) -> HttpResponse:
    """A player's standing, his rating over time, his tables (newest first) with each game explained, and
    his grade history. A record merged into another redirects there for good."""
    try:
        player = selectors.player_for_page(federation_id)
    except Player.DoesNotExist:
        kept = merged_into_id_of(federation_id)  # asked only when no shown player has the id
        if not kept:
            raise Http404(_("No player has that federation id.")) from None
        return HttpResponsePermanentRedirect(reverse("ratings:player", args=[kept]))
    history = selectors.player_history(player)
    historical = selectors.player_historical_rows(player)
    points = [
        ChartPoint(date=h.date, rating=h.rating_after, label=str(h.table), href=f"#table-{h.table_id}", imported=True)
        for h in historical
    ] + [
        ChartPoint(date=e.row.date, rating=e.row.rating_after, label=str(e.row.table), href=f"#table-{e.row.table_id}")
        for e in history
    ]
    context = {
        "player": player,
        "history": history[::-1],
        "historical": historical[::-1],
        "grade_steps": selectors.player_grade_history(player),
        "chart": rating_chart(points),
        "games_before_records": selectors.games_before_records(player),
        "official_lists": player_official_lists(player),
    }
    return render(request, "ratings/player_detail.html", context)


@public_page
def player_table(request: HttpRequest, federation_id: str, table_id: int) -> HttpResponse:
    """How one table moved one player, game by game."""
    player = _player_or_404(federation_id)
    entry = selectors.player_table_entry(player, table_id)
    if entry is None:
        raise Http404(_("The player has no rated game in that table."))
    return render(request, "ratings/player_table.html", {"player": player, "entry": entry})


def _optional_url(names: tuple[str, ...], *args: Any) -> str | None:
    """The URL of the first of ``names`` the site has, or None: the FESA file downloads live in their own
    URLconf (ratings/urls_files.py), and these pages link to them only where it is there."""
    for name in names:
        try:
            return reverse(name, args=args)
        except NoReverseMatch:
            continue
    return None


@public_page
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A submitted or rated table: its crosstable, its promotions, its status and dates."""
    try:
        table = selectors.table_for_page(pk)
    except RatedTable.DoesNotExist:
        raise Http404(_("No public table has that number.")) from None
    result_txt = _optional_url(RESULT_TABLE_URL_NAMES, table.pk) if table.status == TableStatus.RATED else None
    crosstable = selectors.table_crosstable(table)
    context = {
        "crosstable": crosstable,
        "table": table,
        "result_txt_url": result_txt,
        "namesakes": namesake_ids([row.player for row in crosstable.rows]),
    }
    return render(request, "ratings/table_detail.html", context)


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
def promotion_list(request: HttpRequest) -> HttpResponse:
    """Recent promotions, table by table (as FESA prints them under each result table), and the Dan
    promotions waiting for approval."""
    paginator = Paginator(selectors.promotion_tables(), 10)
    page = paginator.get_page(request.GET.get("page"))
    lines = selectors.table_promotions([t.pk for t in page.object_list])
    recent = [(t, lines.get(t.pk, [])) for t in page.object_list]
    namesakes = namesake_ids([line.player for table_lines in lines.values() for line in table_lines])
    pending = PendingPromotionTable(selectors.pending_promotions(), prefix="pending-")
    paginate_table(pending, request, per_page=25)
    context = {"page": page, "recent": recent, "pending": pending, "section": "promotions", "namesakes": namesakes}
    return render(request, "ratings/promotion_list.html", context)
