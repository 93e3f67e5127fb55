"""Replacing a player entered in a table by mistake: a table correction, previewed, re-rated, undone."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Correction, Game, Player, TableEntry
from ratings.services.corrections.apply import correction_make, correction_preview, correction_undo
from ratings.services.tables.replace import ReplaceRefused, table_replace_change
from tests.corrections.helpers import player_columns, previewed, promotion_records, rerate_and_check, stored_changes
from tests.duplicates.helpers import twice_entered
from tests.factories import make_director, make_player, make_rating_officer

pytestmark = pytest.mark.django_db


def test_replacing_the_wrong_player_moves_his_seat_and_games_and_undo_restores() -> None:
    _kept, duplicate, _others, tables = twice_entered()
    table = tables[1]  # the duplicate's
    right = make_player("Verdi", "Giuseppe", nationality="IT")
    officer = make_rating_officer()
    original = player_columns()
    change = table_replace_change(table=table, wrong=duplicate, right=right)
    players, promotions = player_columns(), promotion_records()
    preview = correction_preview(change)
    correction = correction_make(user=officer, reason="Giuseppe played, not Matteo", change=change, expected=None)
    rerate_and_check()
    assert previewed(preview) == stored_changes(players, promotions)
    assert correction.kind == Correction.Kind.TABLE and "Verdi Giuseppe entered" in correction.summary
    assert TableEntry.objects.filter(table=table, player=right).exists()
    assert not Game.objects.filter(table=table, first=duplicate).exists()
    assert not Game.objects.filter(table=table, second=duplicate).exists()
    correction_undo(correction=correction, user=officer, reason="It was Matteo after all", expected=None)
    rerate_and_check()
    assert player_columns() == original


def test_the_right_player_already_in_the_table_is_refused() -> None:
    _kept, duplicate, _others, tables = twice_entered()
    in_table = TableEntry.objects.filter(table=tables[1]).exclude(player=duplicate).first().player
    with pytest.raises(ReplaceRefused, match="already"):
        table_replace_change(table=tables[1], wrong=duplicate, right=in_table)


def test_the_replace_screen_previews_and_saves(client: Client) -> None:
    _kept, duplicate, _others, tables = twice_entered()
    right = make_player("Verdi", "Giuseppe", nationality="IT")
    url = reverse("admin:ratings_table_replace_player", args=[tables[1].pk])
    client.force_login(make_director())
    assert client.get(url).status_code == 403
    client.force_login(make_rating_officer())
    assert duplicate.federation_id in client.get(url).content.decode()
    ids = {"wrong": duplicate.federation_id, "right": right.federation_id}
    preview = client.get(url, ids)
    assert "Verdi Giuseppe entered" in preview.content.decode()
    carried = dict(preview.context["carried"])  # the ids and the version of what the preview showed
    saved = client.post(url, {**carried, "_correction_confirm": "yes", "_correction_reason": "Wrong person"})
    assert saved.status_code == 302
    assert TableEntry.objects.filter(table=tables[1], player=right).exists()
    assert Player.objects.get(pk=right.pk)
