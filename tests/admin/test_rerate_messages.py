"""The message after an edit that re-rates says what happened: "were re-rated" when the re-rate ran in-process
on commit (no broker), "will be re-rated" only while it waits for a worker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from ratings.models import PendingRerate, TableStatus
from tests.admin.helpers import errors_of, post_page, set_row
from tests.factories import add_game, make_director, make_player, make_table, make_tournament
from tests.pipeline.conftest import celery_pointed_at

pytestmark = pytest.mark.django_db

DONE = "The table and every table after it were re-rated."
QUEUED = "The table will be re-rated, and every table after it."


def _save_changed_table(client: Client, capture: Callable[..., Any]) -> list[str]:
    director = make_director()
    a, b = make_player(), make_player()
    table = make_table([a, b], tournament=make_tournament(directors=[director]), status=TableStatus.SUBMITTED)
    add_game(table, 1, a, b)
    client.force_login(director)
    with capture(execute=True):
        _page, response = post_page(
            client,
            reverse("admin:ratings_table_change", args=[table.pk]),
            lambda data: set_row(data, "games", 0, result="draw"),
        )
    assert response.status_code == 302, errors_of(response)
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_in_process_rerate_says_the_tables_were_re_rated(
    client: Client, django_capture_on_commit_callbacks: Callable[..., Any], settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    shown = _save_changed_table(client, django_capture_on_commit_callbacks)
    assert not PendingRerate.objects.exists()
    assert DONE in shown and QUEUED not in shown


def test_queued_rerate_says_the_tables_will_be_re_rated(
    client: Client, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with celery_pointed_at("memory://"):  # queued for a worker, none takes it here
        shown = _save_changed_table(client, django_capture_on_commit_callbacks)
    assert PendingRerate.objects.exists()
    assert QUEUED in shown and DONE not in shown
