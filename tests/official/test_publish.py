"""Publishing an official list (ratings/services/official_lists.py): what it freezes, what it refuses, and that a
later correction of the past leaves the published list and its all.txt as they were."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from ratings.models import ListEntry, OfficialList, PendingRerate, StoredList
from ratings.selectors import all_txt, list_entries
from ratings.selectors.official_lists import official_list_all_txt, official_list_entries, official_list_revision
from ratings.services.lists import list_stored
from ratings.services.official_lists import ListRefused, official_list_publish
from ratings.services.privacy import player_erase
from ratings.services.tables.submit import table_submit
from tests.factories import make_director, make_grade_officer, make_table, make_user, round_robin
from tests.official.conftest import Federation, correct_first_table
from tests.public.conftest import days_ago

pytestmark = pytest.mark.django_db


def test_publish_freezes_the_list_of_the_date_with_its_all_txt(federation: Federation) -> None:
    official = official_list_publish(
        date=federation.date, user=federation.officer, title=" Spring list ", note="n", expected=None
    )
    rows = list_entries(list_stored(federation.date))
    assert (official.title, official.published_by, official.player_count, official.country_count) == (
        "Spring list",
        federation.officer,
        4,
        2,
    )
    entries = list(official_list_entries(official))
    figures = ("player_id", "position", "country_position", "rank", "country_rank", "rating", "grade", "games")
    assert [tuple(getattr(e, f) for f in figures) for e in entries] == [
        tuple(getattr(r, f) for f in figures) for r in rows
    ]
    assert [e.family_name for e in entries] == ["Anders", "Berger", "Claes", "Dupont"]
    assert [e.country_position for e in entries] == [1, 2, 1, 3]
    assert official.stored_list.player_count == 4
    assert official_list_all_txt(official) == all_txt(rows, grades="public")
    assert official_list_all_txt(official).decode("iso-8859-1").count("Anders") == 1


def test_a_later_correction_leaves_the_published_list_and_its_all_txt_unchanged(
    federation: Federation, published: OfficialList
) -> None:
    before_rows = [(r.player_id, r.position, r.rating) for r in official_list_entries(published)]
    before_txt = official_list_all_txt(published)
    correct_first_table(federation)
    assert not PendingRerate.objects.exists()
    # The list of the date computed now has moved: Berger won the first table after all.
    today = list_entries(list_stored(federation.date))
    now = {r.player_id: r.rating for r in today}
    a, b, *_ = federation.players
    assert now[b.pk] > dict((pk, rating) for pk, _, rating in before_rows)[b.pk]
    # The published list has not.
    assert [(r.player_id, r.position, r.rating) for r in official_list_entries(published)] == before_rows
    assert official_list_all_txt(published) == before_txt
    revision = official_list_revision(published, today)
    assert revision.counts["changed"] >= 2 and revision.counts["rating"] >= 2
    changed = {r.row.player_id: r for r in revision.changed}
    assert {a.pk, b.pk} <= set(changed)
    assert "rating" in changed[a.pk].changes


def test_a_future_date_is_refused(federation: Federation) -> None:
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    with pytest.raises(ListRefused, match="cannot be published before that day"):
        official_list_publish(date=tomorrow, user=federation.officer, expected=None)
    assert not OfficialList.objects.exists()


def test_today_can_be_published(federation: Federation) -> None:
    official = official_list_publish(date=timezone.localdate(), user=federation.officer, expected=None)
    assert official.player_count == 4


def test_a_date_published_already_is_refused(federation: Federation, published: OfficialList) -> None:
    with pytest.raises(ListRefused, match="has been published already"):
        official_list_publish(date=federation.date, user=federation.officer, title="again", expected=None)
    assert OfficialList.objects.count() == 1


def test_a_pending_rerate_that_reaches_the_date_is_refused(federation: Federation) -> None:
    correct_first_table(federation, rerate=False)  # a correction of 40 days ago, not re-rated yet
    with pytest.raises(ListRefused, match=r"re-rate from .* is waiting to be done"):
        official_list_publish(date=federation.date, user=federation.officer, expected=None)
    assert not OfficialList.objects.exists()
    assert not ListEntry.objects.filter(stored_list__kind=StoredList.Kind.OFFICIAL).exists()


def test_a_pending_rerate_after_the_date_does_not_block_it(federation: Federation) -> None:
    a, b, *_ = federation.players
    table = make_table([a, b], date=days_ago(5))
    round_robin(table, [a, b])
    table_submit(table=table, user=None)  # waits for its re-rate, after the list's date
    assert PendingRerate.objects.get().from_date == days_ago(5)
    assert official_list_publish(date=federation.date, user=federation.officer, expected=None).player_count == 4


@pytest.mark.parametrize("who", ["director", "grade officer", "plain user"])
def test_only_rating_officers_publish(federation: Federation, who: str) -> None:
    user = {"director": make_director, "grade officer": make_grade_officer, "plain user": make_user}[who]()
    with pytest.raises(PermissionDenied, match="Only rating officers publish"):
        official_list_publish(date=federation.date, user=user, expected=None)
    assert not OfficialList.objects.exists()


def test_a_superuser_publishes(federation: Federation) -> None:
    assert official_list_publish(date=federation.date, user=make_user(superuser=True), expected=None).player_count == 4


def test_erasure_puts_the_pseudonym_on_the_published_lists_and_nothing_else_changes(
    federation: Federation, published: OfficialList
) -> None:
    a = federation.players[0]
    before_txt = official_list_all_txt(published).decode("iso-8859-1").split("\n")
    before = [(r.position, r.rating, r.family_name) for r in official_list_entries(published)]
    player_erase(player=a, user=federation.officer)
    a.refresh_from_db()
    after_txt = official_list_all_txt(published).decode("iso-8859-1").split("\n")
    changed = [(was, now) for was, now in zip(before_txt, after_txt, strict=True) if was != now]
    assert len(changed) == 1
    was, now = changed[0]
    assert "Anders" in was and "Anders" not in now and a.family_name in now
    # The grade, rating, games and country as published, after the names (their columns are 3+1+17+1+15+1
    # wide; a pseudonym longer than its column pushes them on, as the program writes a long name).
    assert was[38:].strip() and now.endswith(was[38:])
    after = [(r.position, r.rating, r.family_name) for r in official_list_entries(published)]
    assert after == [(rank, rating, a.family_name if name == "Anders" else name) for rank, rating, name in before]
