"""List filters shared by the admin's screens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy
from django_countries.filters import CountryFilter

from ratings.models import Player
from ratings.selectors.name_forms import players_without_latin_form

if TYPE_CHECKING:
    from django.contrib.admin.filters import _ListFilterChoices
    from django.contrib.admin.views.main import ChangeList


class VisibleCountryFilter(CountryFilter):
    """The countries of the rows the user may see, and only those (works across a relation: "tournament__country").

    django-countries' own filter reads every row of the model, which would name the countries of tournaments
    a director is not shown.
    """

    def lookup_choices(self, changelist: Any) -> Iterator[tuple[str, str]]:
        codes = set(changelist.root_queryset.order_by().values_list(self.field_path, flat=True).distinct())
        for code, name in self.field.get_choices(include_blank=False):
            # A country field's choices are flat (code, name): the check only tells the checker no group comes.
            if code in codes and isinstance(name, str):
                yield code, name


class LatinFormFilter(admin.SimpleListFilter):
    """The players whose name is in another script and who have no Latin form yet (ratings/selectors/name_forms.py):
    FESA's files write them transliterated until a rating officer gives the form they use."""

    title = gettext_lazy("Latin form")
    parameter_name = "latin_form"
    MISSING = "missing"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [(self.MISSING, gettext_lazy("missing: a name in another script"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Player]) -> QuerySet[Player]:
        if self.value() == self.MISSING:
            return players_without_latin_form(queryset)
        return queryset


class OpensOnChoice(admin.SimpleListFilter):
    """A filter that opens on one of its own choices (what waits for someone) rather than on everything, so its
    list has no "All" entry of Django's: "all" is one of its choices."""

    def choices(self, changelist: ChangeList) -> Iterator[_ListFilterChoices]:
        parameter = self.parameter_name
        assert parameter is not None  # Django's SimpleListFilter refuses to start without one
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == lookup,
                "query_string": changelist.get_query_string({parameter: lookup}),
                "display": title,
            }
