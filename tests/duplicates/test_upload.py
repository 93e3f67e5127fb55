"""A new player of an uploaded table who looks like an existing one is shown with him, to use him instead."""

from __future__ import annotations

import pytest

from ratings.models import Player, Table
from tests.factories import make_director, make_tournament
from tests.files.test_import_turnering import FOUR, four_players
from tests.files.test_upload_admin import DAY, URL, login, payload_of, upload

pytestmark = pytest.mark.django_db


def test_a_new_name_one_letter_from_a_player_is_offered_as_him() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    players = four_players()
    players[3].family_name = "Mazzouzi"  # the federation spells him with one letter more
    players[3].save()
    client = login(director)
    response = upload(client, FOUR, tournament)
    page = response.content.decode()  # type: ignore[attr-defined]
    assert 'name="match_4"' in page and "one letter apart" in page and "Mazzouzi" in page
    assert 'name="confirm"' not in page  # not created unseen: the director chooses
    payload = payload_of(response)
    client.post(URL, {"payload": payload, "confirm": "1", "match_4": str(players[3].pk)})
    assert Table.objects.get().entries.get(seat=4).player_id == players[3].pk
    assert Player.objects.count() == 4


def test_a_merged_player_is_not_offered() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    players = four_players()
    Player.objects.filter(pk=players[3].pk).update(merged_into=players[0])
    page = upload(login(director), FOUR, tournament).content.decode()  # type: ignore[attr-defined]
    assert 'name="match_4"' not in page
