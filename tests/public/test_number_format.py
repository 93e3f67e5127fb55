"""One number format per page: the rating changes written by ``signed`` take the reader's decimal mark, as the
ratings and expected scores written by ``floatformat`` beside them do."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ratings.templatetags.ratings_public import signed
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "shown"), [("en", "+12.50"), ("fr", "+12,50"), ("de", "+12,50")])
def test_a_signed_change_takes_the_language_decimal_mark(language: str, shown: str) -> None:
    with translation.override(language):
        assert signed(12.5) == shown
        assert signed(-3.25) == shown.replace("+12", "-3").replace("50", "25")
        assert signed(7) == "+7"


def test_the_game_by_game_rows_use_one_decimal_mark_in_french_and_german(
    client: Client, rated_round_robin: Callable[..., object]
) -> None:
    players = [seasoned(1800 - 40 * i, grade=18) for i in range(4)]
    table = rated_round_robin(players, days_ago(10))
    url = reverse("ratings:player_table", args=[players[0].federation_id, table.pk])  # type: ignore[attr-defined]
    for language in ("fr", "de"):
        with translation.override("en"):  # the middleware activates the page's language; give the test its own back
            page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        games = page[page.index("<tbody") : page.index("</tbody>")]
        assert re.search(r"\d,\d", games)
        assert not re.search(r"\d\.\d", games), language
