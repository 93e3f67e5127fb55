"""Which query parameters an API operation takes: exactly those its schema lists, each at most once.

A parameter the operation does not know (a misspelt filter, ``?contry=DE``) is refused rather than ignored, so a
client never mistakes the whole list for a filtered one; so is a parameter given twice (which one would count?)
and an empty value where the schema wants a choice, a date or a number (``?page_size=``, ``?country=``). Every
refusal is a 400 naming the parameters (ratings/api/errors.py).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request

FREE_TEXT = frozenset({"q"})
"""Parameters whose empty value is a value (the schema's plain strings): an empty search finds everyone."""


def known_parameters(view: Any) -> frozenset[str]:
    """The filters of the view's filter set, the fields its form declares besides them (the rating list's
    ``date`` and ``active``, which choose the list rather than filter it), and the paginator's."""
    filterset = getattr(view, "filterset_class", None)
    names = set(filterset.base_filters) | set(filterset._meta.form.base_fields) if filterset is not None else set()
    if getattr(view, "pagination_class", None) is not None and hasattr(view, "list"):
        names |= {view.pagination_class.page_query_param, view.pagination_class.page_size_query_param}
    return frozenset(names)


def check_query(request: Request, view: Any) -> None:
    known = known_parameters(view)
    errors: dict[str, list[str]] = {}
    for name, values in request.query_params.lists():
        if name not in known:
            errors[name] = [_("Not a parameter of this operation.")]
        elif len(values) > 1:
            errors[name] = [_("Given more than once.")]
        elif values[0] == "" and name not in FREE_TEXT:
            errors[name] = [_("Empty: leave the parameter out instead.")]
    if errors:
        raise ValidationError(errors)
