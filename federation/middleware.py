"""Two middlewares that run before the views: the health endpoints answered whatever the Host header says
(:func:`health_without_host_check`), and query strings no page could have made refused (below).

Query strings no page of this site could have made are refused with a 400 before any view reads them.

A NUL byte cannot go into a PostgreSQL string (the driver raises, a 500), other control characters and
values of thousands of characters only ever come from scanners, and a long enough search makes SQLite's
LIKE give up ("pattern too complex"). Refusing them here covers the public pages, the file downloads, the
admin's lists and its autocomplete at once; what a value means is still each form's business.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse

from federation import health

MAX_QUERY_VALUE = 1000
"""Longer than any name, date or filter a page offers (a player's search is at most 100 characters)."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class HostileQuery(SuspiciousOperation):
    """Django answers a SuspiciousOperation with a 400 (templates/400.html) and logs it to django.security."""


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
        problem = hostile_query_problem(request)
        if problem is not None:
            raise HostileQuery(problem)
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
