"""The official lists' public pages: the archive, a published list as published (with its files), and what the
list would be today after later corrections. Thin views over ratings/selectors/official_lists.py.

An unknown list date is a 404; a malformed filter value a 400 showing the form with its message.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from ratings.models import ListEntry, OfficialList
from ratings.selectors import csv_lines, list_entries
from ratings.selectors.list_pdf import NO_RANK, official_list_pdf
from ratings.selectors.official_lists import (
    list_countries_of,
    official_list_all_txt,
    official_list_entries,
    official_list_for_page,
    official_list_json,
    official_list_revision,
    official_lists,
    revised_filter,
)
from ratings.services.lists import list_stored
from ratings.web.caching import public_page
from ratings.web.forms import OfficialListFilter, RevisedListFilter
from ratings.web.tables import RatingListTable
from ratings.web.views.paging import PER_PAGE_CHOICES, int_param, paginate_table

ARCHIVE_PER_PAGE = 50
REVISED_PER_PAGE = 100


def _filter(
    request: HttpRequest,
    official: OfficialList,
    entries: QuerySet[ListEntry] | None = None,
    kind: type[OfficialListFilter] = OfficialListFilter,
) -> OfficialListFilter:
    """The page's filters of ``entries`` (by default the published list's), the club and the category read on the
    list's date."""
    return kind(
        request.GET,
        queryset=official_list_entries(official) if entries is None else entries,
        version=getattr(request, "data_version", None),
        list_date=official.date,
    )


def _export_query(request: HttpRequest) -> str:
    """The page's filters for its files' links: the query without the page's paging and sorting."""
    query = request.GET.copy()
    for name in ("page", "sort", "per_page"):
        query.pop(name, None)
    return query.urlencode()


def _official_or_404(list_date: str) -> OfficialList:
    try:
        return official_list_for_page(list_date)
    except OfficialList.DoesNotExist:
        raise Http404(_("No official list was published for that date.")) from None


@public_page
def official_list_archive(request: HttpRequest) -> HttpResponse:
    """Every official list, the latest first."""
    page = Paginator(official_lists(), ARCHIVE_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/official_lists.html", {"page": page, "section": "official"})


@public_page
def official_list(request: HttpRequest, list_date: str) -> HttpResponse:
    """A published list with its figures as published, filtered, sorted and paged as the rating list."""
    official = _official_or_404(list_date)
    filterset = _filter(request, official)
    context: dict[str, Any] = {
        "official": official,
        "form": filterset.form,
        "countries": list_countries_of(official_list_entries(official)),
        "export_query": _export_query(request),
        "section": "official",
    }
    if not filterset.is_valid():
        return render(request, "ratings/official_list.html", context, status=400)
    table = RatingListTable(filterset.qs)
    table.label = _("Official list of %(date)s") % {"date": official.date.isoformat()}
    paginate_table(table, request, per_page=int_param(request, "per_page", 50, PER_PAGE_CHOICES))
    table.clubs_show(official.date)
    context["table"] = table
    # A published list keeps the unranked players at their places, as its all.txt does: say what "–" means.
    context["no_rank"] = NO_RANK if any(row.record.rank is None for row in table.paginated_rows) else ""
    return render(request, "ratings/official_list.html", context)


@public_page
def official_list_file(request: HttpRequest, list_date: str, fmt: str) -> HttpResponse | StreamingHttpResponse:
    """The published list's files: all.txt byte for byte as published (ISO-8859-1), CSV and JSON from the
    published entries with the page's filters (malformed ones: a 400 with the messages), and the PDF to print (a
    hundred players a page). all.txt and the PDF are the whole list, as published."""
    official = _official_or_404(list_date)
    filename = f"fesa-official-list-{official.date.isoformat()}"
    response: HttpResponse | StreamingHttpResponse
    if fmt == "pdf":
        response = HttpResponse(official_list_pdf(official), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{filename}.pdf"'
        return response
    if fmt == "all.txt":
        response = HttpResponse(official_list_all_txt(official), content_type="text/plain; charset=iso-8859-1")
        response["Content-Disposition"] = f'inline; filename="all-{official.date.isoformat()}.txt"'
        return response
    filterset = _filter(request, official)
    if not filterset.is_valid():
        errors = {name: [str(e) for e in errs] for name, errs in filterset.form.errors.items()}
        return JsonResponse({"errors": errors}, status=400)
    entries = filterset.qs
    if fmt == "json":
        response = HttpResponse(official_list_json(official, entries), content_type="application/json; charset=utf-8")
    else:
        response = StreamingHttpResponse(csv_lines(entries), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response


@public_page
def official_list_revised(request: HttpRequest, list_date: str) -> HttpResponse:
    """The published list beside the list of its date as the history gives it today, the differences marked."""
    official = _official_or_404(list_date)
    version = getattr(request, "data_version", None)
    today = list_entries(list_stored(official.date, active=True, version=version))
    revision = official_list_revision(official, today)
    published = _filter(request, official, kind=RevisedListFilter)
    context: dict[str, Any] = {
        "official": official,
        "form": published.form,
        "revision": revision,
        "countries": revision.countries,
        "section": "official",
    }
    if not published.is_valid():
        return render(request, "ratings/official_list_revised.html", context, status=400)
    kept: set[int] | None = None
    if any(published.form.cleaned_data.get(name) not in (None, "") for name in published.filters):
        # The filters read on both lists, and a row kept by the entry that names its player (today's, or a
        # dropped player's published one).
        now = _filter(request, official, today, kind=RevisedListFilter)
        kept = {*published.qs.values_list("pk", flat=True), *now.qs.values_list("pk", flat=True)}
    rows = revised_filter(revision, kept=kept, changed_only=published.form.cleaned_data["changed"])
    context.update(page=Paginator(rows, REVISED_PER_PAGE).get_page(request.GET.get("page")))
    return render(request, "ratings/official_list_revised.html", context)
