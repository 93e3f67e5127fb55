"""A player's report of a mistake: the form on a player's and a table's page, the double opt-in, the throttle, the
officers' queue and digest, the outcome mailed in the reporter's language, privacy."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from ratings.models import Correction, MistakeReport, OutgoingMail, ReportStatus
from ratings.services.fingerprints import VERSION_FIELD
from ratings.services.privacy import player_erase, player_export
from ratings.services.reports import report_decide, report_request, reports_expire
from ratings.services.season.reminders import officer_digest_queue
from tests.factories import add_game, make_player, make_rating_officer, make_table

pytestmark = pytest.mark.django_db
ADDRESS = "reporter@example.org"


def confirm_link(body: str) -> str:
    match = re.search(r"/reports/confirm/([^/\s]+)/", body)
    assert match
    return match.group(1)


def test_a_report_waits_for_its_confirmation_then_reaches_the_queue(client: Client) -> None:
    player, other = make_player("Ando"), make_player("Baba")
    table = make_table([player, other], status="rated")
    game = add_game(table, 1, player, other)
    url = reverse("ratings:report_player", args=[player.federation_id]) + f"?table={table.pk}"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200 and f'value="{game.pk}"' in page.content.decode()
    sent = client.post(url, {"game": game.pk, "what": "Baba won round 1", "email": ADDRESS, "language": "de"})
    assert sent.status_code == 302
    thanks = client.get(sent["Location"]).content.decode()  # the answer leads back to the player's page
    assert f'href="{reverse("ratings:player", args=[player.federation_id])}"' in thanks
    report = MistakeReport.objects.get()
    assert (report.player, report.table, report.game, report.confirmed_at) == (player, table, game, None)
    message = OutgoingMail.objects.get(recipient=ADDRESS)
    assert "Fehler" in message.subject  # in the reporter's language
    assert f"Runde 1, {player} gegen {other}" in message.body  # the game, not only its round
    token = confirm_link(message.body)
    assert client.get(reverse("ratings:report_confirm", args=[token])).status_code == 200
    assert MistakeReport.objects.get().confirmed_at is None  # a GET (a mail program checking links) confirms nothing
    asked = client.get(reverse("ratings:report_confirm", args=[token])).content.decode()
    assert "Press the button" in asked and "Baba won round 1" in asked  # what the link sends, in his words
    client.post(reverse("ratings:report_confirm", args=[token]))
    assert MistakeReport.objects.get().confirmed_at is not None
    again = client.get(reverse("ratings:report_confirm", args=[token])).content.decode()  # the link opened again
    assert "Confirmed: the rating officers have your report." in again and "Press the button" not in again
    assert "Baba won round 1" in again and reverse("ratings:player", args=[player.federation_id]) in again
    assert client.get(reverse("ratings:report_confirm", args=["forged"])).status_code == 400


def test_a_report_from_a_table_page_offers_its_games_and_refuses_bad_input(client: Client) -> None:
    a, b = make_player(), make_player()
    table = make_table([a, b], status="rated")
    add_game(table, 1, a, b)
    url = reverse("ratings:report_table", args=[table.pk])
    assert url in client.get(reverse("ratings:table", args=[table.pk])).content.decode()
    assert client.post(url, {"what": "", "email": ADDRESS, "language": "en"}).status_code == 400
    assert client.post(url, {"what": "x", "email": "not an address", "language": "en"}).status_code == 400
    assert client.post(url, {"what": "x", "email": ADDRESS, "language": "en", "game": "999999"}).status_code == 400
    assert not MistakeReport.objects.exists()
    sent = client.post(url, {"what": "Round 1 was a draw", "email": ADDRESS, "language": "en"})
    thanks = client.get(sent["Location"]).content.decode()  # the answer leads back to the table's page
    assert f'href="{reverse("ratings:table", args=[table.pk])}">Back to the table</a>' in thanks
    draft = make_table([a, b], date=dt.date(2024, 6, 1))
    assert client.get(reverse("ratings:report_table", args=[draft.pk])).status_code == 404


def test_a_players_form_names_each_of_his_tables_with_its_date_once(client: Client, rate: Any) -> None:
    a, b = make_player("Ando"), make_player("Baba")
    table = make_table([a, b], date=dt.date(2024, 5, 12))
    add_game(table, 1, a, b)
    rate(table)
    page = client.get(reverse("ratings:report_player", args=[a.federation_id])).content.decode()
    assert f'<option value="{table.pk}">2024-05-12 {table.tournament.name}</option>' in page


def test_the_form_is_throttled_per_client_address(settings: Any) -> None:
    caches["api-throttle"].clear()  # another test's requests from the same address
    settings.SUBSCRIBE_RATE = "2/hour"
    player = make_player()
    url = reverse("ratings:report_player", args=[player.federation_id])
    form = {"what": "wrong name", "email": ADDRESS, "language": "en"}
    assert [Client().post(url, form).status_code for _ in range(3)] == [302, 302, 429]
    assert MistakeReport.objects.count() == 2


def test_report_request_refuses_a_game_of_another_table() -> None:
    a, b = make_player(), make_player()
    game = add_game(make_table([a, b]), 1, a, b)
    other_table = make_table([a, b], date=dt.date(2024, 6, 1))
    with pytest.raises(ValidationError):
        report_request(player=a, table=other_table, game=game, what="x", email=ADDRESS, language="en")
    with pytest.raises(ValidationError):
        report_request(player=None, table=None, game=None, what="x", email=ADDRESS, language="en")


def confirmed(player: Any, language: str = "fr") -> MistakeReport:
    report = report_request(player=player, table=None, game=None, what="Mon nom", email=ADDRESS, language=language)
    report.confirmed_at = timezone.now()
    report.save()
    return report


def test_the_officer_decides_and_the_reporter_is_told_in_his_language(client: Client) -> None:
    officer = make_rating_officer()
    report = confirmed(make_player())
    with pytest.raises(ValidationError):
        report_decide(report=report, status=ReportStatus.REJECTED, reason=" ", user=officer, expected=None)
    report_decide(report=report, status=ReportStatus.IN_PROGRESS, user=officer, expected=None)
    assert not OutgoingMail.objects.filter(event_key__contains=":outcome:").exists()
    client.force_login(officer)
    url = reverse("admin:ratings_mistakereport_change", args=[report.pk])
    page = client.get(url)
    assert page.status_code == 200
    # The reason goes to the reporter as typed; his language named in the officer's ("French", not "Français").
    assert "in a mail in French" in page.content.decode()
    version = page.context["adminform"].form[VERSION_FIELD].value()
    refused = client.post(url, {"status": "rejected", "reason": "", "correction": "", VERSION_FIELD: version})
    assert refused.status_code == 200 and MistakeReport.objects.get().status == ReportStatus.IN_PROGRESS
    # The page stays the form, with why: the refused choice is not taken for the report's settled state.
    [why] = refused.context["adminform"].form.errors["reason"]
    assert 'name="status"' in refused.content.decode() and escape(why) in refused.content.decode()
    done = client.post(
        url, {"status": "rejected", "reason": "Le nom est juste.", "correction": "", VERSION_FIELD: version}
    )
    assert done.status_code == 302
    outcome = OutgoingMail.objects.get(event_key=f"report:{report.pk}:outcome:rejected")
    assert "Le nom est juste." in outcome.body and "signalement" in outcome.subject
    assert MistakeReport.objects.get().decided_by == officer


def identity_correction(player: Any) -> Correction:
    return Correction.objects.create(
        kind=Correction.Kind.IDENTITY, player=player, reason="name", before={}, after={}, summary="name corrected"
    )


def test_a_corrected_report_links_its_correction(client: Client) -> None:
    officer = make_rating_officer()
    player = make_player()
    report = confirmed(player, language="en")
    correction = identity_correction(player)
    report_decide(report=report, status=ReportStatus.CORRECTED, correction=correction, user=officer, expected=None)
    assert MistakeReport.objects.get().correction == correction
    assert "corrected it" in OutgoingMail.objects.get(event_key__endswith="outcome:corrected").body
    # The queue's line: short dates, and the correction one click away.
    client.force_login(officer)
    queue = client.get(reverse("admin:ratings_mistakereport_changelist")).content.decode()
    link = reverse("admin:ratings_correction_change", args=[correction.pk])
    assert f'<a href="{link}">{timezone.localtime(correction.made_at):%Y-%m-%d}</a>' in queue
    assert f"{timezone.localtime(report.created_at):%Y-%m-%d %H:%M}" in queue


def test_corrected_needs_a_correction_of_what_was_reported() -> None:
    officer = make_rating_officer()
    player, other = make_player(), make_player()
    report = confirmed(player, language="en")
    with pytest.raises(ValidationError) as missing:
        report_decide(report=report, status=ReportStatus.CORRECTED, user=officer, expected=None)
    assert "correction" in missing.value.message_dict
    with pytest.raises(ValidationError) as unrelated:
        report_decide(
            report=report,
            status=ReportStatus.CORRECTED,
            correction=identity_correction(other),
            user=officer,
            expected=None,
        )
    assert "correction" in unrelated.value.message_dict
    # A table he played, corrected: it may settle a report about him.
    table = make_table([player, other])
    of_his_table = Correction.objects.create(
        kind=Correction.Kind.TABLE, table=table, reason="result", before={}, after={}, summary="result corrected"
    )
    report_decide(report=report, status=ReportStatus.CORRECTED, correction=of_his_table, user=officer, expected=None)
    assert MistakeReport.objects.get().status == ReportStatus.CORRECTED
    # A report about a table: only a correction of that table settles it.
    about_table = report_request(player=None, table=table, game=None, what="x", email=ADDRESS, language="en")
    about_table.confirmed_at = timezone.now()
    about_table.save()
    other_table = make_table([player, other], date=dt.date(2024, 6, 1))
    elsewhere = Correction.objects.create(
        kind=Correction.Kind.TABLE, table=other_table, reason="r", before={}, after={}, summary="s"
    )
    with pytest.raises(ValidationError):
        report_decide(
            report=about_table, status=ReportStatus.CORRECTED, correction=elsewhere, user=officer, expected=None
        )


def test_the_correction_is_chosen_among_those_that_may_settle_the_report(client: Client) -> None:
    """The field was a raw id whose lookup listed every correction of the federation."""
    from ratings.services.reports import settling_corrections

    player, other = make_player(), make_player()
    report = confirmed(player, language="en")
    table = make_table([player, other])
    his = identity_correction(player)
    of_his_table = Correction.objects.create(
        kind=Correction.Kind.TABLE, table=table, reason="result", before={}, after={}, summary="result corrected"
    )
    identity_correction(other)  # settles nothing of his
    make_table([other], date=dt.date(2024, 6, 1))
    assert list(settling_corrections(report)) == [of_his_table, his]  # the newest first
    client.force_login(make_rating_officer())
    page = client.get(reverse("admin:ratings_mistakereport_change", args=[report.pk]))
    field = page.context["adminform"].form.fields["correction"]
    assert [label for _value, label in field.choices][1:] == [
        f"{timezone.localtime(c.made_at):%Y-%m-%d %H:%M} · {c.summary}" for c in (of_his_table, his)
    ]


def test_a_settled_report_is_final_and_the_reporter_told_once(client: Client) -> None:
    officer = make_rating_officer()
    report = confirmed(make_player(), language="en")
    report_decide(report=report, status=ReportStatus.REJECTED, reason="Right as it is", user=officer, expected=None)
    for status in (ReportStatus.IN_PROGRESS, ReportStatus.NEW):
        with pytest.raises(ValidationError):
            report_decide(report=report, status=status, user=officer, expected=None)
    decided_at = MistakeReport.objects.get().decided_at
    for reason in ("Other words", "Right as it is"):  # the same decision again neither: it would stamp it anew
        with pytest.raises(ValidationError):
            report_decide(report=report, status=ReportStatus.REJECTED, reason=reason, user=officer, expected=None)
    assert MistakeReport.objects.get().status == ReportStatus.REJECTED
    assert MistakeReport.objects.get().decided_at == decided_at
    assert OutgoingMail.objects.filter(event_key__contains=":outcome:").count() == 1
    # In the admin it opens read-only, and a post is refused.
    client.force_login(officer)
    url = reverse("admin:ratings_mistakereport_change", args=[report.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="status"' not in page.content.decode()
    assert client.post(url, {"status": "in_progress", "reason": "", "correction": ""}).status_code == 403
    assert MistakeReport.objects.get().status == ReportStatus.REJECTED


def test_reports_count_in_the_officers_digest_and_only_confirmed_ones_are_queued(client: Client) -> None:
    officer = make_rating_officer()
    officer.email = "officer@example.org"
    officer.save()
    player = make_player()
    report_request(player=player, table=None, game=None, what="unconfirmed", email=ADDRESS, language="en")
    confirmed(player)
    assert officer_digest_queue(today=timezone.localdate()) == 1
    digest = OutgoingMail.objects.get(recipient="officer@example.org")
    assert "Reported mistakes waiting: 1" in digest.body
    client.force_login(officer)
    listing = client.get(reverse("admin:ratings_mistakereport_changelist")).content.decode()
    assert "Mon nom" in listing and "unconfirmed" not in listing


def test_unconfirmed_reports_expire() -> None:
    report = report_request(player=make_player(), table=None, game=None, what="x", email=ADDRESS, language="en")
    assert reports_expire(now=timezone.now()) == 0
    assert reports_expire(now=timezone.now() + dt.timedelta(days=8)) == 1
    assert not MistakeReport.objects.filter(pk=report.pk).exists()
    assert not OutgoingMail.objects.filter(event_key__startswith=f"report:{report.pk}:").exists()


def test_privacy_export_holds_reports_without_addresses_and_erasure_deletes_them() -> None:
    officer = make_rating_officer()
    player = make_player()
    confirmed(player)
    document = json.loads(player_export(player=player, user=officer))
    assert document["reports"][0]["what"] == "Mon nom"
    assert ADDRESS not in json.dumps(document)
    player_erase(player=player, user=officer)
    assert not MistakeReport.objects.exists()
    assert not OutgoingMail.objects.filter(recipient=ADDRESS).exists()


def decided_behind_the_page(client: Client) -> tuple[str, str]:
    """A report's change page opened by a rating officer, then the report taken in hand by another: the page's
    URL and the version it was loaded with, now stale."""
    officer = make_rating_officer()
    report = confirmed(make_player())
    client.force_login(officer)
    url = reverse("admin:ratings_mistakereport_change", args=[report.pk])
    stale = client.get(url).context["adminform"].form[VERSION_FIELD].value()
    report_decide(report=report, status=ReportStatus.IN_PROGRESS, user=make_rating_officer(), expected=stale)
    return url, stale


def test_a_stale_page_or_one_without_its_version_never_overwrites_a_decision(client: Client) -> None:
    url, stale = decided_behind_the_page(client)
    for version in (stale, ""):  # a tab loaded before the decision; a client that posts no version
        client.post(url, {"status": "rejected", "reason": "No.", "correction": "", VERSION_FIELD: version})
        assert MistakeReport.objects.get().status == ReportStatus.IN_PROGRESS
    assert not OutgoingMail.objects.filter(event_key__contains=":outcome:").exists()


def test_a_refused_decision_shows_only_its_refusal(client: Client) -> None:
    url, stale = decided_behind_the_page(client)
    posted = {"status": "rejected", "reason": "No.", "correction": "", VERSION_FIELD: stale, "_save": "Save"}
    answer = client.post(url, posted, follow=True)
    said = [str(message) for message in answer.context["messages"]]
    assert len(said) == 1 and "nothing was saved" in said[0], said
    assert MistakeReport.objects.get().status == ReportStatus.IN_PROGRESS


def test_the_forms_help_texts_are_the_ones_their_fields_name(client: Client) -> None:
    page = client.get(reverse("ratings:report_player", args=[make_player().federation_id])).content.decode()
    described = re.findall(r'aria-describedby="([^"]+)"', page)
    assert described  # the text box names its help
    for names in described:
        for name in names.split():
            assert f'id="{name}"' in page, name
