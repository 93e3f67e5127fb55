"""The admin site, with every list (ours, django.contrib.auth's, django-axes') hardened against hostile queries.

Django's admin lets a list be filtered by any lookup on the model's own fields (``?id__regex=(``,
``?date_of_birth__year=1980``, ``?created_at__year=99999999999``), whether or not the list offers that filter,
and its date hierarchy turns an impossible year into a server error. Both give 500s to anyone who types a URL,
and the first lets a user probe a column he is not shown. So every list registered on this site accepts only
the lookups its own filters, its date hierarchy and a foreign key's id make, and only years, months and days a
calendar has; anything else is a 400 (Django's ``DisallowedModelAdminLookup``).

The site is installed with ``FederationAdminConfig`` in place of ``django.contrib.admin``; it hardens each
ModelAdmin as it is registered, so a screen added later is covered without remembering to.

Its autocomplete answers (``admin:autocomplete``) ask the model admin too: ``autocomplete_queryset(queryset)``
narrows the choices (a merged player is never offered), ``autocomplete_label(obj)`` gives a longer label than
the object's ``__str__`` (a player's nationality, id and last table, to tell namesakes apart) without changing
the name every other text shows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.db.models.constants import LOOKUP_SEP
from django.db.models.fields.reverse_related import ForeignObjectRel
from django.http import HttpRequest, HttpResponse

FILTER_LOOKUPS = frozenset({"exact", "isnull", "isempty", "gte", "gt", "lte", "lt"})
"""The lookups Django's own list filters write after a field's path (DateFieldListFilter's range, choices, ...)."""

SAFE_YEARS = (dt.MINYEAR + 1, dt.MAXYEAR - 1)
"""Years a filter may name: a time zone shift, or the date hierarchy's "next year", stays a date."""

DATE_PARTS = {"year": SAFE_YEARS, "month": (1, 12), "day": (1, 31)}
"""The parts of a date hierarchy, and the values each may take."""


def _filter_paths(list_filter: Iterable[Any]) -> tuple[set[str], set[str]]:
    """The field paths the list's field filters read, and the parameters of its own filter classes."""
    paths: set[str] = set()
    parameters: set[str] = set()
    for entry in list_filter:
        if isinstance(entry, str):
            paths.add(entry)
        elif isinstance(entry, (tuple, list)):
            paths.add(entry[0])
        elif isinstance(entry, type) and issubclass(entry, admin.SimpleListFilter) and entry.parameter_name:
            parameters.add(entry.parameter_name)
    return paths, parameters


def _is_foreign_key_id(model: type[models.Model], lookup: str) -> bool:
    """``tournament__id__exact=5``: the rows of one related object, as links from other screens ask for them."""
    parts = lookup.split(LOOKUP_SEP)
    if len(parts) not in (2, 3) or parts[1] not in ("id", "pk") or parts[2:] not in ([], ["exact"]):
        return False
    try:
        field = model._meta.get_field(parts[0])
    except FieldDoesNotExist:
        return False
    return isinstance(field, models.ForeignKey)


def _lookup_field(
    model: type[models.Model], lookup: str
) -> tuple[models.Field[Any, Any] | ForeignObjectRel | None, str]:
    """The field a lookup ends on (following relations) and the lookup type after it ("" for a bare path)."""
    field: models.Field[Any, Any] | ForeignObjectRel | None = None
    parts = lookup.split(LOOKUP_SEP)
    for index, part in enumerate(parts):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return field, LOOKUP_SEP.join(parts[index:])
        if field is not None and field.is_relation and field.related_model is not None:
            model = field.related_model
    return field, ""


def _date_value_is_valid(field: models.Field[Any, Any], value: str) -> bool:
    """A date or moment a calendar has, away from the ends where a time zone shift overflows; a moment
    carries its offset, as the admin's own filter links write it."""
    try:
        parsed = field.to_python(value)
    except ValidationError:
        return False
    if isinstance(parsed, dt.datetime) and parsed.utcoffset() is None:
        return False
    return parsed is None or SAFE_YEARS[0] <= parsed.year <= SAFE_YEARS[1]


def _date_part_is_valid(part: str, value: str) -> bool:
    low, high = DATE_PARTS[part]
    return value.isascii() and value.isdigit() and len(value) <= 4 and low <= int(value) <= high


class HardenedListMixin:
    """Restricts a ModelAdmin's list to the lookups it offers; see the module docstring."""

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        model_admin: Any = self
        date_hierarchy = model_admin.date_hierarchy
        if date_hierarchy and lookup.startswith(date_hierarchy + LOOKUP_SEP):
            part = lookup[len(date_hierarchy) + len(LOOKUP_SEP) :]
            if part in DATE_PARTS:
                return _date_part_is_valid(part, value)
        paths, parameters = _filter_paths(model_admin.get_list_filter(request) if request else model_admin.list_filter)
        offered = lookup in parameters or self._is_filter_lookup(lookup, paths)
        if not offered and not _is_foreign_key_id(model_admin.model, lookup):
            return False
        field, lookup_type = _lookup_field(model_admin.model, lookup)
        if (
            isinstance(field, models.DateField)
            and lookup_type not in ("isnull", "isempty")
            and not _date_value_is_valid(field, value)
        ):
            return False
        return bool(super().lookup_allowed(lookup, value, request))  # type: ignore[misc]

    @staticmethod
    def _is_filter_lookup(lookup: str, paths: set[str]) -> bool:
        for path in paths:
            if lookup == path:
                return True
            if lookup.startswith(path + LOOKUP_SEP):
                rest = lookup[len(path) + len(LOOKUP_SEP) :].split(LOOKUP_SEP)
                # A related field's filter names the target's key before the lookup: tournament__id__exact.
                if rest[-1] in FILTER_LOOKUPS and (len(rest) == 1 or (len(rest) == 2 and rest[0] in ("id", "pk"))):
                    return True
        return False


class LabelledAutocompleteView(AutocompleteJsonView):
    """Django's autocomplete view, with the model admin's two optional hooks; see the module docstring."""

    def get_queryset(self) -> Any:
        queryset = super().get_queryset()
        narrow = getattr(self.model_admin, "autocomplete_queryset", None)
        return queryset if narrow is None else narrow(queryset)

    def serialize_result(self, obj: Any, to_field_name: str) -> dict[str, str]:
        result: dict[str, str] = super().serialize_result(obj, to_field_name)
        label = getattr(self.model_admin, "autocomplete_label", None)
        if label is not None:
            result["text"] = label(obj)
        return result


class FederationAdminSite(admin.AdminSite):
    def autocomplete_view(self, request: HttpRequest) -> HttpResponse:
        response = LabelledAutocompleteView.as_view(admin_site=self)(request)
        assert isinstance(response, HttpResponse)  # a JsonResponse; Django's view is typed with their base
        return response

    def register(self, model_or_iterable: Any, admin_class: Any = None, **options: Any) -> None:
        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, HardenedListMixin):
            # Built with the class's own metaclass (MediaDefiningClass), as a class statement would.
            admin_class = type(admin_class)(
                admin_class.__name__,
                (HardenedListMixin, admin_class),
                {"__module__": admin_class.__module__, "__doc__": admin_class.__doc__},
            )
        super().register(model_or_iterable, admin_class, **options)


class FederationAdminConfig(AdminConfig):
    default_site = "federation.admin.FederationAdminSite"

    def ready(self) -> None:
        super().ready()
        # The site's own system checks, registered once the apps are loaded (this is the site's first app).
        from federation import checks, translations  # noqa: F401, PLC0415 - register their checks on import
