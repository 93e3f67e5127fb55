"""The admin upload's confirmation as one service (ratings/services/tables/uploads.py): token, import, host club."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from ratings.models import Club, Table, Tournament, UploadConfirmation
from ratings.services.fesa.turnering import TurneringRequest
from ratings.services.tables.uploads import UploadOutcome, upload_confirm, upload_token_new
from tests.factories import make_director, make_tournament
from tests.files.test_import_turnering import FOUR, four_players

pytestmark = pytest.mark.django_db

DAY = dt.date(2016, 1, 7)  # FOUR's date


def request_for(user: Any, tournament: Tournament | None, text: str = FOUR) -> TurneringRequest:
    return TurneringRequest(data=text.encode(), tournament=tournament, user=user, create_new=True)


def test_upload_confirm_saves_the_table_then_sends_a_replay_to_it() -> None:
    director = make_director()
    request = request_for(director, make_tournament(date=DAY, directors=[director]))
    token = upload_token_new()
    first = upload_confirm(request=request, token=token, submit=False, host_club="", create_club=False)
    table = Table.objects.get()
    assert first.plan is not None and first.plan.table_id == table.pk and not first.confirmed_before
    again = upload_confirm(request=request, token=token, submit=False, host_club="", create_club=False)
    assert again.confirmed_before and again.plan is None and again.earlier_table_id == table.pk
    assert Table.objects.count() == 1


def test_upload_confirm_refused_returns_the_problems_and_keeps_the_token_free() -> None:
    players = four_players()
    players[2].family_name = "Hébbert"  # a close name: the line waits for a choice
    players[2].save()
    director = make_director()
    request = request_for(director, make_tournament(date=DAY, directors=[director]))
    token = upload_token_new()
    refused = upload_confirm(request=request, token=token, submit=False, host_club="", create_club=False)
    assert refused.plan is not None and refused.plan.problems and refused.plan.table_id is None
    assert not Table.objects.exists() and not UploadConfirmation.objects.exists()


def confirmed_with_new_club(director: Any, tournament: Tournament) -> UploadOutcome:
    """The upload confirmed with the host club "Kai", which the site does not have, to be created."""
    return upload_confirm(
        request=request_for(director, tournament),
        token=upload_token_new(),
        submit=False,
        host_club="Kai",
        create_club=True,
    )


def test_upload_confirm_sets_the_host_club_it_may_create() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    outcome = confirmed_with_new_club(director, tournament)
    tournament.refresh_from_db()
    assert not outcome.club_not_created and tournament.host_club == Club.objects.get(name="Kai")


def test_upload_confirm_says_a_club_could_not_be_created_without_a_country() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    Tournament.objects.filter(pk=tournament.pk).update(country="")
    tournament.refresh_from_db()
    outcome = confirmed_with_new_club(director, tournament)
    assert outcome.club_not_created and not Club.objects.exists() and Table.objects.count() == 1
