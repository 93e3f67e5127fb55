"""The public corrections log on the table and player pages: date and reason for all, the officer for staff."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from ratings.services.corrections.apply import correction_make
from tests.corrections.helpers import rerate_and_check, result_flipped
from tests.factories import add_game, make_player, make_rating_officer, make_table
from tests.pipeline.histories import submit

pytestmark = pytest.mark.django_db


def test_table_and_player_pages_list_corrections_and_only_staff_see_the_officer(client: Client) -> None:
    a, b = make_player("Abe"), make_player("Berg")
    table = make_table([a, b], date=dt.date(2024, 3, 2))
    add_game(table, 1, a, b)
    submit(table)
    rerate_and_check()
    officer = make_rating_officer(username="officer-ito")
    correction_make(user=officer, reason="Result swapped on the sheet", change=result_flipped(table), expected=None)
    rerate_and_check()

    pages = [reverse("ratings:table", args=[table.pk]), reverse("ratings:player", args=[a.federation_id])]
    for url in pages:
        page = client.get(url).content.decode()
        assert "Result swapped on the sheet" in page and 'id="corrections"' in page
        assert "officer-ito" not in page
    client.force_login(officer)
    assert all("officer-ito" in client.get(url).content.decode() for url in pages)
