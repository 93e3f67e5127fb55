"""Players' subscribers: the form, the double opt-in, the messages of a re-rate run and of a grade awarded, the
one-click unsubscribe, expiry, and that an address is never shown (ratings/services/season/subscriptions.py)."""

from __future__ import annotations

import datetime as dt
import json
import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.core.cache import caches
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ratings.models import Game, OutgoingMail, Player, Promotion, Subscription, Table
from ratings.services.grades.promotions import promotion_approve, promotion_reject
from ratings.services.grades.revisions import promotion_revise
from ratings.services.privacy import player_erase, player_export
from ratings.services.season.subscriptions import (
    CONFIRMATIONS_PER_DAY,
    confirm_payload,
    runs_subscribers_notify,
    subscription_request,
    subscriptions_expire,
)
from ratings.services.tables.submit import table_changed, table_submit
from ratings.tasks import task_season_daily
from tests.conftest import FIXED_NOW
from tests.factories import (
    make_director,
    make_grade_officer,
    make_player,
    make_rating_officer,
    make_table,
    make_tournament,
    round_robin,
)
from tests.grades.conftest import WON, opponent, play, rate, seasoned

__all__ = ["play", "rate"]  # fixtures used by name
pytestmark = pytest.mark.django_db
DAY = dt.date(2026, 5, 10)
ADDRESS = "fan@example.org"


@pytest.fixture(autouse=True)
def _fresh_throttle() -> Iterator[None]:
    caches["api-throttle"].clear()
    yield
    caches["api-throttle"].clear()


def link_path(body: str, name: str) -> str:
    """The path of the site's link in a message body whose URL name is ``name`` (confirm, unsubscribe, ...)."""
    prefix = reverse(f"ratings:{name}", args=["TOKEN"]).split("TOKEN")[0]
    [url] = [u for u in re.findall(r"https?://\S+", body) if urlsplit(u).path.startswith(prefix)]
    return urlsplit(url).path


def confirm_from_outbox(address: str = ADDRESS) -> str:
    """Confirm through the link of the last message to ``address``, as its reader would: open it, press the
    button; the page then offers the way to stop the messages (the path returned)."""
    client = Client()
    path = link_path(messages_to(address)[-1].body, "subscription_confirm")
    assert client.get(path).status_code == 200
    done = client.post(path)
    assert done.status_code == 200
    prefix = reverse("ratings:unsubscribe", args=["TOKEN"]).split("TOKEN")[0]
    [stop] = re.findall(rf'href="({re.escape(prefix)}[^"]+)"', done.content.decode())
    return stop


def test_the_confirmed_page_offers_to_stop_before_any_message(django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        subscription_request(player=make_player(), email=ADDRESS, language="en", on_tables=True, on_grades=False)
    stop = confirm_from_outbox()
    assert Subscription.objects.filter(confirmed_at__isnull=False).exists()
    again = Client().get(link_path(messages_to(ADDRESS)[-1].body, "subscription_confirm")).content.decode()
    assert "Confirmed: you will be told" in again and "Press the button" not in again  # the link opened again
    assert Client().post(stop).status_code == 200
    assert not Subscription.objects.exists()


def subscribed(
    player: Player, *, email: str = ADDRESS, language: str = "en", capture: Any, **events: bool
) -> Subscription:
    """A confirmed subscription of ``email`` to ``player``, through the service and the confirmation link."""
    with capture(execute=True):
        subscription_request(
            player=player,
            email=email,
            language=language,
            on_tables=events.get("on_tables", True),
            on_grades=events.get("on_grades", True),
        )
    confirm_from_outbox(email)
    return Subscription.objects.get(player=player, email=email, confirmed_at__isnull=False)


def rated_table(players: list[Player], *, capture: Any, name: str = "Open de Lyon") -> Table:
    sequence = Table.objects.filter(date=DAY).count() + 1
    table = make_table(players, tournament=make_tournament(name, date=DAY), date=DAY, sequence=sequence)
    round_robin(table, players)
    with capture(execute=True):
        table_submit(table=table, user=None)  # on commit: the re-rate, its notices, the sending
    return table


def messages_to(address: str) -> list[Any]:
    return [m for m in mail.outbox if m.to == [address]]


def test_nothing_is_sent_for_events_before_the_address_confirms(django_capture_on_commit_callbacks: Any) -> None:
    players = [seasoned(1500, 12, family_name="Tanaka"), seasoned(1450, 11), seasoned(1400, 10)]
    with django_capture_on_commit_callbacks(execute=True):
        subscription_request(
            player=players[0], email=" Fan@Example.org ", language="en", on_tables=True, on_grades=True
        )
    [confirmation] = mail.outbox
    assert confirmation.to == [ADDRESS]  # the address compares without case or spaces
    assert "TANAKA" in confirmation.subject.upper() and players[0].federation_id in confirmation.body
    rated_table(players, capture=django_capture_on_commit_callbacks)
    assert messages_to(ADDRESS) == [confirmation]  # unconfirmed: the table is rated, nobody is told
    confirm_from_outbox()
    table = rated_table(players, capture=django_capture_on_commit_callbacks, name="Open de Nice")
    [message] = messages_to(ADDRESS)[1:]
    row = table.rating_rows.get(player=players[0])
    assert "Open de Nice (2026-05-10): rated for the first time;" in message.body
    assert f"rating change {row.change:+d}, new rating {row.rating_after}" in message.body
    explanation = reverse("ratings:player_table", args=[players[0].federation_id, table.pk])
    assert f"http://localhost:8000{explanation}" in message.body
    assert Client().get(explanation).status_code == 200  # the link leads to the table's explanation
    unsubscribe = link_path(message.body, "unsubscribe")
    assert message.extra_headers["List-Unsubscribe"] == f"<http://localhost:8000{unsubscribe}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_a_burst_of_edits_served_by_one_run_is_one_message_per_subscriber(
    django_capture_on_commit_callbacks: Any,
) -> None:
    players = [seasoned(1500 - 50 * n, 12) for n in range(4)]
    subscribed(players[0], capture=django_capture_on_commit_callbacks)
    table = rated_table(players, capture=django_capture_on_commit_callbacks)
    sent = len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        for game in Game.objects.filter(table=table, first=players[0])[:3]:  # three edits before the worker runs
            game.result = "draw"
            game.save()
            table_changed(table=table)
    [message] = mail.outbox[sent:]
    assert message.body.count("rated again after a correction") == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert runs_subscribers_notify() == 0  # told already (a repeated task): nothing new
    assert len(mail.outbox) == sent + 1


def test_each_message_is_in_the_language_the_subscriber_chose(django_capture_on_commit_callbacks: Any) -> None:
    players = [make_player() for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        subscription_request(player=players[0], email=ADDRESS, language="fr", on_tables=True, on_grades=False)
    assert "Pour confirmer" in mail.outbox[-1].body
    confirm_from_outbox()
    with django_capture_on_commit_callbacks(execute=True):
        subscription_request(
            player=players[0], email="leser@example.org", language="de", on_tables=True, on_grades=True
        )
    confirm_from_outbox("leser@example.org")
    rated_table(players, capture=django_capture_on_commit_callbacks)
    [french] = messages_to(ADDRESS)[1:]
    [german] = messages_to("leser@example.org")[1:]
    assert "nouveau classement" in french.body and "Se désabonner en un clic" in french.body
    assert "neue Wertungszahl" in german.body and "Mit einem Klick abbestellen" in german.body
    assert french.subject.startswith("Classements FESA") and german.subject.startswith("FESA-Wertung")


@pytest.mark.parametrize("lang", [code for code, _name in settings.LANGUAGES if code != "en"])
def test_the_confirmation_is_written_in_every_language_of_the_site(
    lang: str, django_capture_on_commit_callbacks: Any
) -> None:
    player = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        subscription_request(player=player, email=ADDRESS, language=lang, on_tables=True, on_grades=True)
    message = mail.outbox[-1]
    with translation.override(lang):
        subject = translation.gettext("FESA ratings: confirm the messages about %(player)s") % {"player": player}
        ignore = translation.gettext("If you did not ask for it, ignore this message: nothing more will be sent.")
    assert message.subject == subject and ignore in message.body
    assert "If you did not ask for it" not in message.body


def test_a_tables_line_is_punctuated_in_the_subscribers_language(django_capture_on_commit_callbacks: Any) -> None:
    players = [make_player() for _ in range(3)]
    subscribed(players[0], language="fr", capture=django_capture_on_commit_callbacks, on_grades=False)
    subscribed(players[0], email="leser@example.org", language="de", capture=django_capture_on_commit_callbacks)
    rated_table(players, capture=django_capture_on_commit_callbacks)
    [french] = messages_to(ADDRESS)[1:]
    [german] = messages_to("leser@example.org")[1:]
    assert f"Open de Lyon ({DAY.isoformat()}) : classée pour la première fois ; " in french.body
    assert f"Open de Lyon ({DAY.isoformat()}): erstmals gewertet; " in german.body


def test_asking_again_answers_the_same_and_changes_nothing_until_confirmed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    player = make_player()
    subscription = subscribed(player, capture=django_capture_on_commit_callbacks, on_grades=False)
    url = reverse("ratings:subscribe", args=[player.federation_id])
    form = {"email": ADDRESS, "language": "de", "on_tables": "on", "on_grades": "on"}
    with django_capture_on_commit_callbacks(execute=True):
        known = Client().post(url, form)
        unknown = Client().post(url, form | {"email": "new@example.org"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert Client().get(known["Location"]).content == Client().get(unknown["Location"]).content
    subscription.refresh_from_db()
    assert (subscription.language, subscription.on_grades) == ("en", False)  # a stranger changes nothing
    confirm_from_outbox()  # the address's owner confirms the new choices
    subscription.refresh_from_db()
    assert (subscription.language, subscription.on_grades) == ("de", True)


def test_an_address_gets_a_few_confirmation_requests_a_day_at_most(django_capture_on_commit_callbacks: Any) -> None:
    players = [make_player() for _ in range(CONFIRMATIONS_PER_DAY + 2)]
    with django_capture_on_commit_callbacks(execute=True):
        for player in players:
            subscription_request(player=player, email=ADDRESS, language="en", on_tables=True, on_grades=True)
        subscription_request(player=players[0], email=ADDRESS, language="en", on_tables=True, on_grades=True)
    assert len(messages_to(ADDRESS)) == CONFIRMATIONS_PER_DAY


def test_the_form_is_throttled_per_client_address(settings: Any) -> None:
    settings.SUBSCRIBE_RATE = "2/hour"
    player = make_player()
    url = reverse("ratings:subscribe", args=[player.federation_id])
    form = {"email": ADDRESS, "language": "en", "on_tables": "on"}
    answers = [Client().post(url, form | {"email": f"a{n}@example.org"}).status_code for n in range(3)]
    assert answers == [302, 302, 429]
    assert Client(REMOTE_ADDR="192.0.2.7").post(url, form).status_code == 302  # another client


def test_the_form_asks_for_an_event_and_defaults_to_the_page_language() -> None:
    player = make_player()
    url = reverse("ratings:subscribe", args=[player.federation_id])
    page = Client().get(url, HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200 and page.context["form"]["language"].value() == "fr"
    refused = Client().post(url, {"email": ADDRESS, "language": "en"})
    assert refused.status_code == 400 and not Subscription.objects.exists()
    link = reverse("ratings:subscribe", args=[player.federation_id])
    assert link in Client().get(reverse("ratings:player", args=[player.federation_id])).content.decode()


def test_a_forged_or_expired_confirmation_link_confirms_nothing(django_capture_on_commit_callbacks: Any) -> None:
    player = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        subscription_request(player=player, email=ADDRESS, language="en", on_tables=True, on_grades=True)
    path = link_path(mail.outbox[-1].body, "subscription_confirm")
    token = path.rstrip("/").rsplit("/", 1)[1]
    assert confirm_payload(token) is not None
    forged = path.replace(token, token[:-2] + ("AA" if not token.endswith("AA") else "BB"))
    assert Client().post(forged).status_code == 400
    with time_machine.travel(FIXED_NOW + dt.timedelta(days=8), tick=False):
        assert Client().post(path).status_code == 400
    assert not Subscription.objects.filter(confirmed_at__isnull=False).exists()


def test_unconfirmed_subscriptions_expire_with_their_messages(django_capture_on_commit_callbacks: Any) -> None:
    kept = subscribed(make_player(), capture=django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        subscription_request(
            player=make_player(), email="late@example.org", language="en", on_tables=True, on_grades=True
        )
    assert subscriptions_expire(now=FIXED_NOW + dt.timedelta(days=1)) == 0
    assert subscriptions_expire(now=FIXED_NOW + dt.timedelta(days=8)) == 1
    assert list(Subscription.objects.all()) == [kept]
    assert not OutgoingMail.objects.filter(recipient="late@example.org").exists()


def test_one_click_unsubscribe_needs_no_csrf_token_and_get_only_asks(django_capture_on_commit_callbacks: Any) -> None:
    players = [make_player() for _ in range(3)]
    subscribed(players[0], capture=django_capture_on_commit_callbacks)
    rated_table(players, capture=django_capture_on_commit_callbacks)
    path = link_path(mail.outbox[-1].body, "unsubscribe")
    client = Client(enforce_csrf_checks=True)
    asked = client.get(path)
    assert asked.status_code == 200 and Subscription.objects.exists()  # a link checker's GET removes nothing
    assert b'method="post"' in asked.content
    done = client.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert done.status_code == 200
    assert not Subscription.objects.exists()
    assert not OutgoingMail.objects.filter(recipient=ADDRESS).exists()  # its messages, with the address, go too
    assert client.post(path).status_code == 200  # followed twice: the same answer
    assert client.post(path[:-3] + "xx/").status_code == 400
    told = len(messages_to(ADDRESS))
    rated_table(players, capture=django_capture_on_commit_callbacks, name="Open de Nice")
    assert len(messages_to(ADDRESS)) == told  # nothing more for the address


def test_a_grade_awarded_is_told_once(play: Any, django_capture_on_commit_callbacks: Any) -> None:
    player = seasoned(1795, 20)
    subscribed(player, language="en", capture=django_capture_on_commit_callbacks, on_tables=False)
    subscribed(player, email="tables-only@example.org", capture=django_capture_on_commit_callbacks, on_grades=False)
    sent = len(mail.outbox)
    play(player, opponent(1795), WON, date=dt.date(2024, 5, 12))  # a pending 1 Dan (tests/grades/test_decisions.py)
    assert len(mail.outbox) == sent + 1  # the table, to the tables-only address; the Dan grade is not awarded yet
    promotion = Promotion.objects.get(player=player, grade=21)
    with django_capture_on_commit_callbacks(execute=True):
        promotion_approve(promotion=promotion, user=make_grade_officer(), reason="strong results", expected=None)
    [message] = mail.outbox[sent + 1 :]
    assert message.to == [ADDRESS]
    assert "1 Dan" in message.subject and "#grades" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_an_address_is_never_shown_on_public_pages_nor_in_the_api(django_capture_on_commit_callbacks: Any) -> None:
    players = [make_player() for _ in range(3)]
    subscribed(players[0], capture=django_capture_on_commit_callbacks)
    table = rated_table(players, capture=django_capture_on_commit_callbacks)
    fid = players[0].federation_id
    pages = [
        reverse("ratings:player", args=[fid]),
        reverse("ratings:player_table", args=[fid, table.pk]),
        reverse("ratings:subscribe", args=[fid]),
        reverse("ratings:subscribe_sent", args=[fid]),
        reverse("ratings:table", args=[table.pk]),
        reverse("api-v1:player", args=[fid]),
        reverse("api-v1:player_history", args=[fid]),
        reverse("api-v1:table", args=[table.pk]),
        link_path(mail.outbox[-1].body, "unsubscribe"),
    ]
    for page in pages:
        response = Client().get(page)
        assert response.status_code == 200, page
        assert b"example.org" not in response.content, page


def test_the_privacy_export_holds_the_subscriptions_and_the_erasure_deletes_them(
    django_capture_on_commit_callbacks: Any,
) -> None:
    players = [make_player() for _ in range(3)]
    subscribed(players[0], capture=django_capture_on_commit_callbacks)
    rated_table(players, capture=django_capture_on_commit_callbacks)
    officer = make_rating_officer()
    document = json.loads(player_export(player=players[0], user=officer))
    [entry] = document["subscriptions"]
    assert (entry["email"], entry["language"]) == (ADDRESS, "en") and entry["confirmed_at"]
    assert len(entry["messages"]) == 2  # the confirmation and the table's message
    player_erase(player=players[0], user=officer)
    assert not Subscription.objects.exists()
    assert not OutgoingMail.objects.filter(recipient=ADDRESS).exists()


def test_rating_officers_see_and_delete_subscriptions_in_the_admin_and_nobody_adds_one(
    django_capture_on_commit_callbacks: Any,
) -> None:
    subscription = subscribed(make_player(), capture=django_capture_on_commit_callbacks)
    listing = reverse("admin:ratings_subscription_changelist")
    client = Client()
    client.force_login(make_director())
    assert client.get(listing).status_code == 403
    client.force_login(make_rating_officer())
    assert list(client.get(listing).context["cl"].result_list) == [subscription]
    assert client.get(reverse("admin:ratings_subscription_add")).status_code == 403
    delete = reverse("admin:ratings_subscription_delete", args=[subscription.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 302
    assert not Subscription.objects.exists()
    assert not OutgoingMail.objects.filter(recipient=ADDRESS).exists()  # its messages went with it


def test_a_rejected_dan_grade_approved_on_revision_is_told(play: Any, django_capture_on_commit_callbacks: Any) -> None:
    player = seasoned(1795, 20)
    subscribed(player, capture=django_capture_on_commit_callbacks, on_tables=False)
    play(player, opponent(1795), WON, date=dt.date(2024, 5, 12))
    promotion = Promotion.objects.get(player=player, grade=21)
    officer = make_grade_officer()
    sent = len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        promotion_reject(promotion=promotion, user=officer, reason="too early", expected=None)
    assert len(mail.outbox) == sent  # rejected: nothing awarded
    with django_capture_on_commit_callbacks(execute=True):
        promotion_revise(promotion=promotion, user=officer, reason="the results stand", expected=None)
    [message] = mail.outbox[sent:]
    assert "1 Dan" in message.subject


def test_the_daily_task_forgets_unconfirmed_subscriptions(django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        subscription_request(player=make_player(), email=ADDRESS, language="en", on_tables=True, on_grades=False)
    with time_machine.travel(FIXED_NOW + dt.timedelta(days=8), tick=False):
        assert task_season_daily()["subscriptions_expired"] == 1
    assert not Subscription.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_twenty_requests_at_once_for_one_address_queue_at_most_the_days_cap() -> None:
    """The cap is counted and the message queued while the address is held: a burst cannot all count two."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent connections: the PostgreSQL run has them (SQLite serialises all writes)")
    players = [make_player(f"Burst{n}") for n in range(20)]
    start = threading.Barrier(20)

    def ask(player: Player) -> None:
        try:
            start.wait(timeout=30)
            subscription_request(player=player, email=ADDRESS, language="en", on_tables=True, on_grades=False)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=20) as pool:
        list(pool.map(ask, players))
    queued = OutgoingMail.objects.filter(recipient=ADDRESS, event_key__contains=":confirm:").count()
    assert queued == CONFIRMATIONS_PER_DAY, queued
