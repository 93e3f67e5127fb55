"""Every route of docs/rules.md §7 becomes a promotion record; Kyu grades take effect, Dan grades wait.

Grade indexes: 10 = 11 Kyu, 11 = 10 Kyu, 20 = 1 Kyu, 21 = 1 Dan. For 1 Dan: LB 1680, MP 1740, UB 1800,
#LB 14, #MP 7; K is 24 from 1560 to 1919. Opponents stand at 6 Dan, so they are never promoted.
"""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.models import Promotion, PromotionRoute, PromotionStatus
from tests.grades.conftest import DRAW, WON, opponent, pending_grade, seasoned

pytestmark = pytest.mark.django_db
DAY = dt.date(2024, 5, 12)


def only_promotion(player_id: int) -> Promotion:
    records = list(Promotion.objects.filter(player_id=player_id))
    assert len(records) == 1, records
    return records[0]


def test_promotion_upper_bound_is_recorded_pending(play) -> None:
    # 1795 beating an opponent of 1795 gains about K/2 = 12 > 5, so the 41st game reaches UB(1 Dan) = 1800.
    player, other = seasoned(1795, 20), opponent(1795)
    table = play(player, other, WON, date=DAY)
    record = only_promotion(player.pk)
    assert (record.grade, record.route, record.status) == (21, PromotionRoute.UPPER_BOUND, PromotionStatus.PENDING)
    assert (record.table_id, record.round, record.game_number) == (table.pk, 1, 41)
    assert record.rating >= 1800
    assert not Promotion.objects.filter(player=other).exists()


def test_promotion_midpoint_run_completes_the_run(play) -> None:
    # Six ratings in a row at or above MP(1 Dan) = 1740; a draw against an equal keeps 1750, the seventh.
    player = seasoned(1750, 20, mp_run=6, lb_run=6, lb_mp_seen=True)
    play(player, opponent(1750), DRAW, date=DAY)
    record = only_promotion(player.pk)
    assert (record.grade, record.route, record.game_number) == (21, PromotionRoute.MIDPOINT_RUN, 41)


def test_promotion_lower_bound_run_needs_the_midpoint_seen(play) -> None:
    # 13 ratings at or above LB(1 Dan) = 1680, one of them above MP; a draw keeps 1700 (below MP): the 14th.
    player = seasoned(1700, 20, lb_run=13, lb_mp_seen=True)
    play(player, opponent(1700), DRAW, date=DAY)
    record = only_promotion(player.pk)
    assert (record.grade, record.route) == (21, PromotionRoute.LOWER_BOUND_RUN)


def test_promotion_lower_bound_run_without_midpoint_is_no_promotion(play) -> None:
    # The same run that never touched MP does not promote (R10).
    player = seasoned(1700, 20, lb_run=13, lb_mp_seen=False)
    play(player, opponent(1700), DRAW, date=DAY)
    assert not Promotion.objects.filter(player=player).exists()


def test_promotion_provisional_counts_from_game_nine(play) -> None:
    # Game 11 (provisional, 9..17) at 1925 reaches UB(2 Dan) = 1920, the grade after the next one.
    player = seasoned(1925, 20, games=10)
    play(player, opponent(1925), DRAW, date=DAY)
    record = only_promotion(player.pk)
    assert (record.grade, record.route, record.game_number) == (21, PromotionRoute.PROVISIONAL, 11)


def test_promotion_bound_to_get_it_has_no_round(play) -> None:
    # A draw keeps 1785: the MP run grows to 6 of 7. The first imaginary loss, 1785 - 24 = 1761 >= 1740,
    # would make it 7, so the player is bound to get 1 Dan now; it happened on no real game.
    player = seasoned(1785, 20, mp_run=5, lb_run=5, lb_mp_seen=True)
    play(player, opponent(1785), DRAW, date=DAY)
    record = only_promotion(player.pk)
    assert (record.grade, record.route, record.round, record.game_number) == (
        21,
        PromotionRoute.BOUND_TO_GET_IT,
        None,
        42,
    )


def test_promotion_kyu_takes_effect_at_once(play) -> None:
    # 11 Kyu at 875 beats an equal: K(875) = 36 gives well over the 5 points to UB(10 Kyu) = 880.
    player = seasoned(875, 10)
    play(player, opponent(875), WON, date=DAY)
    record = only_promotion(player.pk)
    assert (record.grade, record.status) == (11, PromotionStatus.EFFECTIVE)
    player.refresh_from_db()
    assert (player.fesa_grade, player.grade) == (11, 11)
    assert pending_grade(player.pk) is None


def test_promotion_dan_waits_and_the_public_keeps_the_previous_grade(play) -> None:
    player = seasoned(1795, 20)
    play(player, opponent(1795), WON, date=DAY)
    player.refresh_from_db()
    assert (player.fesa_grade, player.grade) == (21, 20)  # computed 1 Dan, shown 1 Kyu ...
    assert pending_grade(player.pk) == 21  # ... with 1 Dan pending


def test_promotion_several_grades_in_one_game_each_get_a_record(play) -> None:
    # Game 11 at 2100: UB(2 Dan) = 1920 gives 1 Dan, then UB(3 Dan) = 2080 gives 2 Dan; UB(4 Dan) = 2240 not.
    player = seasoned(2100, 20, games=10)
    play(player, opponent(2100), DRAW, date=DAY)
    grades = list(Promotion.objects.filter(player=player).order_by("grade").values_list("grade", "status"))
    assert grades == [(21, PromotionStatus.PENDING), (22, PromotionStatus.PENDING)]


def test_promotion_rerating_unchanged_history_changes_no_record(play, rate, django_capture_on_commit_callbacks) -> None:
    from ratings.services.rerate import rerate_from

    player = seasoned(1795, 20)
    play(player, opponent(1795), WON, date=DAY)
    before = list(Promotion.objects.values())
    history_rows = Promotion.history.count()
    rerate_from(date=None)
    assert list(Promotion.objects.values()) == before
    assert Promotion.history.count() == history_rows  # no audit noise from a re-rate that changed nothing
