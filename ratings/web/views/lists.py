"""The front page: the rating list of today or of a past date, and its exports."""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import urlencode

from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings import selectors
from ratings.engine.categories import ESTABLISHED_FROM, PROVISIONAL_FROM
from ratings.models import ListEntry, StoredList
from ratings.selectors.list_spreadsheets import ODS_CONTENT_TYPE, XLSX_CONTENT_TYPE, ods_bytes, xlsx_bytes
from ratings.services.lists import list_stored
from ratings.web.caching import public_page
from ratings.web.filters import RatingListFilter
from ratings.web.tables import RatingListTable
from ratings.web.views.paging import PER_PAGE_CHOICES, int_param, paginate_table


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
    return RatingListFilter(data, version=getattr(request, "data_version", None))


def _entries(request: HttpRequest, filterset: RatingListFilter) -> tuple[StoredList, QuerySet[ListEntry]]:
    """(the stored list a valid filterset names, its entries the filters keep), of the data version the
    validators read."""
    key = filterset.list_key()
    stored = list_stored(key.date, active=key.active, version=getattr(request, "data_version", None))
    return stored, filterset.entries(stored)


@public_page
def rating_list(request: HttpRequest, list_date: str | None = None) -> HttpResponse:
    """The front page: the FESA rating list of today, or of the date asked for, filtered and sorted. Every row
    shows its rank on the whole list and in its country, whatever the filters and the sorting; players without
    a rank (rated by performance) are shown when the category filter asks for them."""
    filterset = _rating_list_filter(request, list_date)
    version = getattr(request, "data_version", None)
    context: dict[str, Any] = {
        "filter": filterset,
        "list_dates": selectors.list_dates(version=version),
        "today": timezone.localdate(),
        "export_query": request.GET.urlencode(),
        "section": "list",
        "countries": selectors.list_countries(version),
        "established_from": ESTABLISHED_FROM,
        "provisional_from": PROVISIONAL_FROM,
        # The less used filters fold away (a <details>) unless one is in use or wrong.
        "more_filters": any(request.GET.get(k) for k in ("grade_min", "grade_max", "category", "group", "date"))
        or request.GET.get("active", "active") != "active"
        or list_date is not None,
    }
    if not filterset.form.is_valid():
        context["more_filters"] = True
        return render(request, "ratings/rating_list.html", context, status=400)
    stored, entries = _entries(request, filterset)
    ranked = None
    if not filterset.form.cleaned_data.get("category"):
        # Players still rated by performance have no rank (docs/rules.md §8): they stand behind the category
        # filter, so that the list read from the top is the ranked list. The whole list's counts are the stored
        # list's own; a filtered list's are counted once, and the pages are the ranked lines.
        counts = (
            entries.aggregate(players=Count("pk"), ranked=Count("rank"))
            if filterset.narrows()
            else {"players": stored.player_count, "ranked": stored.ranked_count}
        )
        context["unranked"] = counts["players"] - counts["ranked"]
        ranked = counts["ranked"]
        entries = entries.filter(rank__isnull=False)
    # Each line holds its player's club on the list's date (ratings/services/lists.py), read for the page's lines
    # alone: joined, the planner may walk the clubs for each line of the whole list.
    table = RatingListTable(entries.prefetch_related("club"))
    paginate_table(table, request, per_page=int_param(request, "per_page", 50, PER_PAGE_CHOICES), count=ranked)
    export = request.GET.copy()
    for name in ("page", "sort", "per_page"):
        export.pop(name, None)
    if list_date is not None:
        export["date"] = list_date
    all_txt = reverse("files:rating_list") + "?" + urlencode({"format": "all.txt", "date": stored.date.isoformat()})
    context.update(
        table=table,
        list_date=None if stored.date == timezone.localdate() else stored.date,
        active=stored.active,
        export_query=export.urlencode(),
        all_txt_url=all_txt,
    )
    return render(request, "ratings/rating_list.html", context)


@public_page
def rating_list_export(request: HttpRequest, fmt: str) -> HttpResponse | StreamingHttpResponse:
    """The filtered rating list, every row, as CSV, JSON, an Excel workbook, or the CSV that Excel opens in French
    or German (ratings/selectors/list_files.py: the columns of every file of the list); malformed filters give a
    400 with the messages."""
    filterset = _rating_list_filter(request, None)
    if not filterset.form.is_valid():
        errors = {name: [str(e) for e in errs] for name, errs in filterset.form.errors.items()}
        return JsonResponse({"errors": errors}, status=400)
    stored, filtered = _entries(request, filterset)
    name = f"fesa-rating-list-{stored.date.isoformat()}"
    response: HttpResponse | StreamingHttpResponse
    if fmt == "json":
        body = selectors.json_document(filtered, stored)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
    elif fmt == "xlsx":
        response = HttpResponse(xlsx_bytes(filtered, date=stored.date), content_type=XLSX_CONTENT_TYPE)
    elif fmt == "ods":
        response = HttpResponse(ods_bytes(filtered, date=stored.date), content_type=ODS_CONTENT_TYPE)
    elif fmt == "excel.csv":
        lines = selectors.csv_lines(filtered, for_excel=True, date=stored.date)
        response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    else:
        response = StreamingHttpResponse(
            selectors.csv_lines(filtered, date=stored.date), content_type="text/csv; charset=utf-8"
        )
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
