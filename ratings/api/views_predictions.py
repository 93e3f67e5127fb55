"""How well the ratings predict, as JSON: the stored comparison of rating systems (ratings/services/predictions.py)
and how far a run on the current data has come. Not kept in the page cache: a run's progress moves while the
data version stays."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings.models import PredictionReport
from ratings.selectors.predictions import prediction_reports
from ratings.selectors.versions import data_version


class PredictionRunSerializer(serializers.ModelSerializer[PredictionReport]):
    class Meta:
        model = PredictionReport
        fields = ["version", "status", "tables_done", "tables_total", "started_at", "finished_at"]


class FiguresSerializer(serializers.Serializer[dict[str, Any]]):
    games = serializers.IntegerField(help_text="Games the figures rest on.")
    decisive = serializers.IntegerField(help_text="Of them, games not drawn.")
    hits = serializers.FloatField(allow_null=True, help_text="Share of decisive games the favourite won.")
    brier = serializers.FloatField(allow_null=True, help_text="Mean squared error of the expected score.")
    log_loss = serializers.FloatField(allow_null=True, help_text="Mean log loss, expectations held in 0.001..0.999.")
    calibration = serializers.ListField(
        child=serializers.DictField(), help_text="Ten bins of the favourite's expectation: games, expected, actual."
    )


class PredictionReportSerializer(PredictionRunSerializer):
    systems = serializers.ListField(child=serializers.CharField(), source="result.systems")
    years = serializers.ListField(child=serializers.CharField(), source="result.years")
    games = serializers.IntegerField(source="result.games")
    tables = serializers.IntegerField(source="result.tables")
    figures = serializers.DictField(
        child=serializers.DictField(child=serializers.DictField(child=FiguresSerializer())),
        source="result.figures",
        help_text='By system, then year (or "all"), then "even" or "handicap".',
    )

    class Meta(PredictionRunSerializer.Meta):
        fields = [*PredictionRunSerializer.Meta.fields, "systems", "years", "games", "tables", "figures"]


class PredictionsAnswerSerializer(serializers.Serializer[dict[str, Any]]):
    up_to_date = serializers.BooleanField(help_text="Whether the report was computed on the current data.")
    current = PredictionRunSerializer(required=False, help_text="The run on the current data; absent before one.")
    report = PredictionReportSerializer(required=False, help_text="The newest finished report; absent before one.")


class PredictionsView(APIView):
    """Each rating system's predictions of the federation's games scored against the results: FESA's from the
    ratings the site stored, the others' from the tables before each game (docs/rules.md)."""

    @extend_schema(responses=PredictionsAnswerSerializer, summary="How well the ratings predict")
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        current, report = prediction_reports(data_version().key)
        answer: dict[str, Any] = {"up_to_date": report is not None and report is current}
        if current is not None:
            answer["current"] = PredictionRunSerializer(current).data
        if report is not None:
            answer["report"] = PredictionReportSerializer(report).data
        return Response(answer)
