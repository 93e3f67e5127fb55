"""Prior grades: set by rating officers only, and a change re-rates from the player's first table."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from ratings.models import PendingRerate, Player, RatingRow, Table, TableStatus
from ratings.services.grades.prior import player_set_prior_grade
from tests.factories import make_director, make_grade_officer, make_player, make_rating_officer, make_user
from tests.grades.conftest import DRAW, seasoned

pytestmark = pytest.mark.django_db
DAY = dt.date(2024, 5, 12)
LATER = dt.date(2024, 6, 9)


def equal(rating: int) -> Player:
    """An established opponent with no bonus left, whose grade cannot move."""
    return seasoned(rating, 26)


def row(player: Player, table) -> RatingRow:
    return RatingRow.objects.get(player=player, table=table)


@pytest.fixture
def newcomer(play) -> tuple[Player, object, object]:
    """A newcomer with a prior 1 Dan who draws a 1740 in his first table, then plays a second one."""
    player = make_player(prior=("dan", 1))
    first = play(player, equal(1740), DRAW, date=DAY)
    second = play(player, equal(1700), DRAW, date=LATER)
    return player, first, second


@pytest.mark.slow
def test_prior_grade_decides_the_first_rating(newcomer) -> None:
    # By hand: a prior 1 Dan stands for MP(1 Dan) = 1740 (R7), so the performance pairs are (1740, 1),
    # (1740, 0) and the draw against 1740, whose change is 24 * (0.5 - 0.5) = 0: the root is exactly 1740.
    player, first, _second = newcomer
    assert row(player, first).rating_after == 1740


@pytest.mark.slow
def test_prior_grade_change_rerates_from_the_first_table(newcomer, play, django_capture_on_commit_callbacks) -> None:
    player, first, second = newcomer
    with django_capture_on_commit_callbacks(execute=True):
        requested = player_set_prior_grade(
            player=player, kind="kyu", level=3, source="national", note="corrected", user=make_rating_officer()
        )
    assert requested
    # The oracle: a twin who had the prior 3 Kyu from the start, in the same first table.
    twin = make_player(prior=("kyu", 3))
    twin_table = play(twin, equal(1740), DRAW, date=DAY, sequence=2)
    assert row(player, first).rating_after == row(twin, twin_table).rating_after != 1740
    assert row(player, second).state_before == row(player, first).state_after  # what followed was redone
    player.refresh_from_db()
    assert player.rating == row(player, second).rating_after
    assert (player.prior_grade_kind, player.prior_grade_level, player.prior_grade_source) == ("kyu", 3, "national")


def test_prior_grade_change_already_saved_by_the_caller_still_rerates(newcomer) -> None:
    # An admin form may have saved the new values before calling: the engine's view decides, not the row's.
    player, _first, _second = newcomer
    Player.objects.filter(pk=player.pk).update(prior_grade_kind="kyu", prior_grade_level=3)
    player.refresh_from_db()
    assert player_set_prior_grade(player=player, kind="kyu", level=3, source="nsr")
    assert PendingRerate.objects.filter(pk=1).exists()


@pytest.mark.slow
def test_prior_grade_same_grade_new_source_does_not_rerate(newcomer) -> None:
    player, _first, _second = newcomer
    assert not player_set_prior_grade(player=player, kind="dan", level=1, source="nsr", note="NSR diploma")
    assert not PendingRerate.objects.exists()
    player.refresh_from_db()
    assert (player.prior_grade_source, player.prior_grade_note) == ("nsr", "NSR diploma")


def test_prior_grade_change_rerates_from_a_first_table_that_could_not_be_rated(newcomer) -> None:
    """A table that failed (a runaway rating, say) has no row of his: with another starting rating it may rate,
    so the re-rate starts there, not at his first row. Without it a from-scratch replay rated that table."""
    player, first, second = newcomer
    RatingRow.objects.filter(table=first).delete()
    Table.objects.filter(pk=first.pk).update(status=TableStatus.SUBMITTED, rating_error="could not be rated")
    assert player_set_prior_grade(player=player, kind="dan", level=1, source="nsr", note="the same grade")
    pending = PendingRerate.objects.get(pk=1)
    assert (pending.from_date, pending.from_sequence) == (first.date, first.sequence)
    assert Table.objects.get(pk=first.pk).needs_rerate and not Table.objects.get(pk=second.pk).needs_rerate


def test_prior_grade_of_a_player_without_tables_is_only_recorded() -> None:
    player = make_player()
    assert not player_set_prior_grade(player=player, kind="pro", level=2, source="nsr")
    assert not PendingRerate.objects.exists()
    player.refresh_from_db()
    assert player.prior_grade_label == "2 Dan pro"


def test_prior_grade_of_a_migrated_player_is_only_recorded(play) -> None:
    # A player migrated from the FESA list starts from his opening state, which carries the list's grades.
    player = seasoned(1500, 18)
    play(player, equal(1500), DRAW, date=DAY)
    assert not player_set_prior_grade(player=player, kind="kyu", level=1, source="other")
    assert not PendingRerate.objects.exists()


def test_prior_grade_cleared_empties_every_field(newcomer) -> None:
    player, _first, _second = newcomer
    assert player_set_prior_grade(player=player, kind="", level=5, source="national", note="x")
    player.refresh_from_db()
    assert (player.prior_grade_kind, player.prior_grade_level, player.prior_grade_source) == ("", None, "")


@pytest.mark.parametrize(("kind", "level", "source"), [("dan", 11, "nsr"), ("kyu", 0, "nsr"), ("dan", 2, "")])
def test_prior_grade_invalid_is_refused(kind: str, level: int, source: str) -> None:
    player = make_player()
    with pytest.raises(ValidationError):
        player_set_prior_grade(player=player, kind=kind, level=level, source=source)
    player.refresh_from_db()
    assert player.prior_grade_kind == ""


@pytest.mark.parametrize("maker", [make_director, make_grade_officer, make_user], ids=["director", "grade", "none"])
def test_prior_grade_by_anyone_but_a_rating_officer_is_refused(maker) -> None:
    player = make_player()
    with pytest.raises(PermissionDenied):
        player_set_prior_grade(player=player, kind="dan", level=1, source="nsr", user=maker())
    player.refresh_from_db()
    assert player.prior_grade_kind == ""


def test_prior_grade_by_rating_officer_or_superuser_is_allowed() -> None:
    for user in (make_rating_officer(), make_user(superuser=True)):
        player = make_player()
        player_set_prior_grade(player=player, kind="dan", level=1, source="nsr", user=user)
        player.refresh_from_db()
        assert player.prior_grade_label == "1 Dan"
        assert player.history.first().history_user == user
