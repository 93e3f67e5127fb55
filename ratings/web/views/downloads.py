"""The downloads page and the rating history files it lists (ratings/services/history_files.py).

The files are served from the storage of derived files (``DOWNLOADS_DIR`` or a bucket) under stable URLs; a name
that is not one of them is a 404.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET

from ratings.services.history_files import (
    CSV_COLUMNS,
    HISTORY_FILES,
    history_file_info,
    history_file_open,
    history_files_info,
)

RATING_LIST_FORMATS = ("csv", "json", "all.txt")


def _modified(request: HttpRequest, name: str) -> dt.datetime | None:
    info = history_file_info(name)
    return None if info is None else info.modified


@require_GET
@condition(last_modified_func=_modified)
def history_file(request: HttpRequest, name: str) -> FileResponse:
    """A rating history file, as an attachment (If-Modified-Since answers 304 when it was not rewritten)."""
    if name not in HISTORY_FILES:
        raise Http404(_("There is no such download."))
    try:
        handle = history_file_open(name)
    except FileNotFoundError:
        raise Http404(_("This file has not been written yet: it is after the next re-rate.")) from None
    return FileResponse(handle, as_attachment=True, filename=name, content_type="application/gzip")


@require_GET
def downloads(request: HttpRequest) -> HttpResponse:
    """What can be downloaded: the rating list in the FESA formats, the whole rating history, the API, feeds."""
    context = {
        "history_files": history_files_info(),
        "rating_list_formats": RATING_LIST_FORMATS,
        "today": timezone.localdate(),
        "csv_columns": CSV_COLUMNS,
        "section": "downloads",
        "licence_name": settings.DATA_LICENCE_NAME,
        "licence_url": settings.DATA_LICENCE_URL,
    }
    return render(request, "ratings/downloads.html", context)
