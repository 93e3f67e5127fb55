"""The API's read views: thin, over ratings/selectors/ and the pages' filters.

Every answer is JSON; bad input is a 400 naming the parameter, an unknown player or table a 404. A successful
answer carries an ETag (a request with If-None-Match gets 304 when nothing changed) and may be cached for
``CACHE_SECONDS``; every request counts against the client's limit (ratings/api/throttling.py).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.forms.utils import ErrorDict
from django.http import HttpRequest, HttpResponseBase, HttpResponsePermanentRedirect
from django.middleware.http import ConditionalGetMiddleware
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.decorators import decorator_from_middleware, method_decorator
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings import selectors
from ratings.api import serializers
from ratings.api.filters import ApiRatingListFilter, ApiTournamentFilter, PlayerSearchFilter, RatedTableFilter
from ratings.api.pagination import RatingListPagination
from ratings.api.params import check_query
from ratings.api.serializers_official import PlayerDetailSerializer
from ratings.models import ListEntry, Player, Promotion, StoredList, Table, Tournament
from ratings.selectors.api import players_search, rated_tables
from ratings.selectors.categories import category_codes, player_groups
from ratings.selectors.duplicates import merged_into_id_of
from ratings.selectors.lists import list_entries
from ratings.selectors.official_lists import player_official_lists
from ratings.services.lists import list_stored
from ratings.web.caching import cached_page, page_cache_key, store_page

MOVED = OpenApiResponse(description="A record merged into another player: Location is the kept player's answer.")
CACHE_SECONDS = 300  # the data change when a table is rated; a few minutes' delay is harmless
conditional_get = decorator_from_middleware(ConditionalGetMiddleware)


class _Kept(Exception):  # not an error: carries the kept answer past the view's handler
    def __init__(self, response: HttpResponseBase) -> None:
        self.response = response


class PublicReadMixin(APIView):
    """ETag and 304 for unchanged answers, Cache-Control on successful ones (not on errors or 429s). A
    successful answer is kept in the page cache (ratings/web/caching.py: keyed by the data version, the
    language and the URL) and given again, once the client's request has been counted against its limit."""

    @method_decorator(conditional_get)
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        return super().dispatch(request, *args, **kwargs)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # throttling: every request counts
        check_query(request, self)
        self.page_key = page_cache_key(request._request)
        kept = cached_page(self.page_key) if self.page_key else None
        if kept is not None:
            raise _Kept(kept)

    # DRF's dispatch hands whatever HttpResponse this gives to finalize_response, which asks no more; its stubs
    # narrow both to a Response.
    def handle_exception(self, exc: Exception) -> HttpResponseBase:  # type: ignore[override]
        answer = self.answer_instead(exc)
        return answer if answer is not None else super().handle_exception(exc)

    def answer_instead(self, exc: Exception) -> HttpResponseBase | None:
        """The answer that ``exc`` carries past DRF's error answers, if any: here the kept page."""
        return exc.response if isinstance(exc, _Kept) else None

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code == 200:
            patch_cache_control(response, public=True, max_age=CACHE_SECONDS)
            key = getattr(self, "page_key", None)
            if key is not None and isinstance(response, Response):
                response.render()
                store_page(key, request._request, response)  # gives back the response itself: not streamed
        return response


def invalid_query(errors: ErrorDict) -> ValidationError:
    """A 400 naming each parameter a filter's form refused, with its messages (a form's errors read as texts)."""
    return ValidationError({name: [str(message) for message in messages] for name, messages in errors.items()})


class MergedPlayer(Exception):
    """The id is a record merged into another player: answered as his page does, by a permanent redirect."""

    def __init__(self, kept: str) -> None:
        self.kept = kept


def player_or_404(federation_id: str) -> Player:
    try:
        return selectors.player_for_page(federation_id)
    except Player.DoesNotExist:
        kept = merged_into_id_of(federation_id)  # asked only when no shown player has the id
        if kept:
            raise MergedPlayer(kept) from None
        raise NotFound(_("No player has that federation id.")) from None


class PlayerMixin(PublicReadMixin):
    """A player's answers: a record merged into another redirects to the same answer about the kept player."""

    def answer_instead(self, exc: Exception) -> HttpResponseBase | None:
        if isinstance(exc, MergedPlayer):
            match = self.request.resolver_match
            assert match is not None  # the request came through the API's URLs
            return HttpResponsePermanentRedirect(reverse(match.view_name, args=[exc.kept]))
        return super().answer_instead(exc)


class PlayerListView(PublicReadMixin, generics.ListAPIView[Player]):
    """Players by name: every player with a public page, professionals included."""

    serializer_class = serializers.PlayerSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = PlayerSearchFilter

    def get_queryset(self) -> QuerySet[Player]:
        return players_search()


class PlayerDetailView(PlayerMixin, APIView):
    @extend_schema(responses={200: PlayerDetailSerializer, 301: MOVED})
    def get(self, request: Request, federation_id: str) -> Response:
        """A player's standing today, his club and categories, and his lines on the official lists as they were
        published."""
        player = player_or_404(federation_id)
        player.official_entries = player_official_lists(player)  # type: ignore[attr-defined]
        player.groups = player_groups(player, timezone.localdate())  # type: ignore[attr-defined]
        return Response(PlayerDetailSerializer(player).data)


class PlayerHistoryView(PlayerMixin, APIView):
    @extend_schema(responses={200: serializers.PlayerHistorySerializer, 301: MOVED})
    def get(self, request: Request, federation_id: str) -> Response:
        """Every table the player was rated in, oldest first, each game explained; and his grade history."""
        player = player_or_404(federation_id)
        history = {
            "player": player,
            "tables": selectors.player_history(player),
            "grades": selectors.player_grade_history(player),
        }
        return Response(serializers.PlayerHistorySerializer(history).data)


class RatingListFilterBackend(DjangoFilterBackend):
    """The rating list's filters, with the club choices of the data version the request read."""

    def get_filterset_kwargs(self, request: HttpRequest, queryset: QuerySet[Any], view: Any) -> dict[str, Any]:
        return {
            **super().get_filterset_kwargs(request, queryset, view),
            # a DRF request answers what its Django request holds
            "version": getattr(request, "data_version", None),
        }


@extend_schema(
    parameters=[
        OpenApiParameter("active", str, enum=["active", "all"], description="active: the FESA list (default)."),
        OpenApiParameter(
            "date",
            OpenApiTypes.DATE,
            description="The list as of this day (YYYY-MM-DD); today's if left out or later than today.",
        ),
        OpenApiParameter(
            "club", int, description="The players in this club on the list's day (a club's id, as clubs/ gives it)."
        ),
        OpenApiParameter(
            "group",
            str,
            enum=category_codes(),
            description="The players in this category on the list's day, as categories/ names them: U<age> under "
            "that age, S<age> that age and over, W the women's list. Only the category is published, never an age.",
        ),
    ]
)
class RatingListView(PublicReadMixin, generics.ListAPIView[ListEntry]):
    """The rating list of today or of a past day, highest rating first, filtered as on the front page.

    The FESA list (``active``) holds the players who played a rated table in the two years before the day;
    professionals are never on it. ``rank`` is the rank on the whole list and ``country_rank`` the rank within
    the player's country, whatever the filters: the site's one rating list (ratings/services/lists.py).
    """

    serializer_class = serializers.RatingListEntrySerializer
    filter_backends = [RatingListFilterBackend]
    filterset_class = ApiRatingListFilter
    pagination_class = RatingListPagination
    stored: StoredList | None = None
    filtered = True  # whether a filter narrows the list (then its lines are counted): set by get_queryset

    def get_queryset(self) -> QuerySet[ListEntry]:
        if getattr(self, "swagger_fake_view", False):
            return ListEntry.objects.none()
        # the data version the page cache's key was made of (one query fewer)
        version = getattr(self.request._request, "data_version", None)
        # Every parameter is checked before the list is read, so that a 400 names all the wrong ones at once.
        choice = ApiRatingListFilter(self.request.query_params, version=version)
        if not choice.is_valid():
            raise invalid_query(choice.form.errors)
        key = choice.list_key()
        self.stored = list_stored(key.date, active=key.active, version=version)
        self.filtered = choice.narrows()
        return list_entries(self.stored)


class TournamentListView(PublicReadMixin, generics.ListAPIView[Tournament]):
    """Tournaments with at least one public table, newest first, each with its tables."""

    serializer_class = serializers.TournamentSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = ApiTournamentFilter

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.tournaments_list()


class RatedTableListView(PublicReadMixin, generics.ListAPIView[Table]):
    """Rated tables, the latest first."""

    serializer_class = serializers.RatedTableSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = RatedTableFilter

    def get_queryset(self) -> QuerySet[Table]:
        return rated_tables()


class TableDetailView(PublicReadMixin, APIView):
    @extend_schema(responses=serializers.TableSerializer)
    def get(self, request: Request, pk: int) -> Response:
        """A submitted or rated table: its crosstable, every game, each player's rating change, its promotions."""
        try:
            table = selectors.table_for_page(pk)
        except Table.DoesNotExist:
            raise NotFound(_("No public table has that number.")) from None
        crosstable = selectors.table_crosstable(table)
        return Response(serializers.TableSerializer(crosstable, context={"rounds": crosstable.rounds}).data)


class PromotionListView(PublicReadMixin, generics.ListAPIView[Table]):
    """Recent promotions, table by table, the latest table first (as FESA prints them under result tables)."""

    serializer_class = serializers.TablePromotionsSerializer

    def get_queryset(self) -> QuerySet[Table]:
        return selectors.promotion_tables()

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tables = self.paginate_queryset(self.get_queryset()) or []
        lines = selectors.table_promotions([t.pk for t in tables])
        recent = [{"table": t, "promotions": lines.get(t.pk, [])} for t in tables]
        return self.get_paginated_response(self.get_serializer(recent, many=True).data)


class PendingPromotionListView(PublicReadMixin, generics.ListAPIView[Promotion]):
    """Dan promotions waiting for a grade officer's approval, one line per player, the longest waiting first."""

    serializer_class = serializers.PendingPromotionSerializer

    def get_queryset(self) -> QuerySet[Promotion]:
        return selectors.pending_promotions()
