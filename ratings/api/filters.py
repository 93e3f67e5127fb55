"""Filters of the API's own lists; the rating list and the tournaments reuse the pages' (ratings/web/filters.py)."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet

from ratings.models import Player, Table
from ratings.web.filters import MAX_QUERY, country_choices, name_search


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
    date_from = django_filters.DateFilter(field_name="date", lookup_expr="gte", help_text="YYYY-MM-DD")
    date_to = django_filters.DateFilter(field_name="date", lookup_expr="lte", help_text="YYYY-MM-DD")

    class Meta:
        model = Table
        fields: list[str] = []
