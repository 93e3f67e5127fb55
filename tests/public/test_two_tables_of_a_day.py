"""Two tables of one day are told apart: on the tournament's page each has its own heading, landmark and chip,
and each table's own page says which of the day's tables it is."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ratings.models import Table
from tests.factories import make_table, make_tournament, round_robin
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_of_a_day(rate: Callable[[Table], Table]) -> tuple[Table, Table]:
    players = [seasoned(1800 - 50 * i, family_name=f"Player{i}") for i in range(6)]
    tournament = make_tournament("Paris Open", date=days_ago(20))
    tables = []
    for sequence, group in ((1, players[:3]), (2, players[3:])):
        table = make_table(group, tournament=tournament, date=days_ago(20), sequence=sequence)
        round_robin(table, group)
        tables.append(rate(table))
    return tables[0], tables[1]


def texts(page: str, pattern: str) -> list[str]:
    return [re.sub(r"<[^>]+>|\s+", " ", found).strip() for found in re.findall(pattern, page, re.S)]


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_tournament_page_names_each_table_of_a_day_apart(
    client: Client, two_of_a_day: tuple[Table, Table], language: str
) -> None:
    first, _second = two_of_a_day
    with translation.override("en"):  # the middleware activates the page's language; give the test its own back
        url = reverse("ratings:tournament", args=[first.tournament_id])
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    headings = texts(page, r"<h2[^>]*>(.*?)</h2>")
    labels = re.findall(r'role="region"[^>]*aria-label="([^"]*)"', page)
    chips = texts(page, r'<li><a href="#table-\d+">(.*?)</a></li>')
    for found in (headings, labels, chips):
        assert found and not [text for text, count in Counter(found).items() if count > 1], found
    assert len(chips) == 2


def test_the_table_page_says_which_table_of_the_day_it_is(client: Client, two_of_a_day: tuple[Table, Table]) -> None:
    first, second = two_of_a_day
    pages = [client.get(reverse("ratings:table", args=[t.pk])).content.decode() for t in (first, second)]
    assert "table 1 of the day" in pages[0] and "table 2 of the day" in pages[1]


def test_the_tournament_page_names_a_named_tables_chip_by_its_name(
    client: Client, two_of_a_day: tuple[Table, Table]
) -> None:
    """A table with a name (a group, a division) is chipped by that name; an unnamed one by its date."""
    first, second = two_of_a_day
    Table.objects.filter(pk=first.pk).update(name="Group A")
    page = client.get(reverse("ratings:tournament", args=[first.tournament_id])).content.decode()
    chips = texts(page, r'<li><a href="#table-\d+">(.*?)</a></li>')
    assert chips == ["Group A", f"{second.date:%Y-%m-%d} (table 2 of the day)"]
