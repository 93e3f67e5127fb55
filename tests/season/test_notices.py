"""A director hears once that his table was rated: the re-rate task (run in-process here) queues one message per
director and run, and repeating the notice for the same run sends nothing new."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail

from ratings.models import RerateRun, TableStatus
from ratings.services.season.notices import run_directors_notify
from ratings.services.tables.submit import table_submit
from tests.factories import make_director, make_player, make_table, make_tournament, round_robin

pytestmark = pytest.mark.django_db
DAY = dt.date(2026, 5, 10)


def test_director_is_told_once_when_his_table_is_rated(django_capture_on_commit_callbacks: Any) -> None:
    director, silent = make_director(), make_director()
    director.email = "td@example.org"
    director.save()
    tournament = make_tournament("Open de Lyon", date=DAY, directors=[director, silent])  # silent: no address
    players = [make_player() for _ in range(3)]
    table = make_table(players, tournament=tournament, date=DAY)
    round_robin(table, players)
    with django_capture_on_commit_callbacks(execute=True):
        table_submit(table=table, user=director)  # on commit: the re-rate, then its notice, then the sending
    table.refresh_from_db()
    assert table.status == TableStatus.RATED
    [message] = mail.outbox
    assert message.to == ["td@example.org"]
    assert "Open de Lyon (2026-05-10): rated" in message.body
    run = RerateRun.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        assert run_directors_notify(run_id=run.pk) == 0  # the same run again: nothing new
    assert len(mail.outbox) == 1
