"""HTTP caching of the public pages (ratings/web/caching.py): validators that change with the data, 304s."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Promotion, PromotionStatus, Table
from ratings.services.grades.promotions import promotion_approve
from tests.factories import make_grade_officer
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def public_urls(table: Table, federation_id: str) -> list[str]:
    return [
        reverse("ratings:rating_list"),
        reverse("ratings:rating_list_of", args=[table.date.isoformat()]),
        reverse("ratings:rating_list_csv"),
        reverse("ratings:rating_list_json"),
        reverse("ratings:player", args=[federation_id]),
        reverse("ratings:player_table", args=[federation_id, table.pk]),
        reverse("ratings:table", args=[table.pk]),
        reverse("ratings:tournaments"),
        reverse("ratings:promotions"),
        reverse("files:rating_list") + "?format=all.txt",
        reverse("files:table_result_txt", args=[table.pk]),
    ]


def test_public_pages_answer_a_conditional_get_with_304(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    a, b = seasoned(1600, family_name="A"), seasoned(1500, family_name="B")
    table = rated_round_robin([a, b], days_ago(10))
    for url in public_urls(table, a.federation_id):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["ETag"] and response["Last-Modified"], url
        assert "max-age=60" in response["Cache-Control"], url
        again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
        assert again.status_code == 304, url
        assert again.content == b""
        since = client.get(url, HTTP_IF_MODIFIED_SINCE=response["Last-Modified"])
        assert since.status_code == 304, url


def test_a_rerate_changes_the_etag(client: Client, rated_round_robin: Callable[..., Table]) -> None:
    a, b = seasoned(1600, family_name="A"), seasoned(1500, family_name="B")
    rated_round_robin([a, b], days_ago(10))
    url = reverse("ratings:rating_list")
    before = client.get(url)["ETag"]
    rated_round_robin([b, a], days_ago(5))
    response = client.get(url, HTTP_IF_NONE_MATCH=before)
    assert response.status_code == 200
    assert response["ETag"] != before
    # The page shows the new ratings: the list kept for the old version is not used.
    ranks = [(r.record.family_name, r.record.rank) for r in response.context["table"].paginated_rows]
    assert ranks == [("B", 1), ("A", 2)] or ranks == [("A", 1), ("B", 2)]
    assert response.context["table"].paginated_rows[0].record.rating != 1600


def test_a_grade_decision_changes_the_etag(client: Client, pending_first_dan: Promotion) -> None:
    promotion = pending_first_dan
    assert promotion.status == PromotionStatus.PENDING
    url = reverse("ratings:rating_list")
    before = client.get(url)
    assert before.context["table"].paginated_rows[0].record.shown_pending_grade == 21
    promotion_approve(promotion=promotion, user=make_grade_officer(), expected=None)
    assert Promotion.objects.get(pk=promotion.pk).status == PromotionStatus.APPROVED
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert after.context["table"].paginated_rows[0].record.grade == 21
