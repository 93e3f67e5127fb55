"""The season walked end to end through the interfaces people use: a director registers a tournament in the
admin and a rating officer accepts it; it shows on the calendar and in the iCal feed; a player's follower
subscribes on the public page and confirms through the link the SMTP server received; after the last day the
results are awaited; the director sends a real turnering.txt through the API with a token he made in the admin
(a preview with a mistake, the fixed file, a retried submit) and they are received; a real Celery worker rates
them, and the director and the subscriber (in French) are told; a rating officer corrects a result with a
reason, and both are told again; a one-click unsubscribe stops the subscriber's messages. docs/season.md
describes the same walk."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Iterator
from email.header import decode_header, make_header
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import icalendar
import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from ratings.models import (
    AnnouncementStatus,
    Correction,
    OutgoingMail,
    PendingRerate,
    Player,
    Table,
    TableStatus,
    Tournament,
)
from ratings.services.fesa.state import fesa_state_import
from tests.admin.helpers import page_form_data, set_row
from tests.conftest import FIXED_NOW
from tests.factories import make_director, make_rating_officer
from tests.fesa.data import case_dir
from tests.pipeline.conftest import (
    RedisForTests,
    Worker,
    celery_pointed_at,
    redis_for_tests,
    started_worker,
    wait_for,
)
from tests.season.test_mail import Inbox, smtp_server

__all__ = ["redis_for_tests"]  # a fixture used by name
pytestmark = [pytest.mark.slow, pytest.mark.services, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

SAMPLE = case_dir("sample-2016-01-07")
START = FIXED_NOW.date() + dt.timedelta(days=19)  # FESA's notice period is 14 days
END = START + dt.timedelta(days=1)
AFTER = FIXED_NOW + dt.timedelta(days=22)  # two days after the last day: the results are awaited
FAN = "fan@example.org"
DIRECTOR = "td@example.org"


@pytest.fixture
def smtp(settings: Any) -> Iterator[tuple[Inbox, dict[str, str]]]:
    """An SMTP server for the web process (the confirmation message) and, by its environment, for the worker."""
    with smtp_server() as (inbox, env):
        settings.EMAIL_BACKEND, settings.EMAIL_HOST = env["EMAIL_BACKEND"], env["EMAIL_HOST"]
        settings.EMAIL_PORT = int(env["EMAIL_PORT"])
        yield inbox, {**env, "SITE_URL": settings.SITE_URL}


def subject(message: Any) -> str:
    return str(make_header(decode_header(message["Subject"])))


def body(message: Any) -> str:
    return str(message.get_payload(decode=True).decode(message.get_content_charset() or "utf-8"))


def to(inbox: Inbox, address: str) -> list[Any]:
    return [m for m in inbox.messages if m["To"] == address]


def path_of(url: str) -> str:
    return urlparse(url).path


def turnering(name: str, day: dt.date, *, broken: bool = False) -> bytes:
    """The sample club table as the director's program writes it for this tournament (ISO-8859-1)."""
    lines = (SAMPLE / "turnering.txt").read_bytes().decode("iso-8859-1").splitlines()
    lines[0], lines[1] = f"[{name}]", f"[{day.isoformat()}]"
    if broken:  # round 1 of player 1 names a player the table does not have
        lines[2] = lines[2].replace("[2+ 4+ 3+]", "[9+ 4+ 3+]")
    return ("\n".join(lines) + "\n").encode("iso-8859-1")


# --- the steps ---------------------------------------------------------------------------------------------------


def register_and_accept(director: Any, officer: Any) -> Tournament:
    desk = Client()
    desk.force_login(director)
    add_url = reverse("admin:ratings_tournament_add")
    data = page_form_data(desk.get(add_url)) | {
        "name": "Open de Lyon",
        "city": "Lyon",
        "country": "FR",
        "start_date": START.isoformat(),
        "end_date": END.isoformat(),
        "register": "on",
        "main_time_minutes": "30",
        "increment_seconds": "30",
        "mode": "Swiss",
        "contact": DIRECTOR,
        "announcement_url": "https://example.org/open-de-lyon",
        "planned_tables": "1",
    }
    assert desk.post(add_url, data).status_code == 302
    tournament = Tournament.objects.get(name="Open de Lyon")
    assert tournament.announcement == AnnouncementStatus.PROPOSED
    assert Client().get(reverse("ratings:tournament", args=[tournament.pk])).status_code == 404  # not public yet
    desk.force_login(officer)
    review = desk.post(reverse("admin:ratings_tournament_review", args=[tournament.pk]), {"decision": "accept"})
    assert review.status_code == 302
    tournament.refresh_from_db()
    assert tournament.announcement == AnnouncementStatus.ACCEPTED
    assert list(tournament.directors.all()) == [director]
    return tournament


def check_public_calendar(tournament: Tournament) -> None:
    page = Client().get(reverse("ratings:calendar"), {"year": START.year, "month": START.month})
    assert [t.pk for t in page.context["tournaments"]] == [tournament.pk]
    assert "Open de Lyon" in page.content.decode()
    feed = icalendar.Calendar.from_ical(Client().get(reverse("feeds:calendar_country", args=["fr"])).content)
    [event] = feed.walk("VEVENT")
    assert (str(event["summary"]), event.decoded("dtstart")) == ("Open de Lyon", START)
    assert event.decoded("dtend") == END + dt.timedelta(days=1)
    assert str(event["url"]).endswith(reverse("ratings:tournament", args=[tournament.pk]))
    status = Client().get(reverse("ratings:tournament", args=[tournament.pk]))
    assert status.context["season"].stage == "announced"


def subscribe_and_confirm(inbox: Inbox, player: Player) -> None:
    visitor = Client()
    url = reverse("ratings:subscribe", args=[player.federation_id])
    assert visitor.get(url).status_code == 200
    answer = visitor.post(url, {"email": FAN, "language": "fr", "on_tables": "on", "on_grades": "on"})
    assert answer.status_code == 302
    [confirmation] = to(inbox, FAN)  # sent after the request's commit, in the language chosen
    assert subject(confirmation).startswith("Classements FESA : confirmez")
    [link] = re.findall(r"https?://\S+/subscriptions/confirm/\S+/", body(confirmation))
    assert player.subscriptions.get().confirmed_at is None
    assert "subscriptions/confirm" in visitor.get(path_of(link)).content.decode()  # following it only asks
    assert player.subscriptions.get().confirmed_at is None
    assert visitor.post(path_of(link)).status_code == 200
    subscription = player.subscriptions.get()
    assert subscription.confirmed_at is not None and subscription.language == "fr"


def results_stage(tournament: Tournament) -> str:
    rows = Client().get(reverse("ratings:results_status")).context["rows"]
    [stage] = [status.stage for t, status in rows if t.pk == tournament.pk]
    page = Client().get(reverse("ratings:tournament", args=[tournament.pk]))
    assert page.context["season"].stage == stage
    return stage


def token_made_in_the_admin(director: Any) -> str:
    desk = Client()
    desk.force_login(director)
    last_day = (AFTER.date() + dt.timedelta(days=30)).isoformat()
    page = desk.post(reverse("admin:ratings_accesstoken_add"), {"name": "Pairing laptop", "expires_on": last_day})
    assert page.status_code == 200
    return re.search(r'value="(fesa_[^"]+)"', page.content.decode()).group(1)  # type: ignore[union-attr]


def send_through_the_api(tournament: Tournament, secret: str) -> Table:
    program = Client(HTTP_AUTHORIZATION=f"Bearer {secret}")
    preview = reverse("api-v1:tables_preview", args=[tournament.pk])
    submit = reverse("api-v1:tables_submit", args=[tournament.pk])

    def files(data: bytes) -> dict[str, Any]:
        return {"turnering": SimpleUploadedFile("turnering.txt", data)}

    wrong = program.post(preview, files(turnering("Open de Lyon", END, broken=True))).json()
    assert wrong["ok"] is False
    by_line = {p["line"]: p["message"] for p in wrong["problems"] if p["file"] == "turnering.txt"}
    assert "9" in by_line[3]  # the line of the player whose round is wrong
    assert set(by_line) == {3, 4}  # and of his opponent, who now has no game in that round
    fixed = turnering("Open de Lyon", END)
    good = program.post(preview, files(fixed)).json()
    assert good["ok"] is True and good["problems"] == [] and len(good["rating_effect"]) == 4
    assert not Table.objects.exists()  # a preview saves nothing
    key = str(uuid.uuid4())
    first = program.post(submit, files(fixed), HTTP_IDEMPOTENCY_KEY=key)
    again = program.post(submit, files(fixed), HTTP_IDEMPOTENCY_KEY=key)  # the program retries
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    table = Table.objects.get()
    assert (first.json()["table_id"], table.tournament_id) == (table.pk, tournament.pk)
    return table


def correct_in_the_admin(officer: Any, table: Table, reason: str) -> None:
    desk = Client()
    desk.force_login(officer)
    url = reverse("admin:ratings_table_change", args=[table.pk])
    data = page_form_data(desk.get(url))
    flipped = {"first": "second", "second": "first"}[data["games-0-result"]]
    set_row(data, "games", 0, result=flipped)
    preview = desk.post(url, data)
    assert "admin/ratings/correction/preview.html" in [t.name for t in preview.templates]
    carried = dict(preview.context["carried"])
    saved = desk.post(url, {**carried, "_correction_confirm": "yes", "_correction_reason": reason})
    assert saved.status_code == 302


def settled(worker: Worker, *conditions: Any) -> None:
    for condition in conditions:
        wait_for(condition, what=condition.__doc__ or "a message", worker=worker, timeout=90)
    wait_for(lambda: not PendingRerate.objects.exists() and worker.queue_empty(), what="the end", worker=worker)


# --- the walk ------------------------------------------------------------------------------------------------------


def test_a_tournament_from_registration_to_the_players_email(
    smtp: tuple[Inbox, dict[str, str]], redis_for_tests: RedisForTests, tmp_path: Path
) -> None:
    inbox, mail_env = smtp
    fesa_state_import(ratingliste=(SAMPLE / "ratingliste.pre").read_bytes())  # the federation's players so far
    fan_of = Player.objects.get(family_name="Ould Ahmed")
    before = fan_of.rating
    director, officer = make_director(), make_rating_officer()
    director.email = DIRECTOR
    director.save()

    # 1. Registered, accepted, public.
    tournament = register_and_accept(director, officer)
    check_public_calendar(tournament)

    # 2. A follower of one of its players subscribes and confirms.
    subscribe_and_confirm(inbox, fan_of)

    with time_machine.travel(AFTER):
        # 3. After the last day: results awaited; the director sends them from his program.
        assert results_stage(tournament) == "awaited"
        secret = token_made_in_the_admin(director)
        with celery_pointed_at(redis_for_tests.url, redis_for_tests.queue):  # the re-rate waits in the queue
            table = send_through_the_api(tournament, secret)
        assert results_stage(tournament) == "received"
        queues = f"{redis_for_tests.queue},celery"  # the worker also sends the messages its re-rates queue
        log = tmp_path / "worker.log"
        with started_worker(redis_for_tests, log, queues=queues, **mail_env) as worker:
            # 4. Rated by the worker; the director and the subscriber are told.
            def rated_and_told() -> bool:
                """the director's message and the subscriber's first news"""
                return len(to(inbox, DIRECTOR)) == 1 and len(to(inbox, FAN)) == 2

            settled(worker, rated_and_told)
            table.refresh_from_db()
            assert table.status == TableStatus.RATED
            assert results_stage(tournament) == "rated"
            [notice] = to(inbox, DIRECTOR)
            assert subject(notice) == "FESA ratings: your tables were rated"
            assert f"Open de Lyon ({END.isoformat()}): rated" in body(notice)
            assert reverse("ratings:table", args=[table.pk]) in body(notice)
            news = to(inbox, FAN)[1]
            fan_of.refresh_from_db()
            assert fan_of.rating != before
            assert subject(news) == f"Classements FESA : nouveaux classements de {fan_of}"
            text = body(news)
            assert "Open de Lyon" in text and "classée pour la première fois" in text and f"{fan_of.rating}" in text
            assert reverse("ratings:player_table", args=[fan_of.federation_id, table.pk]) in text
            assert news["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
            [unsubscribe] = re.findall(r"<(https?://[^>]+)>", " ".join(news["List-Unsubscribe"].split()))

            # 5. A rating officer corrects a result with a reason: both are told, with the reason.
            with worker.publishing():
                correct_in_the_admin(officer, table, "The scoresheet of round 1 was misread")

            def corrected_and_told() -> bool:
                """the correction's messages"""
                return len(to(inbox, DIRECTOR)) == 2 and len(to(inbox, FAN)) == 3

            settled(worker, corrected_and_told)
            correction = to(inbox, DIRECTOR)[1]
            assert subject(correction) == "FESA ratings: your tables were corrected"
            assert "The scoresheet of round 1 was misread" in body(correction)
            told = to(inbox, FAN)[2]
            fan_of.refresh_from_db()
            assert subject(told) == f"Classements FESA : nouveaux classements de {fan_of}"
            assert "reclassée après une correction" in body(told)
            assert f"{fan_of.rating}" in body(told)

            # One click in the mail program, and no more messages for the subscriber.
            one_click = Client().post(
                path_of(unsubscribe), "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
            )
            assert one_click.status_code == 200
            assert not fan_of.subscriptions.exists()
            with worker.publishing():
                correct_in_the_admin(officer, table, "Round 1 was right after all")

            def director_told_again() -> bool:
                """the director's third message"""
                return len(to(inbox, DIRECTOR)) == 3

            settled(worker, director_told_again)
            # The solo worker sent the director's message after the re-rate task that queued it had finished,
            # with its subscribers' part: a message for the address would be in the outbox by now.
            assert Correction.objects.count() == 2
            assert len(to(inbox, FAN)) == 3
            assert not OutgoingMail.objects.filter(recipient=FAN).exists()
