"""The API's answers about clubs, the rankings of clubs and countries, and the top lists per category: the same
selectors as the pages (ratings/selectors/clubs.py, categories.py), the same caching (``PublicReadMixin``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings.api.serializers_clubs import CategoryTopSerializer, ClubDetailSerializer, RankingSerializer
from ratings.api.views import PublicReadMixin
from ratings.models import Club
from ratings.selectors.categories import top_per_category
from ratings.selectors.clubs import CLUB_TOP, COUNTRY_TOP, club_page, club_ranking, country_ranking


class ClubListView(PublicReadMixin, APIView):
    @extend_schema(responses=RankingSerializer, operation_id="clubs_list")
    def get(self, request: Request) -> Response:
        """Every club, ranked by the average rating of its best ``top`` players on today's top list."""
        ranking = club_ranking(getattr(request._request, "data_version", None))
        return Response(RankingSerializer({"top": CLUB_TOP, "results": ranking}).data)


class ClubDetailView(PublicReadMixin, APIView):
    @extend_schema(responses=ClubDetailSerializer)
    def get(self, request: Request, pk: int) -> Response:
        """A club: its members of today with their ratings, its top average, the tournaments it hosted."""
        try:
            page = club_page(pk)
        except Club.DoesNotExist:
            raise NotFound(_("No club has that number.")) from None
        return Response(ClubDetailSerializer(page).data)


class CountryRankingView(PublicReadMixin, APIView):
    @extend_schema(responses=RankingSerializer, operation_id="countries_list")
    def get(self, request: Request) -> Response:
        """The countries (nationalities), ranked by the average rating of their best ``top`` players."""
        ranking = country_ranking(getattr(request._request, "data_version", None))
        return Response(RankingSerializer({"top": COUNTRY_TOP, "results": ranking}).data)


class CategoryTopsView(PublicReadMixin, APIView):
    @extend_schema(responses=CategoryTopSerializer(many=True))
    def get(self, request: Request) -> Response:
        """The best players of today's top list in each category the federation publishes (juniors, seniors,
        women); a category is only its code and label: the ages it is read from are never published."""
        return Response(CategoryTopSerializer(top_per_category(), many=True).data)
