"""A director hears once that his table was rated: the re-rate task (run in-process here) queues one message per
director and run, and repeating the notice for the same run sends nothing new. A table a rating officer's
correction re-rated says so, with the reason and the table's link: corrected, or re-rated after the correction
of an earlier table or a player's prior grade; a burst of corrections served by one run makes one message."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from ratings.models import OutgoingMail, Player, RerateRun, Table, TableStatus
from ratings.services.corrections.apply import correction_make
from ratings.services.corrections.facts import PriorGradeChange
from ratings.services.rerate import rerate_pending
from ratings.services.season.notices import run_directors_notify
from ratings.services.tables.submit import table_submit
from tests.corrections.helpers import result_flipped
from tests.factories import make_director, make_player, make_rating_officer, make_table, make_tournament, round_robin

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
    assert message.body.splitlines() == [
        "Open de Lyon (2026-05-10): rated",
        f"  {settings.SITE_URL}{reverse('ratings:table', args=[table.pk])}",  # to check what was rated
    ]
    run = RerateRun.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        assert run_directors_notify(run_id=run.pk) == 0  # the same run again: nothing new
    assert len(mail.outbox) == 1


def rated_tables(*directors: Any) -> tuple[list[Table], list[Player]]:
    """Two rated tables of two tournaments, the same three players in each: a correction of the first re-rates
    the second. ``directors``: one per tournament."""
    players = [make_player() for _ in range(3)]
    tables = []
    for day, (name, director) in enumerate(zip(("Open de Lyon", "Coupe de Nice"), directors, strict=True)):
        date = DAY + dt.timedelta(days=7 * day)
        table = make_table(players, tournament=make_tournament(name, date=date, directors=[director]), date=date)
        round_robin(table, players)
        table_submit(table=table, user=director)
        tables.append(table)
    rerate_pending()
    mail.outbox.clear()
    return tables, players


def director(email: str) -> Any:
    user = make_director()
    user.email = email
    user.save()
    return user


def test_a_correction_tells_the_director_why_by_role_with_the_link_once_per_run(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.SITE_URL = "https://ratings.example.org"
    lyon, nice = director("lyon@example.org"), director("nice@example.org")
    (first, second), _players = rated_tables(lyon, nice)
    officer = make_rating_officer(username="officer-ito")
    with django_capture_on_commit_callbacks(execute=True):  # a burst: both served by one run
        correction_make(
            user=officer, reason="Round 1 swapped on the sheet", change=result_flipped(first), expected=None
        )
        first.refresh_from_db()
        correction_make(
            user=officer, reason="Round 2 swapped too", change=result_flipped(first, game_index=1), expected=None
        )
    assert RerateRun.objects.count() == 2  # the first rating, then one run for the burst
    by_address = {m.to[0]: m for m in mail.outbox}
    assert set(by_address) == {"lyon@example.org", "nice@example.org"}
    own = by_address["lyon@example.org"]
    assert own.subject == "FESA ratings: your tables were corrected"
    assert own.body.splitlines() == [
        "Open de Lyon (2026-05-10): corrected by a rating officer",
        "  - this table: Round 1 swapped on the sheet",
        "  - this table: Round 2 swapped too",
        f"  https://ratings.example.org/tables/{first.pk}/",
    ]
    later = by_address["nice@example.org"].body.splitlines()
    assert later[0] == "Coupe de Nice (2026-05-17): re-rated after a rating officer's correction"
    assert later[1] == f"  - the table {first}: Round 1 swapped on the sheet"
    assert later[-1] == f"  https://ratings.example.org/tables/{second.pk}/"
    assert all("officer-ito" not in m.body for m in mail.outbox)  # the role, not the name
    run = RerateRun.objects.order_by("started_at").last()
    with django_capture_on_commit_callbacks(execute=True):
        assert run_directors_notify(run_id=run.pk) == 0  # the same run again: nothing new
    assert len(mail.outbox) == 2


def test_a_correction_of_a_later_table_leaves_the_earlier_director_alone(
    django_capture_on_commit_callbacks: Any,
) -> None:
    lyon, nice = director("lyon@example.org"), director("nice@example.org")
    (_first, second), _players = rated_tables(lyon, nice)
    with django_capture_on_commit_callbacks(execute=True):
        correction_make(user=make_rating_officer(), reason="Wrong result", change=result_flipped(second), expected=None)
    [message] = mail.outbox
    assert message.to == ["nice@example.org"]
    assert "corrected by a rating officer" in message.body and "Wrong result" in message.body


def test_a_prior_grade_correction_is_named_with_its_player_and_reason(django_capture_on_commit_callbacks: Any) -> None:
    lyon, nice = director("lyon@example.org"), director("nice@example.org")
    _tables, players = rated_tables(lyon, nice)
    change = PriorGradeChange(player=players[0], kind="kyu", level=2, source="national", note="", date=None)
    with django_capture_on_commit_callbacks(execute=True):
        correction_make(user=make_rating_officer(), reason="Diploma found", change=change, expected=None)
    assert {m.to[0] for m in mail.outbox} == {"lyon@example.org", "nice@example.org"}
    for message in mail.outbox:
        assert "re-rated after a rating officer's correction" in message.body
        assert f"  - the prior grade of {players[0]}: Diploma found" in message.body


def test_a_re_rate_without_a_correction_keeps_its_message(django_capture_on_commit_callbacks: Any) -> None:
    lyon, nice = director("lyon@example.org"), director("nice@example.org")
    (first, _second), players = rated_tables(lyon, nice)
    late = make_table(players, tournament=first.tournament, date=DAY, sequence=2)  # a late table before Nice
    round_robin(late, players, winner_first=False)
    with django_capture_on_commit_callbacks(execute=True):
        table_submit(table=late, user=lyon)
    by_address = {m.to[0]: m.body for m in mail.outbox}
    assert "Open de Lyon (2026-05-10): rated" in by_address["lyon@example.org"]
    assert by_address["nice@example.org"].splitlines()[0] == "Coupe de Nice (2026-05-17): re-rated, its ratings changed"


def test_the_runs_of_one_re_rate_call_make_one_message_with_every_correction() -> None:
    lyon, nice = director("lyon@example.org"), director("nice@example.org")
    (first, _second), _players = rated_tables(lyon, nice)
    officer = make_rating_officer()
    began = timezone.now()
    correction_make(user=officer, reason="First fix", change=result_flipped(first), expected=None)
    rerate_pending()  # the call's first run; the second correction comes in meanwhile, and the call runs again
    first.refresh_from_db()
    correction_make(user=officer, reason="Second fix", change=result_flipped(first, game_index=1), expected=None)
    rerate_pending()
    last = RerateRun.objects.order_by("started_at").last()
    assert run_directors_notify(run_id=last.pk, since=began) == 2  # one message per director
    assert run_directors_notify(run_id=last.pk, since=began) == 0
    body = OutgoingMail.objects.get(recipient="lyon@example.org").body
    assert body.splitlines()[1:3] == ["  - this table: First fix", "  - this table: Second fix"]
