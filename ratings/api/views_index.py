"""The API's front door at ``/api/v1/``: what it serves and where, so a client (or a person) can start there."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

RESOURCES = {
    "players": ("api-v1:players", "Players: search by name or federation id, filter by country and grade."),
    "rating_list": ("api-v1:rating_list", "The rating list of today or of any date, filtered like the page."),
    "official_lists": ("api-v1:official_lists", "The rating lists a rating officer published, as published."),
    "tournaments": ("api-v1:tournaments", "Tournaments, with their tables."),
    "tables": ("api-v1:tables", "Rated tables, with games and rating changes."),
    "promotions": ("api-v1:promotions", "Grade promotions the public sees."),
    "pending_promotions": ("api-v1:pending_promotions", "Dan promotions waiting for approval."),
    "clubs": ("api-v1:clubs", "Clubs, ranked by the average rating of their best players; each with its members."),
    "countries": ("api-v1:countries", "Countries, ranked by the average rating of their best players."),
    "categories": ("api-v1:categories", "The top players of each category: juniors, seniors, women."),
    "predictions": ("api-v1:predictions", "How well FESA's ratings and other rating systems predict the games."),
    "schema": ("api-v1:schema", "The OpenAPI schema of this API."),
    "docs": ("api-v1:docs", "This API's documentation."),
}
"""Each resource's name, URL name and one line on what it holds (English: the API's words are not translated)."""


class IndexView(APIView):
    """The resources of version 1, each with its absolute URL and what it holds."""

    @extend_schema(responses=OpenApiTypes.OBJECT, summary="The API's resources")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(
            {
                "version": "v1",
                "resources": {
                    name: {"url": request.build_absolute_uri(reverse(url_name)), "description": text}
                    for name, (url_name, text) in RESOURCES.items()
                },
            }
        )
