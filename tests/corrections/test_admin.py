"""The admin's correction flow: a rated table's change form previews first, then saves with a reason; undo."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings.models import Correction, GameResult
from ratings.services.corrections.apply import correction_make
from tests.admin.helpers import page_form_data, set_row
from tests.corrections.helpers import player_columns, rerate_and_check, result_flipped
from tests.factories import make_director, make_rating_officer

pytestmark = pytest.mark.django_db


def test_rated_table_change_previews_then_saves_as_a_correction_with_its_reason(client: Client, rated) -> None:
    players, table = rated
    client.force_login(make_rating_officer(username="officer1"))
    url = reverse("admin:ratings_table_change", args=[table.pk])
    data = page_form_data(client.get(url))
    set_row(data, "games", 0, result=GameResult.SECOND_WON)
    before = player_columns()

    preview = client.post(url, data)
    assert preview.status_code == 200
    assert "admin/ratings/correction/preview.html" in [t.name for t in preview.templates]
    changes = preview.context["preview"].players
    assert {c.name for c in changes} >= {str(players[0]), str(players[1])}
    assert changes == sorted(changes, key=lambda c: (-c.size, c.name))
    assert any("Abe – Berg" in line and "→" in line for line in preview.context["lines"])
    assert player_columns() == before and not Correction.objects.exists()  # nothing saved yet

    carried = dict(preview.context["carried"])
    missing = client.post(url, {**carried, "_correction_confirm": "yes"})
    assert missing.context["error"] and not Correction.objects.exists()

    saved = client.post(url, {**carried, "_correction_confirm": "yes", "_correction_reason": "Scoresheet misread"})
    assert saved.status_code == 302
    correction = Correction.objects.get()
    assert correction.reason == "Scoresheet misread" and correction.made_by.username == "officer1"
    rerate_and_check()
    stored = {pid: cols for pid, cols in player_columns().items() if before[pid] != cols}
    assert stored == {c.player_id: (c.rating[1], c.category[1], c.grade[1]) for c in changes}

    undo_url = reverse("admin:ratings_correction_undo", args=[correction.pk])
    undo_page = client.get(undo_url)
    assert undo_page.status_code == 200 and undo_page.context["preview"].players
    client.post(
        undo_url,
        {**dict(undo_page.context["carried"]), "_correction_confirm": "yes", "_correction_reason": "Was right"},
    )
    assert Correction.objects.filter(undoes=correction).exists()
    rerate_and_check()
    assert player_columns() == before


def test_corrections_list_filters_by_kind_and_table(client: Client, rated) -> None:
    _players, table = rated
    officer = make_rating_officer()
    made = correction_make(user=officer, reason="Swapped", change=result_flipped(table), expected=None)
    client.force_login(officer)
    url = reverse("admin:ratings_correction_changelist")
    listed = client.get(url, {"kind": "table", "table__id__exact": table.pk})
    assert [c.pk for c in listed.context["cl"].result_list] == [made.pk]
    other_kind = client.get(url, {"kind": "prior_grade"})
    assert list(other_kind.context["cl"].result_list) == []
    detail = client.get(reverse("admin:ratings_correction_change", args=[made.pk]))
    assert b"correction-undo" in detail.content and b"Swapped" in detail.content
    # "Made by" was shown twice, first on top: each field once, in order.
    shown = [line.field["name"] for fieldset in detail.context["adminform"] for line in fieldset for line in line]
    assert [name for name in shown if name.startswith("made_by")] == ["made_by_name_shown"] and shown[0] == "kind"


def test_corrections_list_offers_the_officers_who_made_one_and_iso_times(client: Client, rated) -> None:
    """Its "made by" filter listed every account of the site (every director among them), its times in words."""
    _players, table = rated
    officer, idle = make_rating_officer(), make_director()
    made = correction_make(user=officer, reason="Swapped", change=result_flipped(table), expected=None)
    client.force_login(officer)
    page = client.get(reverse("admin:ratings_correction_changelist"), HTTP_ACCEPT_LANGUAGE="it")
    [by] = [f for f in page.context["cl"].filter_specs if f.field_path == "made_by"]
    assert [label for _pk, label in by.lookup_choices] == [str(officer)]
    assert str(idle) not in [label for _pk, label in by.lookup_choices]
    html = page.content.decode()
    assert f"{timezone.localtime(made.made_at):%Y-%m-%d %H:%M}" in html
    assert "Seleziona correzione da visualizzare" in html
