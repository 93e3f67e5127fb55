"""What the API says of the official lists: a list's heading, its entries as published, and a player's lines on
the lists he was on (the figures as published; never who published them)."""

from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers

from ratings.api.serializers import GradeField, PlayerSerializer, RatingListEntrySerializer, label_of
from ratings.api.serializers_clubs import AgeCategoryField, ClubMembershipSerializer, ClubRefField
from ratings.models import ListEntry, OfficialList


class OfficialListSerializer(serializers.Serializer[OfficialList]):
    """An official list: the rating list of a date as the federation published it."""

    date = serializers.DateField()
    title = serializers.CharField()
    published_at = serializers.DateTimeField()
    player_count = serializers.IntegerField()
    country_count = serializers.IntegerField()
    page = serializers.SerializerMethodField(help_text="The list's public page.")
    api = serializers.SerializerMethodField(help_text="The list with its entries.")
    all_txt = serializers.SerializerMethodField(help_text="all.txt as published (ISO-8859-1).")

    def get_page(self, official: OfficialList) -> str:
        return reverse("ratings:official_list", args=[official.date.isoformat()])

    def get_api(self, official: OfficialList) -> str:
        return reverse("api-v1:official_list", args=[official.date.isoformat()])

    def get_all_txt(self, official: OfficialList) -> str:
        return reverse("ratings:official_list_txt", args=[official.date.isoformat()])


class OfficialListEntrySerializer(RatingListEntrySerializer):
    """A line of an official list, as published: the rating list's line, with the figures the list published."""

    grade = GradeField(help_text="The public grade as published.")


class PlayerOfficialEntrySerializer(serializers.Serializer[ListEntry]):
    """The player's line on one official list, as published."""

    date = serializers.DateField(source="stored_list.official.date")
    title = serializers.CharField(source="stored_list.official.title")
    rank = serializers.IntegerField(allow_null=True, help_text="Null for a player still rated by performance.")
    country_rank = serializers.IntegerField(allow_null=True)
    rating = serializers.IntegerField()
    grade = GradeField()
    grade_label = serializers.SerializerMethodField()
    api = serializers.SerializerMethodField()

    def get_grade_label(self, entry: ListEntry) -> str | None:
        return label_of(entry.grade)

    def get_api(self, entry: ListEntry) -> str:
        return reverse("api-v1:official_list", args=[entry.stored_list.date.isoformat()])


class PlayerDetailSerializer(PlayerSerializer):
    """A player's standing today, club and categories, and lines on the official lists, the latest first."""

    # An age category is only its code and label: the date it is counted from stays private (docs/privacy.md).

    club = ClubRefField(source="groups.club", help_text="The player's club today, or None.")
    club_history = ClubMembershipSerializer(
        source="groups.club_history", many=True, help_text="Every change of club, the latest first."
    )
    age_category = AgeCategoryField(source="groups.age_category", help_text="The narrowest age category today.")
    womens_list = serializers.BooleanField(source="groups.womens_list", help_text="On the women's list.")
    official_lists = PlayerOfficialEntrySerializer(many=True, source="official_entries")
