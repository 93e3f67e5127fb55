"""Version 1 of the API, mounted at ``/api/v1/`` (federation/urls.py); a change that breaks clients goes to v2."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import path
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerSplitView
from rest_framework.request import Request
from rest_framework.response import Response

from ratings.api import submit, views, views_clubs, views_head_to_head, views_index, views_official, views_predictions

app_name = "api-v1"


class DocsView(SpectacularSwaggerSplitView):
    """Swagger UI from this site's own files (drf-spectacular-sidecar), its set-up script a file of its own and
    no inline style: the site's Content-Security-Policy allows nothing else."""

    template_name = "api/swagger_ui.html"
    url_name = "api-v1:schema"

    @extend_schema(exclude=True)  # the page is no endpoint of the API
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # drf-spectacular's views carry no annotations: untyped_calls_exclude lets them be called, but mypy does
        # not apply it to a call through super().
        response: Response = super().get(request, *args, **kwargs)  # type: ignore[no-untyped-call]
        if isinstance(response.data, dict):  # the page, not the set-up script
            response.data.update(licence_name=settings.DATA_LICENCE_NAME, licence_url=settings.DATA_LICENCE_URL)
        return response


urlpatterns = [
    path("", views_index.IndexView.as_view(), name="index"),
    path("players/", views.PlayerListView.as_view(), name="players"),
    path("players/<str:federation_id>/", views.PlayerDetailView.as_view(), name="player"),
    path("players/<str:federation_id>/history/", views.PlayerHistoryView.as_view(), name="player_history"),
    path(
        "players/<str:federation_id>/vs/<str:other_id>/",
        views_head_to_head.HeadToHeadView.as_view(),
        name="head_to_head",
    ),
    path("rating-list/", views.RatingListView.as_view(), name="rating_list"),
    path("official-lists/", views_official.OfficialListListView.as_view(), name="official_lists"),
    path("official-lists/<str:list_date>/", views_official.OfficialListDetailView.as_view(), name="official_list"),
    path("tournaments/", views.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<int:pk>/tables/preview/", submit.PreviewView.as_view(), name="tables_preview"),
    path("tournaments/<int:pk>/tables/submit/", submit.SubmitView.as_view(), name="tables_submit"),
    path("tables/", views.RatedTableListView.as_view(), name="tables"),
    path("tables/<int:pk>/", views.TableDetailView.as_view(), name="table"),
    path("promotions/", views.PromotionListView.as_view(), name="promotions"),
    path("promotions/pending/", views.PendingPromotionListView.as_view(), name="pending_promotions"),
    path("clubs/", views_clubs.ClubListView.as_view(), name="clubs"),
    path("clubs/<int:pk>/", views_clubs.ClubDetailView.as_view(), name="club"),
    path("countries/", views_clubs.CountryRankingView.as_view(), name="countries"),
    path("categories/", views_clubs.CategoryTopsView.as_view(), name="categories"),
    path("predictions/", views_predictions.PredictionsView.as_view(), name="predictions"),
    path("schema/", SpectacularJSONAPIView.as_view(), name="schema"),
    path("docs/", DocsView.as_view(), name="docs"),
]
