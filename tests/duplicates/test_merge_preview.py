"""The merge preview shows exactly what the merge then stores, also when the merge redoes no rated table."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.models import GameResult
from ratings.services.merge.apply import player_merge, player_merge_preview
from tests.corrections.helpers import player_columns, previewed, promotion_records, rerate_and_check, stored_changes
from tests.factories import make_player, make_rating_officer
from tests.grades.conftest import START, opponent, play, rate, seasoned

__all__ = ["play", "rate"]  # the fixtures

pytestmark = pytest.mark.django_db


def test_a_duplicate_without_games_merged_into_a_player_from_the_opening_balance_changes_nobody(play) -> None:
    kept = seasoned(1115, 15, family_name="Moreau")  # his history starts at the FESA opening balance
    play(kept, opponent(1400), GameResult.SECOND_WON, date=START + dt.timedelta(days=10))
    kept.refresh_from_db()
    assert kept.rating != 1115  # rated since: his current rating is no longer his opening state's
    duplicate = make_player("Moreau", nationality=kept.nationality.code)

    players, promotions = player_columns(), promotion_records()
    preview = player_merge_preview(duplicate=duplicate, kept=kept)
    assert preview.players == [] and preview.tables_redone == 0
    player_merge(user=make_rating_officer(), duplicate=duplicate, kept=kept, reason="Entered twice", expected=None)
    rerate_and_check()
    assert previewed(preview) == stored_changes(players, promotions)


def test_the_record_from_the_opening_balance_merged_into_his_twin_hands_over_his_grade(play) -> None:
    """The FESA opening state moves to the kept record, and with it the grade it makes public: the merged
    record is previewed without it, as the save leaves him."""
    moreau = seasoned(1115, 15, family_name="Moreau")
    play(moreau, opponent(1400), GameResult.SECOND_WON, date=START + dt.timedelta(days=10))
    twin = make_player("Moreau", nationality=moreau.nationality.code)

    players, promotions = player_columns(), promotion_records()
    preview = player_merge_preview(duplicate=moreau, kept=twin)
    assert {c.player_id: c.grade for c in preview.players} == {moreau.pk: (15, 0), twin.pk: (0, 15)}
    player_merge(user=make_rating_officer(), duplicate=moreau, kept=twin, reason="Entered twice", expected=None)
    rerate_and_check()
    assert previewed(preview) == stored_changes(players, promotions)
