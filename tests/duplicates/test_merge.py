"""Merging a duplicate player: what moves, the re-rate, the preview, undo and the refusals."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from ratings.models import Correction, Game, HistoricalRow, Player, Promotion, TableEntry, TableStatus
from ratings.services.corrections.apply import UndoRefused, correction_preview, correction_undo, correction_undo_change
from ratings.services.merge.apply import MergeRefused, player_merge, player_merge_preview
from tests.corrections.helpers import player_columns, previewed, promotion_records, rerate_and_check, stored_changes
from tests.duplicates.helpers import twice_entered
from tests.factories import add_game, make_director, make_player, make_rating_officer, make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_merge_moves_everything_re_rates_and_undo_gives_it_back(seed: int) -> None:
    kept, duplicate, _others, _tables = twice_entered(seed)
    officer = make_rating_officer()
    original = player_columns()
    dup_tables = set(TableEntry.objects.filter(player=duplicate).values_list("table_id", flat=True))
    assert len(dup_tables) == 4

    players, promotions = player_columns(), promotion_records()
    preview = player_merge_preview(duplicate=duplicate, kept=kept)
    assert preview.players and {c.player_id for c in preview.players} >= {kept.pk, duplicate.pk}
    assert [c.size for c in preview.players] == sorted((c.size for c in preview.players), reverse=True)
    correction = player_merge(
        user=officer, duplicate=duplicate, kept=kept, reason="Entered twice at Milan", expected=None
    )
    rerate_and_check()
    assert previewed(preview) == stored_changes(players, promotions)

    duplicate.refresh_from_db()
    kept.refresh_from_db()
    assert correction.kind == Correction.Kind.MERGE and correction.player == duplicate
    wanted = f"Rossi Matteo ({duplicate.federation_id}) merged into Rossi Mateo ({kept.federation_id})"
    assert wanted in correction.summary
    assert duplicate.merged_into == kept
    assert not TableEntry.objects.filter(player=duplicate).exists()
    assert not Game.objects.filter(first=duplicate).exists() and not Game.objects.filter(second=duplicate).exists()
    assert set(TableEntry.objects.filter(player=kept).values_list("table_id", flat=True)) >= dup_tables
    assert kept.games > 0
    assert duplicate.rating == 0 and duplicate.games == 0
    assert set(correction.after["moved"]["entries"]) == set(
        TableEntry.objects.filter(table_id__in=dup_tables, player=kept).values_list("pk", flat=True)
    )

    undo_change = correction_undo_change(correction)
    undo_preview = correction_preview(undo_change)
    players, promotions = player_columns(), promotion_records()
    undo = correction_undo(correction=correction, user=officer, reason="They are two people after all", expected=None)
    rerate_and_check()
    assert previewed(undo_preview) == stored_changes(players, promotions)
    duplicate.refresh_from_db()
    assert undo.undoes == correction and duplicate.merged_into is None
    assert set(TableEntry.objects.filter(player=duplicate).values_list("table_id", flat=True)) == dup_tables
    assert player_columns() == original


def test_the_kept_player_takes_the_prior_grade_of_the_duplicate_when_he_has_none() -> None:
    kept, duplicate, _others, _tables = twice_entered()
    # Swap the roles: the player with the prior grade (and the promotions) is the duplicate.
    moving = set(Promotion.objects.filter(player=kept).values_list("pk", flat=True))
    players, promotions = player_columns(), promotion_records()
    preview = player_merge_preview(duplicate=kept, kept=duplicate)
    player_merge(user=make_rating_officer(), duplicate=kept, kept=duplicate, reason="Entered twice", expected=None)
    rerate_and_check()
    stored_players, stored_promotions = stored_changes(players, promotions)
    assert set(Promotion.objects.filter(player=duplicate).values_list("pk", flat=True)) >= moving
    # A record that changed hands is the same record, not one that appears: the preview leaves it out.
    handed = {
        (duplicate.pk, g, "appears") for g in Promotion.objects.filter(pk__in=moving).values_list("grade", flat=True)
    }
    assert previewed(preview) == (stored_players, stored_promotions - handed)
    duplicate.refresh_from_db()
    kept.refresh_from_db()
    assert (duplicate.prior_grade_kind, duplicate.prior_grade_level) == ("kyu", 3)
    assert kept.prior_grade_kind == ""


def test_two_players_of_one_table_are_not_merged() -> None:
    a, b = make_player("Rossi", "Mateo"), make_player("Rossi", "Matteo")
    table = make_table([a, b])
    add_game(table, 1, a, b)
    with pytest.raises(MergeRefused, match="both played in one table"):
        player_merge(user=make_rating_officer(), duplicate=b, kept=a, reason="Entered twice", expected=None)
    assert Player.objects.get(pk=b.pk).merged_into is None


def test_published_results_in_one_table_refuse_too_and_move_otherwise() -> None:
    a, b = make_player("Rossi", "Mateo"), make_player("Rossi", "Matteo")
    table = make_table([], status=TableStatus.HISTORICAL)
    row = dict(table=table, date=table.date, sequence=1, rating_after=1500, rated_games=3, score=1.5)
    HistoricalRow.objects.create(player=a, grade_before=0, grade_after=0, **row)
    moved = HistoricalRow.objects.create(player=b, grade_before=0, grade_after=0, **row)
    with pytest.raises(MergeRefused):
        player_merge(user=make_rating_officer(), duplicate=b, kept=a, reason="Entered twice", expected=None)
    moved.delete()
    other = make_table([], status=TableStatus.HISTORICAL, date=table.date, sequence=2)
    moved = HistoricalRow.objects.create(player=b, grade_before=0, grade_after=0, **{**row, "table": other})
    player_merge(user=make_rating_officer(), duplicate=b, kept=a, reason="Entered twice", expected=None)
    moved.refresh_from_db()
    assert moved.player == a


def test_different_prior_grades_are_refused_until_corrected() -> None:
    a = make_player("Rossi", "Mateo", prior=("kyu", 3))
    b = make_player("Rossi", "Matteo", prior=("dan", 1))
    with pytest.raises(MergeRefused, match="different prior grades"):
        player_merge(user=make_rating_officer(), duplicate=b, kept=a, reason="Entered twice", expected=None)


def test_a_director_cannot_merge() -> None:
    a, b = make_player("Rossi", "Mateo"), make_player("Rossi", "Matteo")
    with pytest.raises(PermissionDenied):
        player_merge(user=make_director(), duplicate=b, kept=a, reason="Entered twice", expected=None)


def test_a_merged_player_is_not_merged_again() -> None:
    a, b, c = make_player("Rossi", "Mateo"), make_player("Rossi", "Matteo"), make_player("Rossi", "Mattéo")
    officer = make_rating_officer()
    player_merge(user=officer, duplicate=b, kept=a, reason="Entered twice", expected=None)
    with pytest.raises(MergeRefused, match="merged already"):
        player_merge(user=officer, duplicate=c, kept=b, reason="Entered twice", expected=None)


def test_a_merge_is_undone_only_while_what_it_moved_is_as_it_left_it() -> None:
    kept, duplicate, _others, _tables = twice_entered()
    third = make_player("Rossi", "Matteo", nationality="")
    officer = make_rating_officer()
    first = player_merge(user=officer, duplicate=duplicate, kept=kept, reason="Entered twice", expected=None)
    rerate_and_check()
    second = player_merge(user=officer, duplicate=kept, kept=third, reason="And a third time", expected=None)
    rerate_and_check()
    with pytest.raises(UndoRefused):
        correction_undo_change(first)
    correction_undo(correction=second, user=officer, reason="Not the third", expected=None)
    rerate_and_check()
    correction_undo(correction=first, user=officer, reason="Two people", expected=None)
    rerate_and_check()
    assert Player.objects.filter(merged_into__isnull=False).count() == 0
