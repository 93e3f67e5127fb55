"""A player's subscriber against a real SMTP server (aiosmtpd, started here): the confirmation arrives, a rated
table's message carries the one-click unsubscribe headers (RFC 8058), and the one-click POST a mail program sends
ends the messages."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from ratings.models import Subscription, Table
from ratings.services.tables.submit import table_submit
from tests.factories import make_player, make_table, make_tournament, round_robin
from tests.season.test_mail import Inbox, smtp

__all__ = ["smtp"]  # a fixture used by name
pytestmark = pytest.mark.django_db
DAY = dt.date(2026, 5, 10)


def body_of(message: Any) -> str:
    return message.get_payload(decode=True).decode(message.get_content_charset() or "utf-8")


def site_path(text: str, prefix: str) -> str:
    [url] = [u for u in re.findall(r"https?://[^\s>]+", text) if urlsplit(u).path.startswith(prefix)]
    return urlsplit(url).path


def rate_a_table(players: list[Any], sequence: int, capture: Any) -> Table:
    table = make_table(players, tournament=make_tournament(date=DAY), date=DAY, sequence=sequence)
    round_robin(table, players)
    with capture(execute=True):
        table_submit(table=table, user=None)
    return table


def test_subscriber_confirms_is_told_with_unsubscribe_headers_and_leaves_in_one_click(
    smtp: Inbox, django_capture_on_commit_callbacks: Any
) -> None:
    caches["api-throttle"].clear()
    players = [make_player() for _ in range(3)]
    form = {"email": "fan@example.org", "language": "en", "on_tables": "on", "on_grades": "on"}
    with django_capture_on_commit_callbacks(execute=True):
        asked = Client().post(reverse("ratings:subscribe", args=[players[0].federation_id]), form)
    assert asked.status_code == 302
    [confirmation] = smtp.messages
    assert confirmation["To"] == "fan@example.org" and confirmation["List-Unsubscribe"] is None
    confirm = site_path(body_of(confirmation), "/subscriptions/confirm/")
    assert Client().post(confirm).status_code == 200

    table = rate_a_table(players, 1, django_capture_on_commit_callbacks)
    [message] = smtp.messages[1:]
    assert message["To"] == "fan@example.org"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = site_path(message["List-Unsubscribe"], "/subscriptions/unsubscribe/")
    assert unsubscribe in body_of(message)  # the same link in the body, for a person
    assert reverse("ratings:player_table", args=[players[0].federation_id, table.pk]) in body_of(message)

    one_click = Client(enforce_csrf_checks=True).post(
        unsubscribe, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert one_click.status_code == 200
    assert not Subscription.objects.exists()
    rate_a_table(players, 2, django_capture_on_commit_callbacks)
    assert len(smtp.messages) == 2  # nothing more after leaving
