"""The API's reads of the official lists: the archive, and one list's entries as published (paged, filtered
by name, country, club and category as the rating list is)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from ratings.api.pagination import ApiPagination
from ratings.api.serializers_official import OfficialListEntrySerializer, OfficialListSerializer
from ratings.api.views import PublicReadMixin, invalid_query
from ratings.models import OfficialList, OfficialListEntry
from ratings.selectors.categories import category_choices, category_codes
from ratings.selectors.official_lists import (
    official_list_filter,
    official_list_for_page,
    official_list_rows,
    official_lists,
)
from ratings.selectors.search import MAX_QUERY
from ratings.selectors.versions import DataVersion
from ratings.web.filters import ClubFilter, country_choices, offer_clubs


class OfficialListListView(PublicReadMixin, generics.ListAPIView[OfficialList]):
    """Every official list, the latest first: the rating lists the federation published, each frozen."""

    serializer_class = OfficialListSerializer

    def get_queryset(self) -> QuerySet[OfficialList]:
        return official_lists()


class OfficialEntryFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        max_length=MAX_QUERY, help_text="Every word of the name, accents and case ignored, or a federation id."
    )
    country = django_filters.ChoiceFilter(field_name="nationality", choices=country_choices, help_text="ISO 3166 code.")
    club = ClubFilter(method="filter_nothing", choices=())
    group = django_filters.ChoiceFilter(method="filter_nothing", choices=category_choices)

    class Meta:
        model = OfficialListEntry
        fields: list[str] = []

    def __init__(self, *args: Any, version: DataVersion | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_clubs(self.filters, version)

    def filter_nothing(self, queryset: Any, name: str, value: Any) -> Any:
        return queryset  # the rows are filtered by the view


class OfficialEntryPagination(ApiPagination):
    """The entries' pages, with the list's heading beside them in ``list``."""

    official: dict[str, Any] = {}

    def get_paginated_response(self, data: Any) -> Response:
        response = super().get_paginated_response(data)
        response.data["list"] = self.official
        return response

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paged = super().get_paginated_response_schema(schema)
        paged["properties"]["list"] = {"$ref": "#/components/schemas/OfficialList"}
        paged["required"] = [*paged.get("required", []), "list"]
        return paged


@extend_schema_view(
    get=extend_schema(
        operation_id="official_list_entries",
        parameters=[
            OpenApiParameter("list_date", OpenApiTypes.DATE, OpenApiParameter.PATH, description="YYYY-MM-DD"),
            OpenApiParameter(
                "club",
                int,
                description="The players in this club on the list's date (a club's id, as clubs/ gives it).",
            ),
            OpenApiParameter(
                "group",
                str,
                enum=category_codes(),
                description="The players in this category on the list's date, as categories/ names them: U<age> "
                "under that age, S<age> that age and over, W the women's list. Only the category is published, "
                "never an age.",
            ),
        ],
    )
)
class OfficialListDetailView(PublicReadMixin, generics.ListAPIView[Any]):
    """An official list's entries as published, in rank order, ``rank`` and ``country_rank`` those of the whole
    list whatever the filters. The list's heading is in ``list``."""

    serializer_class = OfficialListEntrySerializer
    pagination_class = OfficialEntryPagination
    filter_backends = [DjangoFilterBackend]  # for the schema's parameters; the rows are filtered here
    filterset_class = OfficialEntryFilter

    def _official(self) -> OfficialList:
        try:
            return official_list_for_page(self.kwargs["list_date"])
        except OfficialList.DoesNotExist:
            raise NotFound("No official list was published for that date.") from None

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):
            return OfficialListEntry.objects.none()
        self.official = self._official()
        version = getattr(self.request._request, "data_version", None)
        choice = OfficialEntryFilter(
            self.request.query_params, queryset=OfficialListEntry.objects.none(), version=version
        )
        if not choice.form.is_valid():
            raise invalid_query(choice.form.errors)
        data = choice.form.cleaned_data
        return official_list_filter(
            official_list_rows(self.official),
            q=data["q"] or "",
            country=data["country"] or "",
            club=data["club"],
            group=data["group"] or "",
        )

    def filter_queryset(self, queryset: Any) -> Any:
        return queryset

    def paginate_queryset(self, queryset: Any) -> Any:
        paginator = self.paginator
        assert isinstance(paginator, OfficialEntryPagination)  # the view's pagination_class
        paginator.official = OfficialListSerializer(self.official).data
        return super().paginate_queryset(queryset)
