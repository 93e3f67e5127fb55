"""rows_update: many rows' columns in one set-based write, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction

from ratings.models import Category, Player
from ratings.services.bulk_write import rows_update
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def test_rows_update_sets_the_columns_of_the_rows_named_and_of_no_other() -> None:
    first, second, untouched = make_player(), make_player(), make_player()
    before = Player.objects.values("rating", "last_played", "category", "games").get(pk=untouched.pk)
    day = dt.date(2024, 3, 9)
    updated = rows_update(
        Player,
        ("rating", "last_played", "category"),
        [(first.pk, 1234, day, Category.ESTABLISHED), (second.pk, -5, None, Category.PROVISIONAL)],
    )
    assert updated == 2
    rows = dict(Player.objects.filter(pk__in=[first.pk, second.pk]).values_list("pk", "rating"))
    assert rows == {first.pk: 1234, second.pk: -5}
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.last_played, first.category) == (day, Category.ESTABLISHED)
    assert (second.last_played, second.category) == (None, Category.PROVISIONAL)
    assert Player.objects.values("rating", "last_played", "category", "games").get(pk=untouched.pk) == before


def test_rows_update_skips_missing_keys_and_can_run_twice_in_one_transaction() -> None:
    player = make_player()
    with transaction.atomic():
        assert rows_update(Player, ("games",), [(player.pk, 3), (player.pk + 10_000, 4)]) == 1
        assert rows_update(Player, ("games",), [(player.pk, 7)]) == 1
    player.refresh_from_db()
    assert player.games == 7
    assert rows_update(Player, ("games",), []) == 0
