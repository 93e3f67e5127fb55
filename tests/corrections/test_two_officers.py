"""Two rating officers correcting the same things, each in his own session: the later save never undoes the
earlier one unseen, and what is saved is what its person previewed (ratings/services/fingerprints.py).

The first test commits every request on its own (a transactional test), as two browsers would; the last one
runs two live database connections at once on PostgreSQL: the second save waits for the first's row lock,
then finds the table changed.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse

from ratings.models import Correction, Game, GameResult, Table
from ratings.services.corrections.apply import correction_make
from ratings.services.corrections.facts import PriorGradeChange
from ratings.services.corrections.fingerprints import change_version, loaded_version
from ratings.services.fingerprints import VERSION_FIELD, ChangedMeanwhile
from tests.admin.helpers import page_form_data, set_row
from tests.admin.test_grid import grid_data, grid_url, set_cell
from tests.corrections.helpers import hidden, result_flipped
from tests.factories import make_player, make_rating_officer

pytestmark = pytest.mark.django_db


def officer(username: str) -> Client:
    client = Client()
    client.force_login(make_rating_officer(username=username))
    return client


def crosstable(client: Client, table: Table) -> dict[str, str]:
    """The crosstable page's form as the browser posts it: its rows and the version of what it shows."""
    page = client.get(grid_url(table))
    return grid_data(page) | {VERSION_FIELD: hidden(page, VERSION_FIELD)}


def flip(data: dict[str, str], first: int, second: int) -> dict[str, str]:
    """The crosstable with row ``first`` now losing round 1 to row ``second``."""
    set_cell(data, first, 1, f"{second}-")
    set_cell(data, second, 1, f"{first}+")
    return data


def confirm(preview: Any, reason: str) -> dict[str, str]:
    return dict(preview.context["carried"]) | {"_correction_confirm": "yes", "_correction_reason": reason}


def told(response: Any) -> str:
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


@pytest.mark.django_db(transaction=True)
def test_the_later_officer_is_refused_when_the_table_changed_after_his_preview(rated) -> None:
    players, table = rated
    abe, _berg, cruz, _dahl = players
    a, b = officer("anna"), officer("bruno")

    preview_a = a.post(grid_url(table), {**flip(crosstable(a, table), 1, 2), "_save": "Save"})
    assert preview_a.status_code == 200 and "preview" in preview_a.context
    preview_b = b.post(grid_url(table), {**flip(crosstable(b, table), 3, 4), "_save": "Save"})
    assert b.post(grid_url(table), confirm(preview_b, "Cruz lost")).status_code == 302

    refused = a.post(grid_url(table), confirm(preview_a, "Abe lost"))
    assert refused.status_code == 302 and refused["Location"] == grid_url(table)
    assert Game.objects.get(table=table, first=cruz).result == GameResult.SECOND_WON  # B's correction stays
    assert Game.objects.get(table=table, first=abe).result == GameResult.FIRST_WON  # A's is not saved
    assert Correction.objects.count() == 1
    said = told(refused)
    assert "bruno" in said and "Cruz – Dahl" in said and "nothing was saved" in said

    again = a.post(grid_url(table), {**flip(crosstable(a, table), 1, 2), "_save": "Save"})  # reloaded: goes
    assert a.post(grid_url(table), confirm(again, "Abe lost")).status_code == 302
    assert Game.objects.get(table=table, first=abe).result == GameResult.SECOND_WON
    assert Game.objects.get(table=table, first=cruz).result == GameResult.SECOND_WON


def test_a_form_loaded_before_another_correction_is_refused_at_its_preview(rated) -> None:
    players, table = rated
    a, b = officer("anna"), officer("bruno")
    url = reverse("admin:ratings_table_change", args=[table.pk])
    page = a.get(url)
    loaded = page_form_data(page) | {VERSION_FIELD: hidden(page, VERSION_FIELD)}

    preview_b = b.post(grid_url(table), {**flip(crosstable(b, table), 3, 4), "_save": "Save"})
    assert b.post(grid_url(table), confirm(preview_b, "Cruz lost")).status_code == 302

    set_row(loaded, "games", 0, result=GameResult.SECOND_WON)  # Abe lost, in a form that still shows Cruz won
    refused = a.post(url, loaded)
    assert refused.status_code == 302 and refused["Location"] == url
    assert "bruno" in told(refused) and Correction.objects.count() == 1
    assert Game.objects.get(table=table, first=players[0]).result == GameResult.FIRST_WON


def test_a_player_correction_over_another_is_refused(rated) -> None:
    abe = rated[0][0]
    a, b = officer("anna"), officer("bruno")
    url = reverse("admin:ratings_player_change", args=[abe.pk])
    page = a.get(url)
    loaded = page_form_data(page) | {VERSION_FIELD: hidden(page, VERSION_FIELD)}

    page_b = b.get(url)
    renamed = page_form_data(page_b) | {VERSION_FIELD: hidden(page_b, VERSION_FIELD), "given_name": "Akira"}
    assert b.post(url, confirm(b.post(url, renamed), "Spelling")).status_code == 302

    loaded["residence"] = "DE"  # A's form still shows the old given name: saving it would undo B's
    refused = a.post(url, loaded)
    assert refused.status_code == 302 and "given name" in told(refused) and "bruno" in told(refused)
    abe.refresh_from_db()
    assert abe.given_name == "Akira" and str(abe.residence) != "DE"


def test_a_merge_previewed_before_the_duplicate_changed_is_refused(rated) -> None:
    players, _table = rated
    kept, duplicate = players[0], make_player("Abe", nationality="FR")
    a = officer("anna")
    merge_url = reverse("admin:ratings_player_merge", args=[duplicate.pk])
    preview = a.get(merge_url, {"kept": kept.federation_id})
    assert preview.status_code == 200

    # Meanwhile the duplicate's own record changes: another officer gives him a prior grade.
    other = make_rating_officer(username="bruno")
    change = PriorGradeChange(player=duplicate, kind="kyu", level=3, source="national")
    correction_make(user=other, reason="Club grade", change=change, expected=change_version(change))

    refused = a.post(merge_url, confirm(preview, "Entered twice"))
    assert refused.status_code == 302 and "bruno" in told(refused)
    duplicate.refresh_from_db()
    assert duplicate.merged_into is None


def test_a_player_replaced_in_a_table_corrected_since_the_preview_is_refused(rated) -> None:
    players, table = rated
    right = make_player("Eck")
    a, b = officer("anna"), officer("bruno")
    url = reverse("admin:ratings_table_replace_player", args=[table.pk])
    preview = a.post(url, {"wrong": players[0].federation_id, "right": right.federation_id})
    assert preview.status_code == 200 and preview.context["preview"]

    preview_b = b.post(grid_url(table), {**flip(crosstable(b, table), 3, 4), "_save": "Save"})
    assert b.post(grid_url(table), confirm(preview_b, "Cruz lost")).status_code == 302

    refused = a.post(url, confirm(preview, "Eck played, not Abe"))
    assert refused.status_code == 302 and "bruno" in told(refused)
    assert not table.entries.filter(player=right).exists()


def test_an_undo_previewed_before_a_later_correction_is_refused_naming_it(rated) -> None:
    _players, table = rated
    carl = make_rating_officer(username="carl")
    first = correction_make(user=carl, reason="Abe lost", change=result_flipped(table), expected=None)
    a, b = officer("anna"), officer("bruno")
    undo_url = reverse("admin:ratings_correction_undo", args=[first.pk])
    preview = a.get(undo_url)
    assert preview.status_code == 200

    preview_b = b.post(grid_url(table), {**flip(crosstable(b, table), 3, 4), "_save": "Save"})
    assert b.post(grid_url(table), confirm(preview_b, "Cruz lost")).status_code == 302

    refused = a.post(undo_url, confirm(preview, "It was right"))
    assert refused.status_code == 302 and "bruno" in told(refused) and "Cruz – Dahl" in told(refused)
    assert Correction.objects.count() == 2


def test_saving_without_the_version_of_the_page_is_the_plain_service_call(rated) -> None:
    """Commands and imports show no page: with no version they save as before (the check is the page's)."""
    _players, table = rated
    change = result_flipped(table)
    stale = change_version(change)
    correction_make(
        user=make_rating_officer(), reason="first", change=result_flipped(table, game_index=1), expected=None
    )
    with pytest.raises(ChangedMeanwhile):
        correction_make(user=make_rating_officer(), reason="second", change=change, expected=stale)
    with pytest.raises(ChangedMeanwhile):  # a malformed version is no version of anything
        correction_make(user=make_rating_officer(), reason="second", change=change, expected="garbage")
    assert Correction.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_saves_at_once_on_postgresql_one_waits_for_the_other_and_is_refused(rated) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("two live connections at once: the PostgreSQL run has them (SQLite serialises all writes)")
    players, table = rated
    anna, bruno = make_rating_officer(username="anna"), make_rating_officer(username="bruno")
    version = loaded_version(table=table)
    outcome: dict[str, Any] = {}

    def second_officer() -> None:  # his own connection: Django's are per thread
        try:
            change = result_flipped(Table.objects.get(pk=table.pk), game_index=1)
            correction_make(user=bruno, reason="Cruz lost", change=change, expected=version)
        except ChangedMeanwhile as exc:
            outcome["refused"] = str(exc)
        else:
            outcome["saved"] = True
        finally:
            connections.close_all()

    with transaction.atomic():  # the first officer's save, holding the table's row lock
        correction_make(user=anna, reason="Abe lost", change=result_flipped(table), expected=version)
        worker = threading.Thread(target=second_officer)
        worker.start()
        _wait_until_blocked()
    worker.join(timeout=30)
    assert outcome.keys() == {"refused"} and "anna" in outcome["refused"]
    assert Correction.objects.count() == 1
    assert Game.objects.get(table=table, first=players[2]).result == GameResult.FIRST_WON


def _wait_until_blocked() -> None:
    """Until another connection waits for a lock this transaction holds (at most 20 s)."""
    deadline = time.monotonic() + 20
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # else a transaction sees its first snapshot only
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.05)
    raise AssertionError("the second save never waited for the first's lock")
