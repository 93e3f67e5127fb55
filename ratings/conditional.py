"""HTTP caching of the public pages: ``ETag``, ``Last-Modified``, ``Cache-Control`` and conditional GET (304).

A public page changes only when the public data does (a re-rate, a grade decision, an edit: the data version of
ratings/selectors/versions.py), when the day changes (today's list drops the players inactive since
yesterday), or with who asks (the language, a signed-in user's menu). The ETag is made of those; it is known
after one small query, so a client that has the page gets its 304 without the page being made, and an
anonymous visitor gets the page another one had made for the same validators (ratings/page_cache.py).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date, quote_etag

from ratings.page_cache import page_key, through_cache
from ratings.selectors import data_version

MAX_AGE = 60  # seconds a browser may show a page without asking again


def _validators(request: HttpRequest) -> tuple[str, dt.datetime]:
    version = data_version()
    request.data_version = version  # type: ignore[attr-defined]  # the view reads the list of this version
    today = timezone.localdate()
    user = getattr(request, "user", None)
    viewer = f"{user.pk}" if user is not None and user.is_authenticated else "-"
    parts = f"{version.key}|{today.isoformat()}|{translation.get_language()}|{viewer}"
    etag = quote_etag(hashlib.sha1(parts.encode(), usedforsecurity=False).hexdigest()[:20])
    midnight = timezone.make_aware(dt.datetime.combine(today, dt.time.min))
    return etag, max(version.modified, midnight)


def page_cache_key(request: HttpRequest) -> str | None:
    """The page cache's key of ``request`` (ratings/page_cache.py), for views that are not ``public_page``s
    (the API): the same validators, so the same data version, day and language."""
    return page_key(request, _validators(request)[0])


def public_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Give the view's 200 answers their validators and a short max-age, and answer a GET whose validators
    match with 304 Not Modified, before the view runs; serve anonymous visitors from the page cache."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        etag, modified = _validators(request)
        last_modified = int(modified.timestamp())
        if request.method in ("GET", "HEAD"):
            answer = get_conditional_response(request, etag=etag, last_modified=last_modified)
            if answer is not None:
                patch_cache_control(answer, max_age=MAX_AGE)
                return answer

        def make() -> HttpResponse:
            response = view(request, *args, **kwargs)
            if response.status_code == 200:
                response["ETag"] = etag
                response["Last-Modified"] = http_date(last_modified)
                patch_cache_control(response, max_age=MAX_AGE)
            return response

        return through_cache(page_key(request, etag), request, make)

    return wrapped
