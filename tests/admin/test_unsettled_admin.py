"""The queue of tables that did not settle: the states side by side, "Resolve by the rule", for officers only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from ratings.models import TableResolution, TableStatus
from tests.factories import make_director, make_grade_officer, make_rating_officer, make_user
from tests.pipeline.test_unsettled import cup_of_bad_luck

pytestmark = pytest.mark.django_db

QUEUE = "admin:ratings_unsettledtable_changelist"


def test_the_queue_shows_each_players_alternating_states_side_by_side(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    cup, later, _a, _b = cup_of_bad_luck(django_capture_on_commit_callbacks)
    client.force_login(make_rating_officer())
    page = client.get(reverse(QUEUE)).content.decode()
    assert str(cup) in page and str(later) not in page
    assert "waiting for the rating officer: players pass through unchanged" in page
    for row in ('<th scope="row">ALPHA', "<td>1568</td>", "<td>1570</td>", "<td>1451</td>", "<td>1452</td>"):
        assert row.lower() in page.lower()
    assert '<th scope="col">state 2</th>' in page and "state 3" not in page


@pytest.mark.parametrize("role", [make_director, make_grade_officer])
def test_the_queue_is_for_rating_officers_only(client: Client, role) -> None:  # type: ignore[no-untyped-def]
    client.force_login(role())
    assert client.get(reverse(QUEUE)).status_code == 403


def test_resolving_from_the_queue_records_who_and_rates_the_table(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    cup, _later, _a, _b = cup_of_bad_luck(django_capture_on_commit_callbacks)
    officer = make_rating_officer()
    client.force_login(officer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse(QUEUE), {"action": "resolve_by_rule", "_selected_action": [cup.pk]})
    assert response.status_code == 302
    resolution = TableResolution.objects.get()
    assert resolution.resolved_by == officer and resolution.table == cup
    cup.refresh_from_db()
    assert cup.status == TableStatus.RATED
    assert "resolved by the rule lowest-in-cycle" in client.get(reverse(QUEUE)).content.decode()
    page = client.get(reverse("ratings:table", args=[cup.pk])).content.decode()
    assert "This table did not settle" in page and "The rating officer resolved it by the federation" in page


def test_a_user_who_may_see_the_queue_but_is_no_rating_officer_cannot_resolve(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    cup, _later, _a, _b = cup_of_bad_luck(django_capture_on_commit_callbacks)
    viewer = make_user(username="viewer")
    viewer.is_staff = True
    viewer.save()
    viewer.user_permissions.add(Permission.objects.get(codename="view_unsettledtable"))
    client.force_login(viewer)
    assert client.get(reverse(QUEUE)).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse(QUEUE), {"action": "resolve_by_rule", "_selected_action": [cup.pk]})
    assert not TableResolution.objects.exists()


def test_the_public_page_says_the_players_pass_through_unchanged(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    cup, _later, _a, _b = cup_of_bad_luck(django_capture_on_commit_callbacks)
    page = client.get(reverse("ratings:table", args=[cup.pk])).content.decode()
    assert "This table did not settle" in page and "pass into later tables with their ratings unchanged" in page
