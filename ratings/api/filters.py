"""Filters of the API's lists. They choose what the pages' filters choose (ratings/web/filters.py), held to what the
OpenAPI schema promises a client: dates written ``YYYY-MM-DD`` only, years and numbers as whole numbers, and a
value out of the schema refused with a 400 naming the parameter rather than read some other way."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from ratings.models import ListEntry, Player, Table
from ratings.selectors.search import MAX_QUERY
from ratings.web.filters import ACTIVE_CHOICES, GRADES, RatingListFilter, TournamentFilter, country_choices, name_search

ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
WHOLE_NUMBER = re.compile(r"-?[0-9]+")


class IsoDateField(forms.DateField):
    """A date as the schema's ``format: date`` writes it, and no other way (no day-first, no spaces)."""

    def to_python(self, value: Any) -> dt.date | None:
        if value in self.empty_values:
            return None
        try:
            if ISO_DATE.fullmatch(str(value)):
                return dt.date.fromisoformat(str(value))
        except ValueError:
            pass
        raise forms.ValidationError(_("A date written YYYY-MM-DD."), code="invalid")


class WholeNumberField(forms.IntegerField):
    """A whole number written with digits only (not ``2024.0`` nor `` 2024``)."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if not WHOLE_NUMBER.fullmatch(str(value)):
            raise forms.ValidationError(_("A whole number."), code="invalid")
        return int(value)


@extend_schema_field(OpenApiTypes.DATE)
class IsoDateFilter(django_filters.DateFilter):
    field_class = IsoDateField


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": 9999})
class YearFilter(django_filters.NumberFilter):
    # NumberFilter hands its field class only the number's bounds, which an IntegerField takes as well; the stubs
    # of django-filter allow a DecimalField only.
    field_class = WholeNumberField  # type: ignore[assignment]


class PlayerSearchFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        method="filter_name",
        max_length=MAX_QUERY,
        help_text="Every word of the name, accents and case ignored (aberg finds Åberg), or a federation id.",
    )
    country = django_filters.ChoiceFilter(field_name="nationality", choices=country_choices)

    class Meta:
        model = Player
        fields: list[str] = []

    def filter_name(self, queryset: QuerySet[Player], name: str, value: str) -> QuerySet[Player]:
        return name_search(queryset, value)


class RatedTableFilter(django_filters.FilterSet):
    date_from = IsoDateFilter(field_name="date", lookup_expr="gte", help_text="YYYY-MM-DD")
    date_to = IsoDateFilter(field_name="date", lookup_expr="lte", help_text="YYYY-MM-DD")

    class Meta:
        model = Table
        fields: list[str] = []


class RatingListChoice(forms.Form):
    """Which list the API gives (``date``, ``active``), laxer than the page's form: any day of the calendar
    written ``YYYY-MM-DD`` (a day before the first table: an empty list; a day after today: today's list,
    nothing later being known) and any two grades (``grade_min`` above ``grade_max``: no one)."""

    active = forms.ChoiceField(choices=ACTIVE_CHOICES, required=False)
    date = IsoDateField(required=False)


class ApiRatingListFilter(RatingListFilter):
    """The rating list's filters with the API's form; ``date`` and ``active`` are stated in the view's schema
    (ratings/api/views.py), being the form's fields, not filters.

    The grades are chosen by their codes, strings in the schema as they always were: a filter on the stored
    grade column by its lookup alone would be published as an integer with a string's choices."""

    grade_min = django_filters.ChoiceFilter(label=_("Grade from"), method="filter_grade_min", choices=GRADES)
    grade_max = django_filters.ChoiceFilter(label=_("Grade up to"), method="filter_grade_max", choices=GRADES)

    class Meta(RatingListFilter.Meta):
        form = RatingListChoice

    def filter_grade_min(self, queryset: QuerySet[ListEntry], name: str, value: str) -> QuerySet[ListEntry]:
        return queryset.filter(grade__gte=int(value))

    def filter_grade_max(self, queryset: QuerySet[ListEntry], name: str, value: str) -> QuerySet[ListEntry]:
        return queryset.filter(grade__lte=int(value))


class ApiTournamentFilter(TournamentFilter):
    year = YearFilter(
        field_name="end_date",
        lookup_expr="year",
        min_value=1,
        max_value=9999,
        help_text="Tournaments that ended in this year.",
    )
