"""The official lists' public pages: the archive, a published list as published (with its files), and what the
list would be today after later corrections. Thin views over ratings/selectors/official_lists.py.

An unknown list date is a 404; a malformed filter value a 400 showing the form with its message.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from ratings.models import OfficialList
from ratings.selectors import csv_lines
from ratings.selectors.clubs import clubs_on
from ratings.selectors.list_pdf import official_list_pdf
from ratings.selectors.lists import RowList
from ratings.selectors.official_lists import (
    list_countries_of,
    official_list_all_txt,
    official_list_filter,
    official_list_for_page,
    official_list_json,
    official_list_revision,
    official_list_rows,
    official_lists,
    revised_filter,
)
from ratings.web.caching import public_page
from ratings.web.forms import OfficialListForm, RevisedListForm
from ratings.web.tables import RatingListTable
from ratings.web.views.paging import PER_PAGE_CHOICES, int_param, paginate_table

ARCHIVE_PER_PAGE = 50
REVISED_PER_PAGE = 100


def _filtered(rows: RowList, form: OfficialListForm) -> RowList:
    """The published rows a valid form's filters keep."""
    data = form.cleaned_data
    return official_list_filter(rows, q=data["q"], country=data["country"], club=data["club"], group=data["group"])


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
    rows = official_list_rows(official, getattr(request, "data_version", None))
    form = OfficialListForm(request.GET, version=getattr(request, "data_version", None))
    context: dict[str, Any] = {
        "official": official,
        "form": form,
        "countries": list_countries_of(rows),
        "export_query": _export_query(request),
        "section": "official",
    }
    if not form.is_valid():
        return render(request, "ratings/official_list.html", context, status=400)
    table = RatingListTable(_filtered(rows, form))
    paginate_table(table, request, per_page=int_param(request, "per_page", 50, PER_PAGE_CHOICES))
    table.clubs = clubs_on([row.record.pk for row in table.paginated_rows], official.date)
    context["table"] = table
    return render(request, "ratings/official_list.html", context)


@public_page
def official_list_file(request: HttpRequest, list_date: str, fmt: str) -> HttpResponse:
    """The published list's files: all.txt byte for byte as published (ISO-8859-1), CSV and JSON from the
    published entries with the page's filters (malformed ones: a 400 with the messages), and the PDF to print (a
    hundred players a page). all.txt and the PDF are the whole list, as published."""
    official = _official_or_404(list_date)
    filename = f"fesa-official-list-{official.date.isoformat()}"
    if fmt == "pdf":
        response = HttpResponse(official_list_pdf(official), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{filename}.pdf"'
        return response
    if fmt == "all.txt":
        response: HttpResponse = HttpResponse(
            official_list_all_txt(official), content_type="text/plain; charset=iso-8859-1"
        )
        response["Content-Disposition"] = f'inline; filename="all-{official.date.isoformat()}.txt"'
        return response
    version = getattr(request, "data_version", None)
    form = OfficialListForm(request.GET, version=version)
    if not form.is_valid():
        errors = {name: [str(e) for e in errs] for name, errs in form.errors.items()}
        return JsonResponse({"errors": errors}, status=400)
    rows = _filtered(official_list_rows(official, version), form)
    if fmt == "json":
        response = HttpResponse(official_list_json(official, rows), content_type="application/json; charset=utf-8")
    else:
        response = StreamingHttpResponse(csv_lines(rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response


@public_page
def official_list_revised(request: HttpRequest, list_date: str) -> HttpResponse:
    """The published list beside the list of its date as the history gives it today, the differences marked."""
    official = _official_or_404(list_date)
    form = RevisedListForm(request.GET, version=getattr(request, "data_version", None))
    revision = official_list_revision(official, getattr(request, "data_version", None))
    context: dict[str, Any] = {
        "official": official,
        "form": form,
        "revision": revision,
        "countries": list_countries_of(r.row for r in revision.rows),
        "section": "official",
    }
    if not form.is_valid():
        return render(request, "ratings/official_list_revised.html", context, status=400)
    data = form.cleaned_data
    rows = revised_filter(
        revision,
        q=data["q"],
        country=data["country"],
        club=data["club"],
        group=data["group"],
        changed_only=data["changed"],
    )
    context.update(page=Paginator(rows, REVISED_PER_PAGE).get_page(request.GET.get("page")))
    return render(request, "ratings/official_list_revised.html", context)
