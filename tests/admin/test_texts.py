"""What people read in the admin: ratings rounded as the rules round them, names rather than database ids."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import GameResult
from tests.factories import add_game, make_grade_officer, make_pending_promotion, make_player, make_table

pytestmark = pytest.mark.django_db


def test_game_is_named_by_its_players_not_their_ids() -> None:
    a, b = make_player("Abe", "Ken"), make_player("Berg", "Lena")
    game = add_game(make_table([a, b]), 1, a, b, GameResult.SECOND_WON)
    assert str(game) == "R1: Abe Ken v Berg Lena (second player won)"
    assert str(a.pk) not in str(game).replace("R1", "")


def test_promotion_page_shows_the_rating_rounded(client: Client) -> None:
    a, b = make_player("Abe", "Ken"), make_player("Berg", "Lena")
    table = make_table([a, b])
    promotion = make_pending_promotion(a, table, rating=1860.6666666666667)
    client.force_login(make_grade_officer())
    page = client.get(reverse("admin:ratings_promotion_change", args=[promotion.pk])).content.decode()
    assert "1861" in page and "1860.66" not in page and "1860,66" not in page
