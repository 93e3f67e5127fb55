"""Prior grades proposed by directors: stored apart, counting for nothing until a rating officer confirms them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import Player, PriorGradeProposal, ProposalStatus, RatingRow
from ratings.services.fingerprints import VERSION_FIELD
from ratings.services.grades.prior import player_set_prior_grade
from ratings.services.grades.proposals import (
    ProposalConflict,
    prior_grade_proposal_confirm,
    prior_grade_proposal_reject,
    prior_grade_propose,
    proposal_version,
)
from tests.factories import make_director, make_grade_officer, make_player, make_rating_officer
from tests.grades.conftest import DRAW, seasoned

pytestmark = pytest.mark.django_db
DAY = dt.date(2024, 5, 12)
CHANGELIST = "admin:ratings_priorgradeproposal_changelist"


def propose(player: Player, director=None, *, kind: str = "dan", level: int = 1) -> PriorGradeProposal:
    return prior_grade_propose(
        player=player, kind=kind, level=level, source="national", note="club diploma", user=director or make_director()
    )


def add_player_in_admin(client, **prior: str) -> Player:
    response = client.post(reverse("admin:ratings_player_add"), {"family_name": "Habu", "nationality": "JP", **prior})
    assert response.status_code == 302
    return Player.objects.get(family_name="Habu")


DAN_1 = {"prior_grade_kind": "dan", "prior_grade_level": "1", "prior_grade_source": "national"}


def test_director_adding_a_player_proposes_the_prior_grade(client) -> None:
    client.force_login(make_director())
    player = add_player_in_admin(client, **DAN_1)
    assert (player.prior_grade_kind, player.prior_grade_level) == ("", None)
    assert player.prior_grade_proposals.get().status == ProposalStatus.PENDING
    page = client.get(reverse("admin:ratings_player_change", args=[player.pk])).content.decode()
    assert "waiting for a rating officer" in page  # the director sees the proposal's state on the player


def test_rating_officer_adding_a_player_sets_the_prior_grade(client) -> None:
    client.force_login(make_rating_officer())
    player = add_player_in_admin(client, **DAN_1)
    assert (player.prior_grade_kind, player.prior_grade_level) == ("dan", 1)
    assert not player.prior_grade_proposals.exists()


@pytest.mark.slow
def test_proposal_does_not_count_for_rating_until_confirmed(play, django_capture_on_commit_callbacks) -> None:
    # Without a prior grade a draw against 1740 rates him 1740; a prior 3 Kyu stands for less (see test_prior_grade).
    newcomer, twin = make_player(), make_player(prior=("kyu", 3))
    first = play(newcomer, seasoned(1740, 26), DRAW, date=DAY)
    twin_table = play(twin, seasoned(1740, 26), DRAW, date=DAY, sequence=2)
    proposal = propose(newcomer, kind="kyu", level=3)
    unconfirmed = RatingRow.objects.get(player=newcomer, table=first).rating_after
    assert unconfirmed != RatingRow.objects.get(player=twin, table=twin_table).rating_after
    officer = make_rating_officer()
    with django_capture_on_commit_callbacks(execute=True):
        assert prior_grade_proposal_confirm(proposal=proposal, user=officer, expected=None)  # a re-rate was requested
    newcomer.refresh_from_db()
    assert (newcomer.prior_grade_kind, newcomer.prior_grade_level, newcomer.prior_grade_source) == (
        "kyu",
        3,
        "national",
    )
    assert newcomer.prior_grade_note == "club diploma"
    # Re-rated: now as if the prior 3 Kyu had been there from the start, like his twin.
    rerated = RatingRow.objects.get(player=newcomer, table=first).rating_after
    assert rerated == RatingRow.objects.get(player=twin, table=twin_table).rating_after
    proposal.refresh_from_db()
    assert (proposal.status, proposal.decided_by) == (ProposalStatus.CONFIRMED, officer)
    assert proposal.history.first().history_user == officer


def test_reject_leaves_the_player_without_the_prior_grade() -> None:
    player = make_player()
    proposal = propose(player)
    prior_grade_proposal_reject(proposal=proposal, user=make_rating_officer(), reason="no diploma shown", expected=None)
    proposal.refresh_from_db()
    player.refresh_from_db()
    assert (proposal.status, proposal.decision_reason) == (ProposalStatus.REJECTED, "no diploma shown")
    assert player.prior_grade_kind == ""


@pytest.mark.parametrize("maker", [make_director, make_grade_officer])
def test_confirm_or_reject_by_anyone_but_a_rating_officer_is_refused(maker) -> None:
    player = make_player()
    proposal = propose(player)
    with pytest.raises(PermissionDenied):
        prior_grade_proposal_confirm(proposal=proposal, user=maker(), expected=None)
    with pytest.raises(PermissionDenied):
        prior_grade_proposal_reject(proposal=proposal, user=maker(), expected=None)
    proposal.refresh_from_db()
    player.refresh_from_db()
    assert (proposal.status, player.prior_grade_kind) == (ProposalStatus.PENDING, "")


def test_director_cannot_set_a_prior_grade_directly() -> None:
    with pytest.raises(PermissionDenied):
        player_set_prior_grade(player=make_player(), kind="dan", level=1, source="national", user=make_director())


def test_answer_twice_conflicts() -> None:
    proposal = propose(make_player())
    officer = make_rating_officer()
    stale = PriorGradeProposal.objects.get(pk=proposal.pk)
    prior_grade_proposal_reject(proposal=proposal, user=officer, expected=None)
    with pytest.raises(ProposalConflict):
        prior_grade_proposal_confirm(proposal=stale, user=officer, expected=None)


def test_second_open_proposal_for_a_player_is_refused() -> None:
    player = make_player()
    propose(player)
    with pytest.raises(ProposalConflict):
        propose(player)


def test_officer_queue_opens_on_pending_and_confirms_by_action(client) -> None:
    waiting, answered = make_player("Waiting"), make_player("Answered")
    propose(waiting)
    prior_grade_proposal_reject(proposal=propose(answered), user=make_rating_officer(), expected=None)
    client.force_login(make_rating_officer())
    response = client.get(reverse(CHANGELIST))
    assert [p.player.family_name for p in response.context["cl"].result_list] == ["Waiting"]
    pending = waiting.prior_grade_proposals.get()
    version = {f"{VERSION_FIELD}_{pending.pk}": proposal_version(pending)}  # as the queue's page carries it
    answer = {"action": "confirm_selected", "_selected_action": [str(pending.pk)], **version}
    response = client.post(reverse(CHANGELIST), answer)
    assert response.status_code == 302
    waiting.refresh_from_db()
    assert (waiting.prior_grade_kind, waiting.prior_grade_level) == ("dan", 1)


def test_director_has_no_actions_and_sees_only_his_proposals(client) -> None:
    director = make_director()
    mine = propose(make_player("Mine"), director)
    propose(make_player("Theirs"))
    client.force_login(director)
    response = client.get(reverse(CHANGELIST))
    assert [p.pk for p in response.context["cl"].result_list] == [mine.pk]
    assert response.context["action_form"] is None
    client.post(reverse(CHANGELIST), {"action": "confirm_selected", "_selected_action": [str(mine.pk)]})
    mine.refresh_from_db()
    assert mine.status == ProposalStatus.PENDING


def test_officer_queue_query_count_does_not_grow_with_proposals(client) -> None:
    client.force_login(make_rating_officer())
    director = make_director()

    def count_for(n: int) -> int:
        PriorGradeProposal.objects.all().delete()
        for _ in range(n):
            propose(make_player(), director)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse(CHANGELIST))
        assert len(response.context["cl"].result_list) == n
        return len(queries)

    assert count_for(1) == count_for(3)
