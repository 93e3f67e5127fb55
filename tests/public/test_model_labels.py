"""What the admin's lists, change messages and history show of a record: names, never database ids."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ratings.models import ListArrival, OpeningState, RatingRow, Table
from tests.factories import make_table, make_tournament
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def test_history_records_are_labelled_with_names(rated_round_robin: Callable[..., Table]) -> None:
    a, b = seasoned(1600, family_name="Zieliński", given_name="Paweł"), seasoned(1500, family_name="Dvořák")
    table = rated_round_robin([a, b], days_ago(20))
    row = RatingRow.objects.get(table=table, player=a)
    labels = [str(row)]
    labels += [str(o) for o in OpeningState.objects.filter(player=a)]
    labels += [str(o) for o in ListArrival.objects.filter(player=a)]
    assert "Zieliński Paweł" in labels[0] and table.tournament.name in labels[0]
    assert len(labels) >= 2 and all("Zieliński Paweł" in label for label in labels), labels


def test_table_label_names_the_tournament_and_the_table_if_it_has_a_name() -> None:
    tournament = make_tournament("Paris Open")
    named = make_table([], tournament=tournament)
    named.name = "Dan group"
    single = make_table([], tournament=tournament, sequence=2)
    assert (named.label, single.label) == ("Paris Open, Dan group", "Paris Open")
    assert str(named) == f"Paris Open, Dan group ({named.date:%Y-%m-%d})"
    assert Table.label_of("Paris Open", "") == single.label
