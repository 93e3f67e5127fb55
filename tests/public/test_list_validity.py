"""Rating rows' validity (``valid_until``), which the lists of past dates read: kept by the re-rate, checked."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import VALID_FOREVER, RatingRow, Table
from ratings.services.rerate import rerate_check, rerate_from
from ratings.services.rerate.rows import RowWriter
from ratings.services.rerate.validity import rating_rows_link_differences
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def valid(player_id: int) -> list[tuple[object, object]]:
    return list(
        RatingRow.objects.filter(player_id=player_id).order_by("date", "sequence").values_list("date", "valid_until")
    )


def test_rerate_links_each_row_to_the_next_one(rated_round_robin: Callable[..., Table]) -> None:
    a, b, c = seasoned(1600, family_name="A"), seasoned(1500, family_name="B"), seasoned(1400, family_name="C")
    rated_round_robin([a, b], days_ago(30))
    rated_round_robin([a, c], days_ago(20))
    assert valid(a.pk) == [(days_ago(30), days_ago(20)), (days_ago(20), VALID_FOREVER)]
    # A table slipped in between: the rows before it now end on its date.
    rated_round_robin([a, b], days_ago(25))
    assert valid(a.pk) == [
        (days_ago(30), days_ago(25)),
        (days_ago(25), days_ago(20)),
        (days_ago(20), VALID_FOREVER),
    ]
    assert valid(b.pk) == [(days_ago(30), days_ago(25)), (days_ago(25), VALID_FOREVER)]
    assert rating_rows_link_differences() == []
    assert rerate_check() == []


def test_rerate_check_finds_a_wrong_validity(rated_round_robin: Callable[..., Table]) -> None:
    a, b = seasoned(1600, family_name="A"), seasoned(1500, family_name="B")
    rated_round_robin([a, b], days_ago(30))
    rated_round_robin([a, b], days_ago(20))
    RatingRow.objects.filter(player=a, date=days_ago(30)).update(valid_until=days_ago(10))
    assert [(d.player_id, "valid until" in d.what) for d in rerate_check()] == [(a.pk, True)]
    rerate_from()
    assert rerate_check() == []


def test_list_of_a_past_date_reads_the_row_valid_then(client: Client, rated_round_robin: Callable[..., Table]) -> None:
    a, b = seasoned(1600, family_name="A"), seasoned(1500, family_name="B")
    first = rated_round_robin([b, a], days_ago(30))
    rated_round_robin([b, a], days_ago(20))
    rows = RatingRow.objects.filter(table=first).values_list("player_id", "rating_after")
    want = sorted(rows, key=lambda r: -r[1])
    for date in (days_ago(30), days_ago(21)):
        got = client.get(reverse("ratings:rating_list_json"), {"date": date.isoformat()}).json()["players"]
        assert [(p["federation_id"], p["rating"]) for p in got] == [
            (a.federation_id if pid == a.pk else b.federation_id, rating) for pid, rating in want
        ]


@pytest.mark.parametrize("batch", [1, 2, 3, 20000])
def test_full_rerate_writes_rows_linked_across_its_batches(
    rated_round_robin: Callable[..., Table], monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    # A full re-rate links the rows as it writes them (no UPDATE afterwards); a row written in one batch whose
    # player plays again in a later one is fixed at the end. Small batches put every kind of link across them.
    a, b, c = seasoned(1600, family_name="A"), seasoned(1500, family_name="B"), seasoned(1400, family_name="C")
    rated_round_robin([a, b, c], days_ago(30))
    rated_round_robin([a, b], days_ago(26))
    rated_round_robin([c, a], days_ago(26), sequence=2)
    rated_round_robin([b, c], days_ago(22))
    RatingRow.objects.update(valid_until=days_ago(1))  # wrong everywhere: the run must write every one
    monkeypatch.setattr(RowWriter, "BATCH", batch)
    rerate_from()
    assert valid(a.pk) == [(days_ago(30), days_ago(26)), (days_ago(26), days_ago(26)), (days_ago(26), VALID_FOREVER)]
    assert valid(c.pk) == [(days_ago(30), days_ago(26)), (days_ago(26), days_ago(22)), (days_ago(22), VALID_FOREVER)]
    assert rating_rows_link_differences() == []
    assert rerate_check() == []
