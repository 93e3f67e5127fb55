"""Re-rating after a correction: the queue follows the corrected history; approved grades only get flagged."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction

from ratings import engine
from ratings.models import Player, Promotion, PromotionStatus, Table
from ratings.services.grades.promotions import (
    PromotionConflict,
    PromotionInvalid,
    SyncSummary,
    promotion_approve,
    promotion_confirm_flagged,
    promotion_reject,
    promotion_revoke,
    promotions_sync,
    promotions_table_deleted,
)
from ratings.services.rerate import rerate_request
from tests.factories import add_game, make_grade_officer, make_table
from tests.grades.conftest import LOST, WON, opponent, pending_grade, seasoned

pytestmark = pytest.mark.django_db
DAY = dt.date(2024, 5, 12)
LATER = dt.date(2024, 6, 9)

# 1 Kyu at 1795 against an equal: a win passes UB(1 Dan) = 1800 (see test_routes); a loss costs about 12
# and promotes nothing.


@pytest.fixture
def officer():
    return make_grade_officer()


def approved_then_unsupported(play, correct, officer) -> tuple[Player, Table]:
    """A 1 Dan won at 1795 and approved, then the promoting win corrected to a loss: the approved grade is no
    longer supported by the history."""
    player = seasoned(1795, 20)
    table = play(player, opponent(1795), WON, date=DAY)
    promotion_approve(promotion=Promotion.objects.get(player=player), user=officer, expected=None)
    correct(table, LOST)
    return player, table


def records(player) -> list[tuple[int, str, bool]]:
    rows = Promotion.objects.filter(player=player).values_list("grade", "status", "supported")
    return sorted(rows)


def test_correction_removing_a_pending_promotion_withdraws_it_with_the_reason(play, correct) -> None:
    player = seasoned(1795, 20)
    table = play(player, opponent(1795), WON, date=DAY)
    correct(table, LOST)
    record = Promotion.objects.get(player=player)
    assert (record.status, record.supported) == (PromotionStatus.WITHDRAWN, False)
    assert "no longer reaches 1 Dan" in record.flag_reason
    assert pending_grade(player.pk) is None


def test_correction_adding_a_promotion_queues_it_pending(play, correct) -> None:
    player = seasoned(1795, 20)
    table = play(player, opponent(1795), LOST, date=DAY)
    assert records(player) == []
    correct(table, WON)
    assert records(player) == [(21, PromotionStatus.PENDING, True)]


def test_correction_back_and_forth_keeps_the_withdrawn_record_and_adds_a_new_one(play, correct) -> None:
    player = seasoned(1795, 20)
    table = play(player, opponent(1795), WON, date=DAY)
    correct(table, LOST)
    correct(table, WON)
    assert records(player) == [(21, PromotionStatus.PENDING, True), (21, PromotionStatus.WITHDRAWN, False)]
    assert Promotion.objects.filter(player=player, status=PromotionStatus.PENDING).count() == 1


def test_correction_removing_a_kyu_promotion_withdraws_it_and_lowers_the_grade(play, correct) -> None:
    # 11 Kyu at 875: a win passes UB(10 Kyu) = 880, a loss does not.
    player = seasoned(875, 10)
    table = play(player, opponent(875), WON, date=DAY)
    correct(table, LOST)
    assert records(player) == [(11, PromotionStatus.WITHDRAWN, False)]
    player.refresh_from_db()
    assert player.grade == 10


def test_correction_removing_an_approved_grade_flags_it_and_keeps_it_public(play, correct, officer) -> None:
    player, _table = approved_then_unsupported(play, correct, officer)
    record = Promotion.objects.get(player=player)
    assert (record.status, record.supported) == (PromotionStatus.APPROVED, False)
    assert "no longer reaches 1 Dan" in record.flag_reason
    assert (record.decided_by, record.reviewed_at) == (officer, None)
    player.refresh_from_db()
    assert (player.fesa_grade, player.grade) == (20, 21)  # computed 1 Kyu, still shown 1 Dan


def test_flagged_grade_kept_by_the_officer_stays_with_who_and_why(play, correct, officer) -> None:
    player, _table = approved_then_unsupported(play, correct, officer)
    reviewer = make_grade_officer()
    record = Promotion.objects.get(player=player)
    with pytest.raises(PromotionInvalid):
        promotion_confirm_flagged(promotion=record, user=reviewer, reason="", expected=None)
    promotion_confirm_flagged(promotion=record, user=reviewer, reason="grade awarded on other merits", expected=None)
    record.refresh_from_db()
    assert (record.status, record.reviewed_by, record.review_reason) == (
        PromotionStatus.APPROVED,
        reviewer,
        "grade awarded on other merits",
    )
    assert record.decided_by == officer  # the approval's record stays
    with pytest.raises(PromotionConflict):  # kept once: not waiting for a decision any more
        promotion_confirm_flagged(promotion=record, user=reviewer, reason="again", expected=None)
    player.refresh_from_db()
    assert player.grade == 21


def test_flagged_grade_revoked_by_the_officer_lowers_the_public_grade(play, correct, officer) -> None:
    player, _table = approved_then_unsupported(play, correct, officer)
    record = Promotion.objects.get(player=player)
    promotion_revoke(promotion=record, user=officer, reason="the promoting game was a forfeit", expected=None)
    record.refresh_from_db()
    assert (record.status, record.reviewed_by) == (PromotionStatus.REVOKED, officer)
    assert record.review_reason == "the promoting game was a forfeit"
    player.refresh_from_db()
    assert player.grade == 20


def test_revoke_a_supported_approved_grade_conflicts(play, officer) -> None:
    player = seasoned(1795, 20)
    play(player, opponent(1795), WON, date=DAY)
    record = Promotion.objects.get(player=player)
    promotion_approve(promotion=record, user=officer, expected=None)
    with pytest.raises(PromotionConflict):
        promotion_revoke(promotion=record, user=officer, reason="no ground", expected=None)
    with pytest.raises(PromotionConflict):
        promotion_confirm_flagged(promotion=record, user=officer, reason="nothing flagged", expected=None)


def test_revoked_grade_reached_again_comes_back_pending(play, correct, officer) -> None:
    player, table = approved_then_unsupported(play, correct, officer)
    promotion_revoke(promotion=Promotion.objects.get(player=player), user=officer, reason="gone", expected=None)
    correct(table, WON)
    assert records(player) == [(21, PromotionStatus.PENDING, True), (21, PromotionStatus.REVOKED, False)]


def test_flagged_grade_supported_again_loses_its_flag(play, correct, officer) -> None:
    player, table = approved_then_unsupported(play, correct, officer)
    promotion_confirm_flagged(
        promotion=Promotion.objects.get(player=player), user=officer, reason="kept", expected=None
    )
    correct(table, WON)
    record = Promotion.objects.get(player=player)
    assert (record.status, record.supported, record.flag_reason, record.reviewed_at) == (
        PromotionStatus.APPROVED,
        True,
        "",
        None,
    )


def test_rejected_promotion_stays_rejected_through_corrections(play, correct, officer) -> None:
    player = seasoned(1795, 20)
    table = play(player, opponent(1795), WON, date=DAY)
    promotion_reject(promotion=Promotion.objects.get(player=player), user=officer, reason="no", expected=None)
    correct(table, LOST)
    assert records(player) == [(21, PromotionStatus.REJECTED, False)]
    correct(table, WON)
    assert records(player) == [(21, PromotionStatus.REJECTED, True)]  # no new request: the decision stands


@pytest.mark.slow
def test_correction_moving_a_promotion_to_a_later_table_keeps_the_decision(play, rate, correct, officer) -> None:
    # Two tables: a win at 1795 promotes in the first. Corrected to a loss (about 1783), the second table's
    # two wins against 1900s (about +16 each at K = 24) reach 1800 there instead: same grade, new table.
    player = seasoned(1795, 20)
    first = play(player, opponent(1795), WON, date=DAY)
    strong_a, strong_b = opponent(1900), opponent(1900)
    second = make_table([player, strong_a, strong_b], date=LATER)
    add_game(second, 1, player, strong_a, WON)
    add_game(second, 2, player, strong_b, WON)
    rate(second)
    record = Promotion.objects.get(player=player)
    assert record.table_id == first.pk
    promotion_approve(promotion=record, user=officer, expected=None)
    correct(first, LOST)
    record.refresh_from_db()
    assert (record.status, record.supported, record.table_id) == (PromotionStatus.APPROVED, True, second.pk)
    assert record.decided_by == officer


@pytest.mark.slow
def test_deleted_table_withdraws_its_pending_promotion_and_flags_an_approved_one(
    play, officer, django_capture_on_commit_callbacks
) -> None:
    pending_player, approved_player = seasoned(1795, 20), seasoned(1795, 20)
    pending_table = play(pending_player, opponent(1795), WON, date=DAY)
    approved_table = play(approved_player, opponent(1795), WON, date=DAY, sequence=2)
    promotion_approve(promotion=Promotion.objects.get(player=approved_player), user=officer, expected=None)
    for table in (pending_table, approved_table):
        # table_delete's steps, with promotions_table_deleted where it now deletes the table's promotions.
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            rerate_request(date=table.date, sequence=table.sequence, table_ids=[])
            promotions_table_deleted(table=table)
            table.delete()
    assert records(pending_player) == [(21, PromotionStatus.WITHDRAWN, False)]
    kept = Promotion.objects.get(player=approved_player)
    assert (kept.status, kept.supported, kept.table_id) == (PromotionStatus.APPROVED, False, None)
    assert "was deleted" in kept.flag_reason
    approved_player.refresh_from_db()
    assert approved_player.grade == 21  # still shown until a grade officer decides


def test_sync_with_what_the_records_already_say_writes_nothing(play) -> None:
    player = seasoned(1795, 20)
    table = play(player, opponent(1795), WON, date=DAY)
    record = Promotion.objects.get(player=player)
    same = engine.Promotion(
        grade=21, route=record.route, game_number=record.game_number, rating=record.rating, round=record.round
    )
    history_rows = Promotion.history.count()
    assert promotions_sync(tables=[table.pk], found=[(player.pk, table.pk, same)]) == SyncSummary()
    assert Promotion.history.count() == history_rows


def test_sync_moving_only_the_rating_updates_the_record_without_an_audit_row(play) -> None:
    player = seasoned(1795, 20)
    table = play(player, opponent(1795), WON, date=DAY)
    record = Promotion.objects.get(player=player)
    moved = engine.Promotion(
        grade=21, route=record.route, game_number=record.game_number, rating=record.rating + 3.5, round=record.round
    )
    history_rows = Promotion.history.count()
    assert promotions_sync(tables=[table.pk], found=[(player.pk, table.pk, moved)]) == SyncSummary(updated=1)
    record.refresh_from_db()
    assert record.rating == moved.rating
    assert Promotion.history.count() == history_rows  # the history's arithmetic, not an event


def test_sync_moving_a_promotion_to_another_game_records_it_once(play) -> None:
    player = seasoned(1795, 20)
    table = play(player, opponent(1795), WON, date=DAY)
    record = Promotion.objects.get(player=player)
    moved = engine.Promotion(
        grade=21, route=record.route, game_number=record.game_number + 1, rating=record.rating - 1, round=record.round
    )
    history_rows = Promotion.history.count()
    assert promotions_sync(tables=[table.pk], found=[(player.pk, table.pk, moved)]) == SyncSummary(updated=1)
    record.refresh_from_db()
    assert (record.game_number, record.rating) == (moved.game_number, moved.rating)
    assert Promotion.history.count() == history_rows + 1
    audit = record.history.first()
    assert (audit.history_change_reason, audit.game_number, audit.rating) == (
        "moved by re-rating",
        moved.game_number,
        moved.rating,
    )
