"""The answers about clubs, the rankings and the categories (ratings/api/views_clubs.py): what the public pages
show, never a date of birth nor a consent (a category is only its code and label)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ratings.api.serializers import GradeField, PlayerRefSerializer
from ratings.models import Club, Player, Tournament


class ClubSerializer(serializers.Serializer[Club]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField(source="country.code", help_text="ISO 3166 code.")
    city = serializers.CharField()
    website = serializers.CharField(help_text="The club's web site, or empty.")
    page = serializers.SerializerMethodField(help_text="The club's public page.")

    def get_page(self, club: Club) -> str:
        return reverse("ratings:club", args=[club.pk])


def _nullable_object(description: str, **properties: dict[str, Any]) -> dict[str, Any]:
    """An object or null, written out: a reference to a component cannot be made nullable in OpenAPI 3.0 (a
    validator reads ``allOf`` with ``nullable`` beside it as the component's own, not nullable, schema)."""
    return {
        "type": "object",
        "nullable": True,
        "description": description,
        "properties": properties,
        "required": list(properties),
    }


CLUB_REF = {
    "id": {"type": "integer"},
    "name": {"type": "string"},
    "page": {"type": "string", "description": "The club's public page."},
}


def club_ref(club: Club | None) -> dict[str, Any] | None:
    return None if club is None else {"id": club.pk, "name": club.name, "page": reverse("ratings:club", args=[club.pk])}


@extend_schema_field(_nullable_object("A club, or None.", **CLUB_REF))
class ClubRefField(serializers.Field):
    def to_representation(self, club: Club | None) -> dict[str, Any] | None:
        return club_ref(club)


@extend_schema_field(
    _nullable_object(
        "A category: its code (U<age>: under that age; S<age>: that age and over) and label; or None.",
        code={"type": "string"},
        label={"type": "string"},
    )
)
class AgeCategoryField(serializers.Field):
    def to_representation(self, category: Any) -> dict[str, str] | None:
        return None if category is None else {"code": category.code, "label": category.label}


class ClubMembershipSerializer(serializers.Serializer[object]):
    since = serializers.DateField(help_text="From this day on, until the next change.")
    club = ClubRefField(help_text="None: in no club from that day.")


class RankedGroupSerializer(serializers.Serializer[object]):
    rank = serializers.IntegerField(allow_null=True, help_text="None: fewer ranked players than the ranking counts.")
    key = serializers.CharField(help_text="The club's id, or the country's ISO 3166 code.")
    name = serializers.CharField()
    country = serializers.CharField()
    players = serializers.IntegerField(help_text="Players on today's top list (active, established).")
    average = serializers.FloatField(allow_null=True, help_text="The average rating of the best players counted.")


class RankingSerializer(serializers.Serializer[object]):
    top = serializers.IntegerField(help_text="How many of the best players the average counts.")
    results = RankedGroupSerializer(many=True)


class MemberSerializer(PlayerRefSerializer):
    rating = serializers.SerializerMethodField()
    grade = GradeField()
    games = serializers.IntegerField()

    def get_rating(self, player: Player) -> int | None:
        return player.rating if player.games else None


class HostedTournamentSerializer(serializers.Serializer[Tournament]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    end_date = serializers.DateField()


class ClubDetailSerializer(serializers.Serializer[object]):
    club = ClubSerializer()
    top_average = serializers.FloatField(allow_null=True)
    members = MemberSerializer(many=True, help_text="Today's members, strongest first.")
    tournaments = HostedTournamentSerializer(many=True, help_text="Tournaments it hosted with a public table.")


class CategoryTopSerializer(serializers.Serializer[object]):
    code = serializers.CharField(help_text="U<age>: under that age; S<age>: that age and over; W: the women's list.")
    label = serializers.CharField()  # type: ignore[assignment]  # a declared field: DRF's metaclass takes it out
    players = MemberSerializer(many=True)
