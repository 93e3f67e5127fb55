"""The demo's clubs, host clubs and women's list (ratings/demo/clubs.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.demo.clubs import demo_clubs_build
from ratings.models import Club, ClubMembership, Player, Tournament
from tests.factories import make_player, make_tournament

pytestmark = pytest.mark.django_db


def test_demo_clubs_are_deterministic_and_consent_is_recorded() -> None:
    for i in range(40):
        make_player(f"Family{i}", "Marie" if i % 2 else "Jean", nationality="FR")
    tournament = make_tournament(date=dt.date(2025, 3, 1))
    Tournament.objects.filter(pk=tournament.pk).update(city="Lyon")
    summary = demo_clubs_build(seed=3)
    assert summary.clubs == Club.objects.count() == 3
    assert summary.memberships == ClubMembership.objects.count() > 20
    assert Tournament.objects.get().host_club.city == "Lyon"  # type: ignore[union-attr]
    women = Player.objects.filter(on_womens_list=True)
    assert women.count() == summary.womens_list > 0
    assert not women.filter(womens_list_consent__isnull=True).exists()
    assert set(women.values_list("given_name", flat=True)) == {"Marie"}
    memberships = list(ClubMembership.objects.order_by("player_id", "since").values_list("player_id", "club_id"))
    ClubMembership.objects.all().delete()
    Club.objects.all().delete()
    demo_clubs_build(seed=3)
    names_again = list(ClubMembership.objects.order_by("player_id", "since").values_list("player_id", "club__city"))
    assert len(names_again) == len(memberships)
