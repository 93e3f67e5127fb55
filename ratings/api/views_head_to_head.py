"""The API's head-to-head of two players: the same selector as the page (ratings/selectors/head_to_head.py)."""

from __future__ import annotations

from django.http import HttpResponsePermanentRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings.api.serializers import PlayerRefSerializer
from ratings.api.views import MOVED, MergedPlayer, PublicReadMixin, player_or_404
from ratings.selectors.head_to_head import head_to_head


class MeetingSerializer(serializers.Serializer[object]):
    table = serializers.IntegerField(source="table.pk", help_text="The table's id (its answer: /api/v1/tables/{id}/).")
    tournament = serializers.CharField(source="table.tournament.name")
    date = serializers.DateField()
    round = serializers.IntegerField()
    score = serializers.FloatField(allow_null=True, help_text="The first player's score; null: not played, not rated.")
    handicap = serializers.CharField()
    rating = serializers.IntegerField(source="rating_a", allow_null=True, help_text="The first player's, before.")
    opponent_rating = serializers.IntegerField(source="rating_b", allow_null=True, help_text="The other's, before.")
    expected = serializers.FloatField(allow_null=True, help_text="The first player's expected score.")


class HeadToHeadSerializer(serializers.Serializer[object]):
    player = PlayerRefSerializer(source="a")
    opponent = PlayerRefSerializer(source="b")
    score = serializers.FloatField(source="score_a")
    opponent_score = serializers.FloatField(source="score_b")
    expected = serializers.FloatField(source="expected_a", allow_null=True)
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    games = MeetingSerializer(many=True)


class HeadToHeadView(PublicReadMixin, APIView):
    @extend_schema(responses={200: HeadToHeadSerializer, 301: MOVED})
    def get(self, request: Request, federation_id: str, other_id: str) -> Response | HttpResponsePermanentRedirect:
        """Every game of the public tables between two players, oldest first, from the first player's side:
        the score, each game's table, date and result, and the score their ratings expected. A record merged
        into another redirects to the kept player's head-to-head."""
        ids = [federation_id, other_id]
        players = []
        for position, federation_id_given in enumerate(ids):
            try:
                players.append(player_or_404(federation_id_given))
            except MergedPlayer as merged:
                ids[position] = merged.kept
                return HttpResponsePermanentRedirect(reverse("api-v1:head_to_head", args=ids))
        a, b = players
        if a.pk == b.pk:
            raise NotFound(_("A player has no games against himself."))
        return Response(HeadToHeadSerializer(head_to_head(a, b)).data)
