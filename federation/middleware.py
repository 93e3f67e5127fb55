"""Two middlewares that run before the views: the health endpoints answered whatever the Host header says
(:func:`health_without_host_check`), and query strings no page could have made refused (below).

Query strings no page of this site could have made are refused with a 400 before any view reads them.

A NUL byte cannot go into a PostgreSQL string (the driver raises, a 500), other control characters and
values of thousands of characters only ever come from scanners, and a long enough search makes SQLite's
LIKE give up ("pattern too complex"). Refusing them here covers the public pages, the file downloads, the
admin's lists, its autocomplete and the API at once; what a value means is still each form's business.

A path with a control character names nothing on this site: 404. A query string with one, or with a value too
long: 400. Both are the client's mistake, answered here rather than raised, so the log holds Django's line for
the answer ("Not Found" at INFO, "Bad Request" at WARNING: federation/logs.py) and an INFO line with the reason,
never an ERROR with a traceback that anyone could fill the error log with. Under ``/api/v1/`` the answer is the
API's JSON error (ratings/api/errors.py).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse

from federation import health
from ratings.api import errors

logger = logging.getLogger(__name__)

MAX_QUERY_VALUE = 1000
"""Longer than any name, date or filter a page offers (a player's search is at most 100 characters)."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def hostile_query_problem(request: HttpRequest) -> str | None:
    """Why the request's query string is refused, or None when it is acceptable."""
    for key, values in request.GET.lists():
        for text in (key, *values):
            if _CONTROL.search(text):
                return f"control character in the query parameter {key[:40]!r}"
            if len(text) > MAX_QUERY_VALUE:
                return f"query parameter {key[:40]!r} longer than {MAX_QUERY_VALUE} characters"
    return None


def reject_hostile_query(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        if _CONTROL.search(request.path):
            logger.info("refused: a control character in the path")
            return errors.page_not_found(request, Http404("control character in the path"))
        problem = hostile_query_problem(request)
        if problem is not None:
            logger.info("refused: %s", problem)
            if errors.is_api(request):
                return errors.api_error(400, f"Refused: {problem}.")
            return errors.bad_request(request, ValueError(problem))
        return get_response(request)

    return middleware


def health_without_host_check(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Answer the health endpoints before anything reads the Host header.

    Probes address the process by its IP (compose's healthcheck, a load balancer, a monitor inside the network):
    under the site's ``ALLOWED_HOSTS`` Django would answer them 400 and log an ERROR each time. Their answers
    name no host and hold no personal data, so any Host may ask; every other path keeps the host check.
    """
    views = {"/health/live": health.live, "/health/ready": health.ready}

    def middleware(request: HttpRequest) -> HttpResponse:
        view = views.get(request.path_info)
        if view is not None:
            return view(request)
        return get_response(request)

    return middleware
