"""A past date's FESA list read from its top (ratings/selectors/list_head.py) gives the rows, ranks and counts
that the whole list's order gives: on the demo federation, whose history starts from a migrated FESA list
(opening states), holds players still rated by performance and professionals the list leaves out."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import F
from django.utils import timezone

from ratings.demo.build import demo_build
from ratings.models import Player, RatingRow
from ratings.selectors.lists import ListOrder, RatingList, rating_list

pytestmark = pytest.mark.django_db


def ranks(rows: list) -> list[tuple[object, ...]]:
    return [(r.pk, r.rank, r.country_rank, r.public_rank, r.public_country_rank) for r in rows]


def expected(order: ListOrder, pks: list[int]) -> list[tuple[object, ...]]:
    return [(pk, *order.ranks(pk), *order.public_ranks_of(pk)) for pk in pks]


def from_top(date: dt.date) -> RatingList:
    listed = rating_list(date=date)
    assert listed._from_top
    return listed


@pytest.fixture
def federation() -> list[dt.date]:
    """The demo federation, a listed player made professional, and the dates to compare: the migrated list's
    first years, when most players are on it by their opening state, and later. Ratings rounded to 25 points
    make equal ratings common, and the state list's order tells them apart before the id does."""
    demo_build(players=160, years=4, seed=11, until=timezone.localdate())
    RatingRow.objects.update(rating_after=F("rating_after") / 25 * 25)
    Player.objects.update(list_order=F("id") % 5)
    dates = sorted(set(RatingRow.objects.values_list("date", flat=True)))
    professional = RatingRow.objects.filter(date=dates[len(dates) // 2]).values_list("player_id", flat=True)[0]
    Player.objects.filter(pk=professional).update(is_professional=True)
    first = dates[0]
    picked = [first - dt.timedelta(days=1), first, *dates[:: max(1, len(dates) // 12)], dates[-1]]
    return [d for d in picked if d < timezone.localdate()]


def test_the_first_pages_and_the_counts_from_the_top_equal_the_whole_lists(federation: list[dt.date]) -> None:
    checked = 0
    for date in federation:
        whole = rating_list(date=date)
        order = whole.order()
        top = from_top(date)
        assert top.count() == len(order.pks), date
        assert top.ranked_only().count() == len(order.ranked_pks), date
        for start, stop in ((0, 10), (0, 50), (10, 25), (40, 90)):
            assert ranks(from_top(date)[start:stop]) == expected(order, list(order.pks[start:stop])), date
            ranked = from_top(date).ranked_only()
            want = expected(order, list(order.ranked_pks[start:stop]))
            assert ranks(ranked[start:stop]) == want, date
            assert "order" not in ranked._shared  # read from the top, not from the whole list
            checked += len(want)
    assert checked > 500  # the dates hold lists long enough to page through


def test_the_top_of_a_list_leaves_out_professionals_and_takes_opening_states(federation: list[dt.date]) -> None:
    professionals = set(Player.objects.filter(is_professional=True).values_list("pk", flat=True))
    by_opening = 0
    for date in federation:
        rows = from_top(date)[0:200]
        assert not professionals & {r.pk for r in rows}
        by_opening += sum(
            not RatingRow.objects.filter(player_id=r.pk, date__lte=date, valid_until__gt=date).exists() for r in rows
        )
    assert by_opening  # some players were on the lists by their opening state


def test_the_page_of_a_past_date_reads_its_rows_from_the_top(client: object, federation: list[dt.date]) -> None:
    date = federation[len(federation) // 2]
    response = client.get("/", {"date": date.isoformat()})  # type: ignore[attr-defined]
    assert response.status_code == 200
    order = rating_list(date=date).order()
    shown = [row.record.pk for row in response.context["table"].page.object_list]
    assert shown == list(order.ranked_pks[:50])
