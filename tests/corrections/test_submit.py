"""``correction_submit``, the one entry of a posted correction: a preview that writes nothing until the officer
confirms with a reason, a stale page refused even for its preview, then the correction made."""

from __future__ import annotations

import pytest

from ratings.models import Correction, GameResult, Player
from ratings.services.corrections.facts import IdentityChange, PriorGradeChange
from ratings.services.corrections.fingerprints import change_version
from ratings.services.corrections.submit import CorrectionsMade, PreviewWanted, correction_lines, correction_submit
from ratings.services.fingerprints import ChangedMeanwhile
from tests.corrections.helpers import player_columns, rerate_and_check, result_flipped, table_change
from tests.factories import make_rating_officer

pytestmark = pytest.mark.django_db


def test_correction_submit_previews_until_confirmed_with_a_reason_and_writes_nothing(rated) -> None:
    _players, table = rated
    change, officer = result_flipped(table), make_rating_officer()
    before = player_columns()
    for confirmed, reason, error in [(False, "", ""), (False, "Sheet", ""), (True, "  ", "Say why")]:
        answer = correction_submit(
            user=officer, changes=[change], expected=change_version(change), confirmed=confirmed, reason=reason
        )
        assert isinstance(answer, PreviewWanted) and answer.preview.players and not answer.rates_nothing
        assert answer.lines == correction_lines([change]) and answer.error.startswith(error)
    assert player_columns() == before and not Correction.objects.exists()
    assert table.games.filter(result=GameResult.SECOND_WON).count() == 0


def test_correction_submit_refuses_a_stale_page_even_for_its_preview(rated) -> None:
    _players, table = rated
    officer = make_rating_officer()
    change = result_flipped(table)
    stale = change_version(change)
    made = correction_submit(user=officer, changes=[change], expected=stale, confirmed=True, reason="Sheet")
    assert isinstance(made, CorrectionsMade) and [c.kind for c in made.corrections] == ["table"] and made.rerates
    for confirmed in (False, True):
        with pytest.raises(ChangedMeanwhile):
            correction_submit(
                user=officer, changes=[result_flipped(table, game_index=1)], expected=stale, confirmed=confirmed,
                reason="Other game",
            )  # fmt: skip
    with pytest.raises(ChangedMeanwhile, match="came without the version"):
        correction_submit(user=officer, changes=[change], expected="", confirmed=False, reason="")
    assert Correction.objects.count() == 1
    rerate_and_check()


def test_correction_submit_makes_a_players_two_changes_with_one_reason(rated) -> None:
    abe = rated[0][0]
    player = Player.objects.get(pk=abe.pk)
    changes = [
        IdentityChange(player=player, values={"given_name": "Akira"}),
        PriorGradeChange(player=player, kind="kyu", level=2, source="national"),
    ]
    officer = make_rating_officer()
    preview = correction_submit(
        user=officer, changes=changes, expected=change_version(changes[0]), confirmed=False, reason=""
    )
    assert isinstance(preview, PreviewWanted) and len(preview.lines) == 2 and not preview.rates_nothing
    made = correction_submit(
        user=officer, changes=changes, expected=change_version(changes[0]), confirmed=True, reason="Licence"
    )
    assert isinstance(made, CorrectionsMade) and made.rerates
    assert sorted(Correction.objects.values_list("kind", "reason")) == [
        ("identity", "Licence"),
        ("prior_grade", "Licence"),
    ]
    rerate_and_check()


def test_correction_submit_of_a_change_already_made_makes_nothing(rated) -> None:
    _players, table = rated
    unchanged = table_change(table)
    assert correction_lines([unchanged]) == []  # the form saved as shown: no correction at all
    made = correction_submit(
        user=make_rating_officer(), changes=[unchanged], expected=change_version(unchanged), confirmed=True,
        reason="Nothing",
    )  # fmt: skip
    assert made == CorrectionsMade(corrections=[]) and not Correction.objects.exists()
