"""The API's one error shape, for every error under ``/api/v1/`` whoever raises it.

``{"detail": "what went wrong", "errors": {"parameter": ["message", ...]}}``: ``detail`` always, ``errors`` only
on a 400 about named parameters; a field inside another is named by its path (``table.players.0.family_name``).
Django REST framework's errors go through ``exception_handler``; a URL under
``/api/v1/`` that no endpoint has, a path Django refuses before any view, and a server error go through the site's
error handlers (federation/urls.py), which answer JSON there and the HTML pages elsewhere.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

API_PREFIX = "/api/v1/"


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def error_body(detail: str, errors: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {"detail": detail, "errors": errors} if errors else {"detail": detail}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Django REST framework's answer, in the one shape: a ValidationError's messages go under ``errors``."""
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        data = response.data if isinstance(response.data, dict) else {"non_field_errors": response.data}
        errors: dict[str, list[str]] = {}
        _messages("", data, errors)
        response.data = error_body(_("Malformed or unknown parameters: see errors."), errors)
    elif not (isinstance(response.data, dict) and set(response.data) == {"detail"}):
        response.data = error_body(str(response.data))
    return response


def _messages(name: str, value: Any, out: dict[str, list[str]]) -> None:
    """Each field's messages under its path: a nested serializer's fields (a dict) and a list's items (a list of
    them, empty for the items without error) below their parent's name."""
    if isinstance(value, dict):
        for key, inner in value.items():
            _messages(f"{name}.{key}" if name else str(key), inner, out)
    elif isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        for i, inner in enumerate(value):
            if inner:
                _messages(f"{name}.{i}", inner, out)
    else:
        out.setdefault(name, []).extend(str(m) for m in (value if isinstance(value, list) else [value]))


def api_error(status: int, detail: str) -> JsonResponse:
    return JsonResponse(error_body(detail), status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return api_error(400, _("Bad request."))
    return defaults.bad_request(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return api_error(404, _("No such endpoint, player, table or page."))
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        return api_error(500, _("Server error: it has been logged."))
    return defaults.server_error(request)
