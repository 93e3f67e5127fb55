"""List filters shared by the admin's screens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django_countries.filters import CountryFilter


class VisibleCountryFilter(CountryFilter):
    """The countries of the rows the user may see, and only those (works across a relation: "tournament__country").

    django-countries' own filter reads every row of the model, which would name the countries of tournaments
    a director is not shown.
    """

    def lookup_choices(self, changelist: Any) -> Iterator[tuple[str, str]]:
        codes = set(changelist.root_queryset.order_by().values_list(self.field_path, flat=True).distinct())
        for code, name in self.field.get_choices(include_blank=False):
            if code in codes:
                yield code, name
