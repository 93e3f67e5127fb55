"""A player's club (today's, and every change) and categories in the API's answer about him: the category only,
never the date of birth."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Club
from ratings.services.clubs.memberships import club_membership_set
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def test_player_answer_holds_his_club_its_history_and_his_categories(client: Client) -> None:
    lyon = Club.objects.create(name="Shogi Club Lyon", country="FR", city="Lyon")
    paris = Club.objects.create(name="Paris Shogi", country="FR")
    birth = days_ago(0).replace(year=days_ago(0).year - 14)  # born 14 years ago today: under 16
    player = seasoned(1700, date_of_birth=birth, on_womens_list=True, womens_list_consent=days_ago(100))
    club_membership_set(player=player, club=lyon, since=days_ago(400))
    club_membership_set(player=player, club=paris, since=days_ago(30))
    club_membership_set(player=player, club=lyon, since=days_ago(-10))  # recorded ahead: not yet his club
    answer = client.get(reverse("api-v1:player", args=[player.federation_id])).json()
    assert answer["club"] == {"id": paris.pk, "name": "Paris Shogi", "page": f"/clubs/{paris.pk}/"}
    assert [(m["since"], m["club"] and m["club"]["name"]) for m in answer["club_history"]] == [
        (days_ago(-10).isoformat(), "Shogi Club Lyon"),
        (days_ago(30).isoformat(), "Paris Shogi"),
        (days_ago(400).isoformat(), "Shogi Club Lyon"),
    ]
    assert answer["age_category"] == {"code": "U16", "label": "Under 16"}
    assert answer["womens_list"] is True
    assert birth.isoformat() not in str(answer) and "date_of_birth" not in answer
    assert "consent" not in str(answer)
    page = client.get(reverse("ratings:player", args=[player.federation_id])).content.decode()
    assert "Paris Shogi" in page and "Under 16" in page and "#category-W" in page
    assert birth.isoformat() not in page


def test_player_answer_without_club_nor_category(client: Client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.WOMENS_LIST = False
    player = seasoned(1700, on_womens_list=True, womens_list_consent=days_ago(100))
    club_membership_set(player=player, club=Club.objects.create(name="Gone", country="FR"), since=days_ago(400))
    club_membership_set(player=player, club=None, since=days_ago(30))
    answer = client.get(reverse("api-v1:player", args=[player.federation_id])).json()
    assert answer["club"] is None
    assert [m["club"] and m["club"]["name"] for m in answer["club_history"]] == [None, "Gone"]
    assert answer["age_category"] is None
    assert answer["womens_list"] is False  # the federation publishes no women's list
