"""What each API answer holds, field by field (never a model's every field: a new column stays private until
it is added here on purpose).

Only what the public pages show: names, countries, ratings, public grades, tables and games. Never a date of
birth, who created, decided, reviewed or rejected anything and why, a prior grade's source or note, nor the
grades the engine computed before a grade officer approved them.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ratings.engine import grade_label
from ratings.models import ListEntry, Player, Table, Tournament


class GradeField(serializers.IntegerField):
    """A grade as the engine numbers it (0: none); its label is in the ``*_label`` field beside it."""


def label_of(grade: int | None) -> str | None:
    return grade_label(grade) if grade else None


class PlayerRefSerializer(serializers.Serializer[Player]):
    """A player named in another answer (an opponent, a promoted player)."""

    federation_id = serializers.CharField()
    family_name = serializers.CharField()
    given_name = serializers.CharField()
    nationality = serializers.CharField(source="nationality.code", help_text="ISO 3166 code, or empty.")
    page = serializers.SerializerMethodField(help_text="The player's public page.")

    def get_page(self, player: Player) -> str:
        return reverse("ratings:player", args=[player.federation_id])


class PlayerSerializer(PlayerRefSerializer):
    """A player's standing today, as his page shows it."""

    is_professional = serializers.BooleanField(help_text="Professionals are left out of the rating lists.")
    rating = serializers.SerializerMethodField()
    games = serializers.IntegerField()
    category = serializers.CharField(help_text="unrated, provisional or established.")
    grade = GradeField(help_text="The public FESA grade: a Dan grade only once approved.")
    grade_label = serializers.SerializerMethodField()
    pending_grade = serializers.SerializerMethodField(
        help_text="The highest Dan grade waiting for approval (the top of a climb through several)."
    )
    prior_grade = serializers.CharField(source="prior_grade_label", help_text="A grade from elsewhere, or empty.")
    peak_rating = serializers.IntegerField()
    last_played = serializers.DateField(allow_null=True)

    @extend_schema_field({"type": "integer", "nullable": True, "description": "None before a first rated game."})
    def get_rating(self, player: Player) -> int | None:
        return player.rating if player.games else None

    def get_grade_label(self, player: Player) -> str | None:
        return label_of(player.grade)

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_pending_grade(self, player: Player) -> int | None:
        return getattr(player, "list_pending_grade", None)


class RatingListEntrySerializer(serializers.Serializer[ListEntry]):
    """A line of the rating list of a date."""

    # An entry of the stored list (ratings/models/official.py): the player as PlayerRefSerializer names him, then
    # his figures on the list.

    federation_id = serializers.CharField()
    family_name = serializers.CharField()
    given_name = serializers.CharField()
    nationality = serializers.CharField(help_text="ISO 3166 code, or empty.")
    page = serializers.SerializerMethodField(help_text="The player's public page.")
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="The rank on the whole list, whatever the filters; null for a player still rated by performance.",
    )
    country_rank = serializers.IntegerField(
        allow_null=True, help_text="The rank among the list's ranked players of the same country; null as ``rank``."
    )
    rating = serializers.IntegerField()
    games = serializers.IntegerField()
    category = serializers.CharField()
    grade = GradeField()
    grade_label = serializers.SerializerMethodField()
    pending_grade = serializers.SerializerMethodField()
    last_played = serializers.DateField(allow_null=True)

    def get_page(self, entry: ListEntry) -> str:
        return reverse("ratings:player", args=[entry.federation_id])

    def get_grade_label(self, entry: ListEntry) -> str | None:
        return label_of(entry.grade)

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_pending_grade(self, entry: ListEntry) -> int | None:
        return entry.shown_pending_grade


class TournamentRefSerializer(serializers.Serializer[Tournament]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField()
    country = serializers.CharField(source="country.code")
    start_date = serializers.DateField()
    end_date = serializers.DateField()


class TableRefSerializer(serializers.Serializer[Table]):
    """A table named in another answer."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    sequence = serializers.IntegerField(help_text="Order among the tables of the same date.")
    tournament = serializers.CharField(source="tournament.name")
    page = serializers.SerializerMethodField()
    api = serializers.SerializerMethodField()

    def get_page(self, table: Table) -> str:
        return reverse("ratings:table", args=[table.pk])

    def get_api(self, table: Table) -> str:
        return reverse("api-v1:table", args=[table.pk])


class TournamentTableSerializer(serializers.Serializer[Table]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    sequence = serializers.IntegerField()
    status = serializers.CharField(help_text="submitted (waiting to be rated) or rated.")
    player_count = serializers.IntegerField()
    api = serializers.SerializerMethodField()

    def get_api(self, table: Table) -> str:
        return reverse("api-v1:table", args=[table.pk])


class TournamentSerializer(TournamentRefSerializer):
    time_control = serializers.CharField()
    tables = TournamentTableSerializer(source="public_tables", many=True)


class GameLineSerializer(serializers.Serializer[Any]):
    """One game of a table, as it moved the player: the explanation his page gives."""

    round = serializers.IntegerField()
    opponent = PlayerRefSerializer(allow_null=True)
    score = serializers.FloatField()
    opponent_rating = serializers.IntegerField()
    effective_rating = serializers.IntegerField(help_text="The opponent's rating adjusted for the handicap.")
    handicap = serializers.CharField()
    handicap_given = serializers.BooleanField()
    rating_before_game = serializers.FloatField(allow_null=True)
    expected = serializers.FloatField(allow_null=True)
    k = serializers.IntegerField(allow_null=True)
    change = serializers.FloatField(allow_null=True)
    upset = serializers.BooleanField()
    bonus = serializers.FloatField(allow_null=True)
    total = serializers.FloatField(allow_null=True, help_text="Change plus bonus; None when rated by performance.")


class HistoryEntrySerializer(serializers.Serializer[Any]):
    """The player's rating through one table."""

    table = TableRefSerializer(source="row.table")
    method = serializers.CharField(source="row.method", help_text="normal or performance.")
    rating_before = serializers.IntegerField(source="row.rating_before")
    rating_after = serializers.IntegerField(source="row.rating_after")
    change = serializers.IntegerField(source="row.change", allow_null=True)
    performance = serializers.FloatField(source="row.performance", allow_null=True)
    rated_games = serializers.IntegerField(source="row.rated_games")
    score = serializers.FloatField(source="row.score")
    games_before = serializers.IntegerField(source="row.games_before")
    games_after = serializers.IntegerField(source="row.games_after")
    games = GameLineSerializer(many=True)


class GradeStepSerializer(serializers.Serializer[Any]):
    """Promotions of one table with one decision: from ``grade_from`` up to ``grade_to``."""

    grade_from = serializers.IntegerField(source="low")
    grade_to = serializers.IntegerField(source="high")
    grade_to_label = serializers.SerializerMethodField()
    status = serializers.CharField(help_text="effective, pending, approved, rejected or revoked.")
    routes = serializers.ListField(child=serializers.CharField())
    approved_on = serializers.SerializerMethodField(help_text="The day an approved Dan grade was approved.")
    table = TableRefSerializer(allow_null=True)

    def get_grade_to_label(self, step: Any) -> str | None:
        return label_of(step.high)

    @extend_schema_field({"type": "string", "format": "date", "nullable": True})
    def get_approved_on(self, step: Any) -> str | None:
        if step.status != "approved" or step.decided_at is None:
            return None
        return str(timezone.localtime(step.decided_at).date().isoformat())


class PlayerHistorySerializer(serializers.Serializer[Any]):
    player = PlayerSerializer()
    tables = HistoryEntrySerializer(many=True, help_text="Oldest first.")
    grades = GradeStepSerializer(many=True, help_text="Newest first.")


class CrossCellSerializer(serializers.Serializer[Any]):
    """A round of a player in the crosstable: ``12+`` (beat number 12), ``3-(+R)``, ``0+`` (a bye)."""

    round = serializers.IntegerField()
    text = serializers.CharField()
    outcome = serializers.CharField(help_text="win, loss, draw, or empty without a game.")
    opponent = serializers.CharField(allow_null=True, help_text="The opponent's federation id.")
    handicap = serializers.CharField()
    handicap_received = serializers.BooleanField()
    played = serializers.BooleanField(help_text="False for a forfeit: kept in the standings, not rated.")
    replay_draw = serializers.BooleanField()


class CrossRowSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = PlayerRefSerializer()
    grade = GradeField(help_text="The public grade before the table.")
    grade_label = serializers.SerializerMethodField()
    rating = serializers.IntegerField(allow_null=True, help_text="Before the table; when starred, the new rating.")
    starred = serializers.BooleanField(help_text="Rated by performance.")
    change = serializers.IntegerField(allow_null=True)
    rating_after = serializers.SerializerMethodField()
    points = serializers.FloatField()
    rounds = serializers.SerializerMethodField()

    def get_grade_label(self, row: Any) -> str | None:
        return label_of(row.grade)

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_rating_after(self, row: Any) -> int | None:
        return row.row.rating_after if row.row is not None else None

    @extend_schema_field(CrossCellSerializer(many=True))
    def get_rounds(self, row: Any) -> list[dict[str, Any]]:
        cells = zip(self.context["rounds"], row.cells, strict=True)
        return [
            {
                "round": number,
                "text": cell.text,
                "outcome": cell.outcome,
                "opponent": cell.opponent.federation_id if cell.opponent is not None else None,
                "handicap": cell.handicap,
                "handicap_received": cell.handicap_received,
                "played": cell.played,
                "replay_draw": cell.replay_draw,
            }
            for number, cell in cells
        ]


class TablePromotionSerializer(serializers.Serializer[Any]):
    """What a table did to a player's grade: granted (in effect or approved), and a Dan grade still pending."""

    player = PlayerRefSerializer()
    grade_before = serializers.IntegerField()
    granted = serializers.IntegerField(allow_null=True)
    granted_label = serializers.SerializerMethodField()
    pending = serializers.IntegerField(allow_null=True)
    pending_label = serializers.SerializerMethodField()

    def get_granted_label(self, line: Any) -> str | None:
        return label_of(line.granted)

    def get_pending_label(self, line: Any) -> str | None:
        return label_of(line.pending)


class TableSerializer(serializers.Serializer[Any]):
    """A submitted or rated table: the crosstable with every game and rating change, and its promotions."""

    id = serializers.IntegerField(source="table.id")
    name = serializers.CharField(source="table.name")
    date = serializers.DateField(source="table.date")
    sequence = serializers.IntegerField(source="table.sequence")
    status = serializers.CharField(source="table.status", help_text="submitted (not rated yet) or rated.")
    tournament = TournamentRefSerializer(source="table.tournament")
    page = serializers.SerializerMethodField()
    rounds = serializers.ListField(child=serializers.IntegerField())
    has_handicaps = serializers.BooleanField()
    rows = CrossRowSerializer(many=True, help_text="In seat order.")
    promotions = TablePromotionSerializer(many=True)

    def get_page(self, crosstable: Any) -> str:
        return reverse("ratings:table", args=[crosstable.table.pk])


class RatedTableSerializer(TableRefSerializer):
    player_count = serializers.IntegerField()
    rated_at = serializers.DateTimeField(source="first_rated_at", allow_null=True)
    rerated_at = serializers.DateTimeField(source="last_rerated_at", allow_null=True)


class TablePromotionsSerializer(serializers.Serializer[Any]):
    table = TableRefSerializer()
    promotions = TablePromotionSerializer(many=True)


class PendingPromotionSerializer(serializers.Serializer[Any]):
    """A player's Dan promotions waiting for approval: the lowest, and the highest found."""

    player = PlayerRefSerializer()
    grade = GradeField()
    grade_label = serializers.SerializerMethodField()
    highest_pending = serializers.IntegerField()
    route = serializers.CharField()
    table = TableRefSerializer(allow_null=True)

    def get_grade_label(self, promotion: Any) -> str | None:
        return label_of(promotion.grade)
