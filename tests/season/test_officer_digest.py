"""The rating officers' digest counts only the tables that did not settle and wait for a decision: a rated table
that settled, or one a rating officer resolved, waits for nothing and sends no digest."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from ratings.models import Player, Table, TableResolution
from ratings.services.season.reminders import officer_digest_queue
from tests.conftest import FIXED_NOW
from tests.factories import make_player, make_rating_officer, make_table, round_robin
from tests.pipeline.histories import submit

pytestmark = pytest.mark.django_db
TODAY = FIXED_NOW.date()
CYCLE = {"players": [], "states": [[1500, 1500], [1510, 1490]]}


def test_only_tables_waiting_for_a_decision_count(django_capture_on_commit_callbacks: Any) -> None:
    officer = make_rating_officer()
    officer.email = "officer@example.org"
    officer.save()
    players = [make_player() for _ in range(3)]
    Player.objects.update(created_at=timezone.now() - dt.timedelta(days=10))  # nobody new
    table = make_table(players, date=dt.date(2026, 5, 10))
    round_robin(table, players)
    submit(table)
    with django_capture_on_commit_callbacks(execute=True):
        assert officer_digest_queue(today=TODAY) == 0  # a table that settled waits for nothing
        Table.objects.filter(pk=table.pk).update(cycle_states=CYCLE)
        assert officer_digest_queue(today=TODAY) == 1
        TableResolution.objects.create(
            table=table, rule="mean", states=CYCLE, result={}, resolved_by=officer, resolved_at=timezone.now()
        )
        assert officer_digest_queue(today=TODAY + dt.timedelta(days=1)) == 0  # resolved: nothing waits
    [message] = mail.outbox
    assert message.body == "Tables that did not settle: 1"
