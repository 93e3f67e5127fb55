"""What the admin's lists, change messages and history show of a record: names, never database ids."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ratings.models import ListArrival, OpeningState, RatingRow, Table
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
