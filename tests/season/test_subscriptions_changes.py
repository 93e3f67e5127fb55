"""A correction's messages to subscribers: only the players whose stored figures the re-rate changed are told,
each with his figures before and after; and the messages survive a worker stopped between the re-rate and the
telling, without a second copy (ratings/services/season/subscriptions.py, ratings/services/rerate/run.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core import mail

from ratings.models import Game, GameResult, OutgoingMail, Player, RatingRow, RerateChange, Table
from ratings.services.corrections.apply import correction_make
from ratings.services.rerate import rerate_from, rerate_pending
from ratings.services.season.subscriptions import runs_subscribers_notify
from ratings.services.tables.submit import table_submit
from ratings.tasks import task_rerate_pending
from tests.corrections.helpers import result_flipped
from tests.factories import add_game, make_rating_officer, make_table, make_tournament
from tests.grades.conftest import seasoned
from tests.season.test_subscriptions import messages_to, subscribed

pytestmark = pytest.mark.django_db
FIRST, LATER = dt.date(2026, 3, 7), dt.date(2026, 4, 11)
FIGURES = ("method", "rating_before", "rating_after", "change", "rated_games", "score", "games_after", "grade_after")


def rated(table: Table, capture: Any) -> Table:
    with capture(execute=True):
        table_submit(table=table, user=None)
    table.refresh_from_db()
    return table


def flipped(table: Table) -> None:
    """A rating officer reverses the result of the table's first game."""
    correction_make(user=make_rating_officer(), reason="Wrong way round", change=result_flipped(table), expected=None)


def row_figures(table: Table, player: Player) -> tuple[Any, ...]:
    return RatingRow.objects.filter(table=table, player=player).values_list(*FIGURES).get()


@pytest.fixture
def two_tables(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """A beats B on the first date; on the later one A plays E while C and D play each other at the same table,
    so that a change of A's first game redoes the later table without changing anything of C's."""
    a, b, c, d, e = (seasoned(1600 - 40 * n, 12, family_name=name) for n, name in enumerate("ABCDE"))
    first = make_table([a, b], tournament=make_tournament("Coupe de Lille", date=FIRST), date=FIRST)
    add_game(first, 1, a, b, GameResult.FIRST_WON)
    later = make_table([a, e, c, d], tournament=make_tournament("Open de Metz", date=LATER), date=LATER)
    add_game(later, 1, a, e, GameResult.FIRST_WON)
    add_game(later, 1, c, d, GameResult.FIRST_WON)
    capture = django_capture_on_commit_callbacks
    subscribed(a, email="fan-a@example.org", capture=capture)
    subscribed(c, email="fan-c@example.org", capture=capture)
    rated(first, capture)
    rated(later, capture)
    return {"a": a, "c": c, "first": first, "later": later}


def test_a_correction_tells_only_the_subscribers_of_players_whose_figures_changed(
    two_tables: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    a, c, first, later = two_tables["a"], two_tables["c"], two_tables["first"], two_tables["later"]
    a.refresh_from_db()
    rating_before, c_row, c_rating = a.rating, row_figures(later, c), Player.objects.get(pk=c.pk).rating
    stamp = later.last_rerated_at
    told_a, told_c = len(messages_to("fan-a@example.org")), len(messages_to("fan-c@example.org"))
    with django_capture_on_commit_callbacks(execute=True):
        flipped(first)
    later.refresh_from_db()
    assert later.last_rerated_at is not None and stamp is not None and later.last_rerated_at > stamp  # redone
    assert row_figures(later, c) == c_row and Player.objects.get(pk=c.pk).rating == c_rating  # nothing of C's moved
    assert len(messages_to("fan-c@example.org")) == told_c
    [message] = messages_to("fan-a@example.org")[told_a:]
    a.refresh_from_db()
    assert a.rating < rating_before  # he lost his first game now
    assert f"Rating: {rating_before} → {a.rating}" in message.body
    assert "Coupe de Lille (2026-03-07): rated again after a correction;" in message.body
    assert "Open de Metz (2026-04-11): rated again after a correction;" in message.body
    change = RerateChange.objects.filter(player=a).latest("run__started_at")
    assert (change.before["rating"], change.after["rating"]) == (rating_before, a.rating)
    assert sorted(change.tables) == sorted([first.pk, later.pk])
    assert not RerateChange.objects.filter(player=c, run=change.run).exists()


def test_the_subscribers_messages_survive_a_worker_stopped_after_its_run_and_go_once(
    two_tables: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    a, first = two_tables["a"], two_tables["first"]
    sent = len(mail.outbox)
    queued = OutgoingMail.objects.filter(recipient="fan-a@example.org").count()
    with django_capture_on_commit_callbacks(execute=False):  # the request is committed; its task is lost
        flipped(first)
    outcome = rerate_pending()  # a worker that re-rated, committed, and stopped before telling anyone
    assert outcome is not None and outcome.cleared
    assert len(mail.outbox) == sent
    with django_capture_on_commit_callbacks(execute=True):
        task_rerate_pending.apply()  # the restarted worker's task, with nothing pending any more
    with django_capture_on_commit_callbacks(execute=True):
        task_rerate_pending.apply()  # and a second delivery of it
        assert runs_subscribers_notify() == 0
    [message] = mail.outbox[sent:]
    assert message.to == ["fan-a@example.org"]
    a.refresh_from_db()
    assert f"→ {a.rating}" in message.body
    assert OutgoingMail.objects.filter(recipient="fan-a@example.org").count() == queued + 1


@pytest.mark.parametrize("start", [None, FIRST], ids=["whole history", "from the first table"])
def test_a_re_rate_that_moves_nothing_records_no_change_and_tells_nobody(
    two_tables: dict[str, Any], start: dt.date | None, django_capture_on_commit_callbacks: Any
) -> None:
    sent = len(mail.outbox)
    outcome = rerate_from(date=start)  # every table redone, none skipped: the same rows come out
    assert outcome.tables_rated == 2
    assert not RerateChange.objects.filter(run_id=outcome.run_id).exists()
    with django_capture_on_commit_callbacks(execute=True):
        assert runs_subscribers_notify() == 0
    assert len(mail.outbox) == sent


def test_a_whole_history_re_rate_records_the_players_whose_rows_changed(
    two_tables: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    a, c, first = two_tables["a"], two_tables["c"], two_tables["first"]
    Game.objects.filter(table=first).update(result=GameResult.SECOND_WON)  # as if the rules read it otherwise
    outcome = rerate_from(date=None)
    changed = set(RerateChange.objects.filter(run_id=outcome.run_id).values_list("player_id", flat=True))
    assert a.pk in changed and c.pk not in changed
