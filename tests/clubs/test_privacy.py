"""The privacy export and erasure cover clubs, categories and the women's list's consent (docs/privacy.md)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from ratings.models import Club, ClubMembership
from ratings.services.clubs.memberships import club_membership_set
from ratings.services.privacy import player_erase, player_export
from tests.factories import make_player, make_rating_officer

pytestmark = pytest.mark.django_db


def test_export_holds_clubs_categories_and_consent() -> None:
    club = Club.objects.create(name="Kyoto Kai", country="JP")
    player = make_player(
        date_of_birth=dt.date(2012, 1, 1), on_womens_list=True, womens_list_consent=dt.date(2026, 2, 3)
    )
    club_membership_set(player=player, club=club, since=dt.date(2025, 1, 1))
    document = json.loads(player_export(player=player, user=make_rating_officer()))
    clubs = document["clubs"]
    assert clubs[0]["club_name"] == "Kyoto Kai" and clubs[0]["since"] == "2025-01-01"
    assert any(c.get("change") == "created" for c in clubs)
    assert document["categories"] == {
        "age_category": "U16",
        "on_womens_list": True,
        "womens_list_consent": "2026-02-03",
    }


def test_erasure_removes_clubs_and_clears_the_womens_list_and_consent() -> None:
    club = Club.objects.create(name="Kyoto Kai", country="JP")
    player = make_player(on_womens_list=True, womens_list_consent=dt.date(2026, 2, 3))
    club_membership_set(player=player, club=club, since=dt.date(2025, 1, 1))
    player_erase(player=player, user=make_rating_officer())
    player.refresh_from_db()
    assert not player.on_womens_list and player.womens_list_consent is None
    assert not ClubMembership.objects.filter(player=player).exists()
    assert not ClubMembership.history.filter(player_id=player.pk).exists()  # type: ignore[attr-defined]
    assert not player.history.filter(womens_list_consent__isnull=False).exists()  # type: ignore[attr-defined]
    assert Club.objects.filter(pk=club.pk).exists()  # the club itself is no one's personal data
