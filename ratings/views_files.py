"""Downloads of the FESA program's files: a table's result table and the rating list (all.txt, CSV, JSON).

Thin views over ratings/services/fesa_export.py. Bad input never gives a 500: an unknown or unrated table
is a 404, a malformed date or format a 400.
"""

from __future__ import annotations

import datetime as dt

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ratings.fesa_files.errors import FesaFileError
from ratings.models import Table
from ratings.services.fesa_export import FORMATS, rating_list_file, table_has_result, table_result_txt

_EXTENSIONS = {"all.txt": "txt", "csv": "csv", "json": "json"}


@require_GET
def table_result_txt_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's result table as FESA publishes it (text/plain, ISO-8859-1)."""
    table = get_object_or_404(Table.objects.select_related("tournament"), pk=pk)
    if not table_has_result(table):
        raise Http404(_("This table has not been rated yet."))
    try:
        data = table_result_txt(table)
    except FesaFileError as exc:  # a name ISO-8859-1 cannot hold
        return HttpResponse(str(exc), status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(data, content_type="text/plain; charset=iso-8859-1")
    filename = f"result-{table.date.isoformat()}-{table.sequence}.txt"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_GET
def rating_list_view(request: HttpRequest) -> HttpResponse:
    """The rating list of ``?date=`` (default today) as ``?format=all.txt|csv|json`` (default all.txt).

    The public grades are shown: Dan grades only once approved.
    """
    format = request.GET.get("format", "all.txt")
    if format not in FORMATS:
        return HttpResponseBadRequest(_("Unknown format; use all.txt, csv or json."))
    date = timezone.localdate()
    if request.GET.get("date"):
        try:
            date = dt.date.fromisoformat(request.GET["date"])
        except ValueError:
            return HttpResponseBadRequest(_("The date must be YYYY-MM-DD."))
    try:
        data, content_type = rating_list_file(date=date, format=format, grades="public")  # type: ignore[arg-type]
    except FesaFileError as exc:
        return HttpResponse(str(exc), status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(data, content_type=content_type)
    name = "all" if format == "all.txt" else "rating-list"
    response["Content-Disposition"] = f'inline; filename="{name}-{date.isoformat()}.{_EXTENSIONS[format]}"'
    return response
