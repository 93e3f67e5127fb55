"""Downloads of the FESA program's files: a table's result table and the rating list (all.txt, CSV, JSON).

Thin views over ratings/selectors/list_files.py (the stored rating list, ratings/services/lists.py) and
ratings/selectors/fesa_records.py.
Bad input never gives a 500: an unknown or unrated table is a 404, a malformed date or format a 400, a file
that cannot be written a 409; each is an HTML page saying why, with a way back, so that a download link never
fails silently.
"""

from __future__ import annotations

import datetime as dt

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ratings.fesa_files.errors import FesaFileError
from ratings.models import Table
from ratings.selectors import FORMATS, rating_list_file
from ratings.selectors.fesa_records import table_has_result, table_result_txt
from ratings.services.fesa.messages import error_text
from ratings.services.lists import list_stored
from ratings.web.caching import public_page

_EXTENSIONS = {"all.txt": "txt", "csv": "csv", "json": "json"}


def _download_failed(request: HttpRequest, reason: str, status: int, back_url: str, back_label: str) -> HttpResponse:
    """The page shown instead of a file: why it cannot be had, and where to go instead."""
    context = {"reason": reason, "back_url": back_url, "back_label": back_label}
    return render(request, "ratings/download_failed.html", context, status=status)


def _back_to_list(request: HttpRequest, reason: str, status: int) -> HttpResponse:
    return _download_failed(request, reason, status, reverse("ratings:rating_list"), _("Go to the rating list"))


@require_GET
@public_page
def table_result_txt_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's result table as FESA publishes it (text/plain, ISO-8859-1)."""
    table = get_object_or_404(Table.objects.select_related("tournament"), pk=pk)
    if not table_has_result(table):
        raise Http404(_("This table has not been rated yet."))
    try:
        data = table_result_txt(table)
    except FesaFileError as exc:
        back = reverse("ratings:table", args=[table.pk])
        return _download_failed(request, error_text(exc), 409, back, _("Back to the table"))
    response = HttpResponse(data, content_type="text/plain; charset=iso-8859-1")
    filename = f"result-{table.date.isoformat()}-{table.sequence}.txt"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_GET
@public_page
def rating_list_view(request: HttpRequest) -> HttpResponse:
    """The rating list of ``?date=`` (default today) as ``?format=all.txt|csv|json`` (default all.txt).

    The public grades are shown: Dan grades only once approved.
    """
    format = request.GET.get("format", "all.txt")
    if format not in FORMATS:
        return _back_to_list(request, _("Unknown format; use all.txt, csv or json."), 400)
    date = timezone.localdate()
    if request.GET.get("date"):
        try:
            date = dt.date.fromisoformat(request.GET["date"])
        except ValueError:
            return _back_to_list(request, _("The date must be YYYY-MM-DD."), 400)
    try:
        stored = list_stored(date, active=True, version=getattr(request, "data_version", None))
        data, content_type = rating_list_file(stored, format=format, grades="public")  # type: ignore[arg-type]
    except FesaFileError as exc:
        return _back_to_list(request, error_text(exc), 409)
    response = HttpResponse(data, content_type=content_type)
    name = "all" if format == "all.txt" else "rating-list"
    response["Content-Disposition"] = f'inline; filename="{name}-{date.isoformat()}.{_EXTENSIONS[format]}"'
    return response
