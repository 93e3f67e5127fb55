"""The crosstable page of a submitted or rated table: a rating officer's change is a correction, previewed
first and saved with its reason through the same path as the table's change form; undone like any other."""

from __future__ import annotations

import pytest
from django.test import Client

from ratings.models import Correction, Game, GameResult, Table
from ratings.services.corrections.apply import correction_undo
from tests.admin.test_grid import grid_data, grid_url, set_cell
from tests.corrections.helpers import DAY, player_columns, rerate_and_check
from tests.factories import add_game, make_director, make_rating_officer, make_table, make_tournament

pytestmark = pytest.mark.django_db


def flipped(client: Client, table: Table) -> dict[str, str]:
    """The crosstable as shown, with Abe (row 1) now losing to Berg (row 2)."""
    data = grid_data(client.get(grid_url(table)))
    set_cell(data, 1, 1, "2-")
    set_cell(data, 2, 1, "1+")
    return data


def test_grid_of_a_rated_table_previews_then_saves_a_correction_with_its_reason(client: Client, rated) -> None:
    players, table = rated
    client.force_login(make_rating_officer(username="officer1"))
    data = flipped(client, table)
    before = player_columns()

    preview = client.post(grid_url(table), {**data, "_save": "Save"})
    assert preview.status_code == 200
    assert "admin/ratings/correction/preview.html" in [t.name for t in preview.templates]
    changes = preview.context["preview"].players
    assert {c.name for c in changes} >= {str(players[0]), str(players[1])}
    assert any("Abe – Berg" in line and "→" in line for line in preview.context["lines"])
    assert player_columns() == before and not Correction.objects.exists()
    assert Game.objects.get(table=table, first=players[0]).result == GameResult.FIRST_WON  # nothing saved yet

    carried = preview.context["carried"]
    missing = client.post(grid_url(table), dict(carried) | {"_correction_confirm": "yes"})
    assert missing.status_code == 200 and missing.context["error"] and not Correction.objects.exists()

    confirmed = dict(carried) | {"_correction_confirm": "yes", "_correction_reason": "Sheet read the wrong way"}
    saved = client.post(grid_url(table), confirmed)
    assert saved.status_code == 302 and saved["Location"] == grid_url(table)
    correction = Correction.objects.get()
    assert correction.kind == "table" and correction.table == table and correction.made_by.username == "officer1"
    assert correction.reason == "Sheet read the wrong way" and "Abe – Berg" in correction.summary
    assert Game.objects.get(table=table, first=players[0]).result == GameResult.SECOND_WON
    rerate_and_check()
    stored = {pid: cols for pid, cols in player_columns().items() if before[pid] != cols}
    assert stored == {c.player_id: (c.rating[1], c.category[1], c.grade[1]) for c in changes}

    correction_undo(correction=correction, user=correction.made_by, reason="It was right", expected=None)
    rerate_and_check()
    assert player_columns() == before


def test_grid_saved_unchanged_is_no_correction(client: Client, rated) -> None:
    _players, table = rated
    client.force_login(make_rating_officer())
    data = grid_data(client.get(grid_url(table)))
    assert b"grid-correction" in client.get(grid_url(table)).content
    response = client.post(grid_url(table), {**data, "_save": "Save"})
    assert response.status_code == 302 and not Correction.objects.exists()


def test_grid_of_a_rated_table_refused_to_a_director_and_a_draft_is_no_correction(client: Client, rated) -> None:
    players, table = rated
    director = make_director()
    table.tournament.directors.add(director)
    client.force_login(director)
    data = grid_data(client.get(grid_url(table)))
    set_cell(data, 1, 1, "2-")
    set_cell(data, 2, 1, "1+")
    assert client.post(grid_url(table), {**data, "_save": "Save"}).status_code == 403
    assert not Correction.objects.exists()

    client.force_login(make_rating_officer())
    draft = make_table(players[:2], tournament=make_tournament(date=DAY), date=DAY, sequence=5)
    add_game(draft, 1, players[0], players[1])
    data = grid_data(client.get(grid_url(draft)))
    set_cell(data, 1, 1, "2-")
    set_cell(data, 2, 1, "1+")
    assert client.post(grid_url(draft), {**data, "_save": "Save"}).status_code == 302  # a draft is simply edited
    assert not Correction.objects.exists()
    assert Game.objects.get(table=draft).result == GameResult.SECOND_WON


def test_a_pasted_crosstable_of_a_rated_table_is_previewed_and_carried_to_the_save(client: Client, rated) -> None:
    players, table = rated
    client.force_login(make_rating_officer())
    data = grid_data(client.get(grid_url(table)))
    data["paste"] = "1 [Abe] [] [2-]\n2 [Berg] [] [1+]\n3 [Cruz] [] [4+]\n4 [Dahl] [] [3-]\n"
    preview = client.post(grid_url(table), {**data, "_save": "Save"})
    assert preview.status_code == 200 and preview.context["preview"].players
    assert ("paste", data["paste"]) in preview.context["carried"]
    assert Game.objects.get(table=table, first=players[0]).result == GameResult.FIRST_WON
    confirmed = dict(preview.context["carried"]) | {"_correction_confirm": "yes", "_correction_reason": "Pasted"}
    assert client.post(grid_url(table), confirmed).status_code == 302
    assert Game.objects.get(table=table, first=players[0]).result == GameResult.SECOND_WON
    assert Correction.objects.get().reason == "Pasted"
    rerate_and_check()
