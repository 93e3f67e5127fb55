"""The API's reads of the official lists: the archive, and one list's entries as published (paged, filtered
by name, country, club and category as the rating list is)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from ratings.api.pagination import ApiPagination
from ratings.api.serializers_official import OfficialListEntrySerializer, OfficialListSerializer
from ratings.api.views import PublicReadMixin
from ratings.models import ListEntry, OfficialList
from ratings.selectors.categories import category_codes
from ratings.selectors.official_lists import official_list_entries, official_list_for_page, official_lists
from ratings.selectors.search import MAX_QUERY
from ratings.web.filters import PublishedListFilter, country_choices


class OfficialListListView(PublicReadMixin, generics.ListAPIView[OfficialList]):
    """Every official list, the latest first: the rating lists the federation published, each frozen."""

    serializer_class = OfficialListSerializer

    def get_queryset(self) -> QuerySet[OfficialList]:
        return official_lists()


class OfficialEntryFilter(PublishedListFilter):
    """An official list's filters in the API: the name, the country, and the club and category of the list's date
    (``list_date``), as on its page."""

    q = django_filters.CharFilter(
        method="filter_name",
        max_length=MAX_QUERY,
        help_text="Every word of the name, accents and case ignored, or a federation id.",
    )
    country = django_filters.ChoiceFilter(field_name="nationality", choices=country_choices, help_text="ISO 3166 code.")
    grade_min = grade_max = category = None  # type: ignore[assignment]  # none: not filters of an official list


class OfficialEntryFilterBackend(DjangoFilterBackend):
    """The filter set of the view's official list: its clubs of the request's data version, its date's clubs and
    categories. A malformed value is a 400 naming the parameter (ratings/api/errors.py)."""

    def get_filterset_kwargs(self, request: Any, queryset: Any, view: Any) -> dict[str, Any]:
        official = getattr(view, "official", None)
        return {
            **super().get_filterset_kwargs(request, queryset, view),
            "version": getattr(request._request, "data_version", None),
            "list_date": official.date if official is not None else None,
        }


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
class OfficialListDetailView(PublicReadMixin, generics.ListAPIView[ListEntry]):
    """An official list's entries as published, in rank order, ``rank`` and ``country_rank`` those of the whole
    list whatever the filters. The list's heading is in ``list``."""

    serializer_class = OfficialListEntrySerializer
    pagination_class = OfficialEntryPagination
    filter_backends = [OfficialEntryFilterBackend]
    filterset_class = OfficialEntryFilter

    def _official(self) -> OfficialList:
        try:
            return official_list_for_page(self.kwargs["list_date"])
        except OfficialList.DoesNotExist:
            raise NotFound(_("No official list was published for that date.")) from None

    def get_queryset(self) -> QuerySet[ListEntry]:
        if getattr(self, "swagger_fake_view", False):
            return ListEntry.objects.none()
        self.official = self._official()
        return official_list_entries(self.official)

    def paginate_queryset(self, queryset: Any) -> Any:
        paginator = self.paginator
        assert isinstance(paginator, OfficialEntryPagination)  # the view's pagination_class
        paginator.official = OfficialListSerializer(self.official).data
        return super().paginate_queryset(queryset)
