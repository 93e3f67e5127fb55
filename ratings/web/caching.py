"""A server-side cache of the public pages as anonymous visitors get them (Django's cache framework).

Eight visitors asking for the front page at once should not make it eight times. A page is kept under a key made
of everything it depends on: its validators (ratings/web/caching.py: the data version, the day and the
language, for an anonymous visitor) and the URL it answers (scheme, host, path and query, the query's
parameters sorted). A re-rate, a grade decision, a correction or any audited edit changes the data version, so
the next request asks for another key and the page is made afresh: nothing is ever invalidated by hand, and
stale entries simply age out (``TIMEOUT`` of the ``pages`` cache, or the local cache's size bound).

Only anonymous GET and HEAD requests are served from it or stored: a signed-in officer is always given a page made
for him. Pages that set a cookie, ask for a CSRF token or vary on a header are never stored, nor answers other than
200 and redirects, nor bodies that stay large once compressed (whole-list downloads): a cache is bounded by entries
(local memory) or bytes (Redis's maxmemory), and a few of them would crowd out the pages. A streamed download (the
list's CSV) is read whole to be kept, and sent from what was read. The site uses no CSP nonces
(federation/settings.py), so a stored page holds nothing that belongs to one response. A cache that fails (Redis
down) is logged and the page made as if it missed.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import zlib
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.utils import timezone, translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date, quote_etag

from ratings.selectors import data_version
from ratings.selectors.versions import CACHE, CACHE_OUTAGE

PAGE_CACHE = CACHE  # the site's one shared cache (settings.CACHES), where the data built per version is kept too
STORED_STATUSES = frozenset({200, 301, 302})
COMPRESS_FROM = 16 * 1024  # bodies from this size are kept compressed (zlib, fast level): a page is ~8x smaller
MAX_STORED = 1024 * 1024  # larger bodies (compressed) are not kept: a cache full of them would crowd out the pages


def page_key(request: HttpRequest, etag: str) -> str | None:
    """The cache key of the page ``request`` asks for with validators ``etag``, or None when the page must not
    be served from the cache or stored (not an anonymous GET or HEAD)."""
    if request.method not in ("GET", "HEAD"):
        return None
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return None
    query = sorted((name, values) for name, values in request.GET.lists())
    parts = f"{etag}|{request.scheme}|{request.get_host()}|{request.path}|{query!r}"
    return "page:" + hashlib.sha256(parts.encode(), usedforsecurity=False).hexdigest()


def _storable(request: HttpRequest, response: HttpResponseBase) -> bool:
    return (
        response.status_code in STORED_STATUSES
        and not response.cookies
        and not response.has_header("Vary")
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


def cached_page(key: str) -> HttpResponseBase | None:
    """The page stored under ``key``, as a new response, or None."""
    try:
        stored: Any = caches[PAGE_CACHE].get(key)
    except Exception as exc:  # a cache that is down must not take the pages with it: told once per outage
        CACHE_OUTAGE.failed("page read", exc)
        return None
    CACHE_OUTAGE.answered()
    try:
        status, streamed, compressed, content, headers = stored
    except (TypeError, ValueError):  # nothing kept, or kept by another version of this code
        return None
    return _response(status, streamed, zlib.decompress(content) if compressed else content, headers)


def _response(status: int, streamed: bool, content: bytes, headers: list[tuple[str, str]]) -> HttpResponseBase:
    """A response of ``content``: streamed (in one piece) if the view streamed it, as the view's callers read."""
    response: HttpResponseBase = (
        StreamingHttpResponse([content], status=status) if streamed else HttpResponse(content, status=status)
    )
    for name, value in headers:
        response[name] = value
    return response


def store_page(key: str, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """Keep ``response`` under ``key`` if it may be served to another anonymous visitor; the response to send
    (a streamed file is read whole to be kept, and sent from what was read)."""
    if not _storable(request, response):
        return response
    headers = list(response.headers.items())
    if isinstance(response, StreamingHttpResponse):
        streamed, content = True, b"".join(response)
        response = _response(response.status_code, True, content, headers)
    elif isinstance(response, HttpResponse):
        streamed, content = False, response.content
    else:  # Django makes no other kind of response: one whose body is not known is not kept
        return response
    compressed = len(content) >= COMPRESS_FROM
    kept = zlib.compress(content, 1) if compressed else content
    if len(kept) > MAX_STORED:
        return response
    try:
        caches[PAGE_CACHE].set(key, (response.status_code, streamed, compressed, kept, headers))
    except Exception as exc:  # the page was made; not keeping it only costs the next visitor
        CACHE_OUTAGE.failed("page write", exc)
    return response


def through_cache(key: str | None, request: HttpRequest, make: Callable[[], HttpResponseBase]) -> HttpResponseBase:
    """The page of ``key`` from the cache, or made by ``make`` and stored."""
    if key is None:
        return make()
    response = cached_page(key)
    if response is None:
        response = store_page(key, request, make())
    return response


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
    """The page cache's key of ``request`` (ratings/web/caching.py), for views that are not ``public_page``s
    (the API): the same validators, so the same data version, day and language."""
    return page_key(request, _validators(request)[0])


def public_page(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Give the view's 200 answers their validators and a short max-age, and answer a GET whose validators
    match with 304 Not Modified, before the view runs; serve anonymous visitors from the page cache."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        etag, modified = _validators(request)
        last_modified = int(modified.timestamp())
        if request.method in ("GET", "HEAD"):
            answer = get_conditional_response(request, etag=etag, last_modified=last_modified)
            if answer is not None:
                patch_cache_control(answer, max_age=MAX_AGE)
                return answer

        def make() -> HttpResponseBase:
            response = view(request, *args, **kwargs)
            if response.status_code == 200:
                response["ETag"] = etag
                response["Last-Modified"] = http_date(last_modified)
                patch_cache_control(response, max_age=MAX_AGE)
            return response

        return through_cache(page_key(request, etag), request, make)

    return wrapped
