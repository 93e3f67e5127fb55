"""A server-side cache of the public pages as anonymous visitors get them (Django's cache framework).

Eight visitors asking for the front page at once should not make it eight times. A page is kept under a key made
of everything it depends on: its validators (ratings/conditional.py: the data version, the day and the
language, for an anonymous visitor) and the URL it answers (scheme, host, path and query, the query's
parameters sorted). A re-rate, a grade decision, a correction or any audited edit changes the data version, so
the next request asks for another key and the page is made afresh: nothing is ever invalidated by hand, and
stale entries simply age out (``TIMEOUT`` of the ``pages`` cache, or the local cache's size bound).

Only anonymous GET and HEAD requests are served from it or stored: a signed-in officer is always given a page
made for him. Pages that set a cookie, ask for a CSRF token, vary on a header or stream are never stored, nor
answers other than 200 and redirects, nor bodies that stay large once compressed (whole-list downloads): a
cache is bounded by entries (local memory) or bytes (Redis's maxmemory), and a few of them would crowd out the
pages. The site uses no CSP nonces (federation/settings.py), so a stored page holds nothing that belongs to one
response. A cache that fails (Redis down) is logged and the page made as if it missed.
"""

from __future__ import annotations

import hashlib
import logging
import zlib
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

PAGE_CACHE = "pages"  # the alias in settings.CACHES
STORED_STATUSES = frozenset({200, 301, 302})
COMPRESS_FROM = 16 * 1024  # bodies from this size are kept compressed (zlib, fast level): a page is ~8x smaller
MAX_STORED = 512 * 1024  # larger bodies (compressed) are not kept: a cache full of them would crowd out the pages

logger = logging.getLogger(__name__)


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


def _storable(request: HttpRequest, response: HttpResponse) -> bool:
    return (
        response.status_code in STORED_STATUSES
        and not isinstance(response, StreamingHttpResponse)
        and not response.cookies
        and not response.has_header("Vary")
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


def cached_page(key: str) -> HttpResponse | None:
    """The page stored under ``key``, as a new response, or None."""
    try:
        stored: Any = caches[PAGE_CACHE].get(key)
    except Exception:  # a cache that is down must not take the pages with it
        logger.exception("page cache: read failed")
        return None
    try:
        status, compressed, content, headers = stored
    except (TypeError, ValueError):  # nothing kept, or kept by another version of this code
        return None
    response = HttpResponse(zlib.decompress(content) if compressed else content, status=status)
    for name, value in headers:
        response[name] = value
    return response


def store_page(key: str, request: HttpRequest, response: HttpResponse) -> None:
    """Keep ``response`` under ``key`` if it may be served to another anonymous visitor."""
    if not _storable(request, response):
        return
    content = response.content
    compressed = len(content) >= COMPRESS_FROM
    if compressed:
        content = zlib.compress(content, 1)
    if len(content) > MAX_STORED:
        return
    stored = (response.status_code, compressed, content, list(response.headers.items()))
    try:
        caches[PAGE_CACHE].set(key, stored)
    except Exception:  # the page was made; not keeping it only costs the next visitor
        logger.exception("page cache: write failed")


def through_cache(key: str | None, request: HttpRequest, make: Callable[[], HttpResponse]) -> HttpResponse:
    """The page of ``key`` from the cache, or made by ``make`` and stored."""
    if key is None:
        return make()
    response = cached_page(key)
    if response is None:
        response = make()
        store_page(key, request, response)
    return response
