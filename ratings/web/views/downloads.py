"""The downloads page and the rating history files it lists (ratings/services/history_files.py).

The files are served from the storage of derived files (``DOWNLOADS_DIR`` or a bucket) under stable URLs; a name
that is not one of them is a 404. A store that does not answer (a bucket that cannot be reached) is logged as an
ERROR: the page says the files cannot be reached just now, and a file's URL answers 503.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET

from ratings.services.history_files import (
    CSV_COLUMNS,
    HISTORY_FILES,
    DerivedFilesUnavailable,
    history_file_info,
    history_file_open,
    history_files_info,
)

RATING_LIST_FORMATS = ("csv", "json", "all.txt")
RETRY_AFTER_SECONDS = 60

log = logging.getLogger(__name__)


def _modified(request: HttpRequest, name: str) -> dt.datetime | None:
    try:
        info = history_file_info(name)
    except DerivedFilesUnavailable:
        return None  # the view answers, and logs it
    return None if info is None else info.modified


def _unavailable() -> HttpResponse:
    log.error("the rating history downloads cannot be read from the storage of derived files", exc_info=True)
    response = HttpResponse(
        _("The file cannot be reached just now; try again in a few minutes."),
        status=503,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


@require_GET
@condition(last_modified_func=_modified)
def history_file(request: HttpRequest, name: str) -> HttpResponseBase:
    """A rating history file, as an attachment (If-Modified-Since answers 304 when it was not rewritten)."""
    if name not in HISTORY_FILES:
        raise Http404(_("There is no such download."))
    try:
        handle = history_file_open(name)
    except FileNotFoundError:
        raise Http404(_("This file has not been written yet: it is after the next re-rate.")) from None
    except DerivedFilesUnavailable:
        return _unavailable()
    return FileResponse(handle, as_attachment=True, filename=name, content_type="application/gzip")


@require_GET
def downloads(request: HttpRequest) -> HttpResponse:
    """What can be downloaded: the rating list in the FESA formats, the whole rating history, the API, feeds."""
    try:
        history_files, history_unavailable = history_files_info(), False
    except DerivedFilesUnavailable:
        log.error("the rating history downloads cannot be read from the storage of derived files", exc_info=True)
        history_files, history_unavailable = [], True
    context = {
        "history_files": history_files,
        "history_unavailable": history_unavailable,
        "rating_list_formats": RATING_LIST_FORMATS,
        "today": timezone.localdate(),
        "csv_columns": CSV_COLUMNS,
        "section": "downloads",
        "licence_name": settings.DATA_LICENCE_NAME,
        "licence_url": settings.DATA_LICENCE_URL,
    }
    return render(request, "ratings/downloads.html", context)
