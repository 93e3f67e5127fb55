"""The rating list as stored rows (ratings/services/lists.py): made once per date, kind of list and data version,
read again afterwards, the older versions' lists deleted a while later; its lines and ranks as the rules count
them (docs/rules.md §8)."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from importlib import import_module

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ratings.engine.grades import FIRST_DAN, grade_of
from ratings.models import Club, ListEntry, Player, Promotion, StoredList, Table
from ratings.selectors.lists import list_dates, list_entries
from ratings.selectors.official_lists import official_list_entries
from ratings.selectors.standing import player_standing
from ratings.selectors.versions import data_version
from ratings.services import lists as lists_module
from ratings.services.lists import KEEP_OLD_VERSIONS, ListKey, list_build, list_stored, lists_prepare
from ratings.services.official_lists import official_list_publish
from tests.factories import make_rating_officer
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db

PERFORMANCE = ((1800, 1.0),) * 4  # four games: still rated by performance, listed without a rank


def lines(stored: StoredList) -> list[tuple[str, int, int, int | None, int | None]]:
    """(family name, line, line in the country, rank, rank in the country) of each entry, in list order."""
    fields = ("family_name", "position", "country_position", "rank", "country_rank")
    return list(list_entries(stored).values_list(*fields))


def names(stored: StoredList) -> list[str]:
    return list(list_entries(stored).values_list("family_name", flat=True))


def edited(player: Player) -> None:
    """An edit of a player: a new version of the public data (its audit row)."""
    player.given_name += "x"
    player.save()


def test_a_list_is_made_once_per_date_kind_and_data_version() -> None:
    seasoned(1600, family_name="Alpha")
    today = list_stored()
    assert list_stored() == today and list_stored(timezone.localdate()) == today
    assert list_stored(days_ago(-30)) == today  # a later day: today's list, nothing later being known
    assert StoredList.objects.count() == 1 and ListEntry.objects.count() == 1
    everyone = list_stored(active=False)
    past = list_stored(days_ago(10))
    assert len({today.pk, everyone.pk, past.pk}) == 3
    list_stored(days_ago(10))
    list_stored(active=False)
    assert StoredList.objects.count() == 3
    assert (today.date, today.active, today.version) == (timezone.localdate(), True, data_version().key)


def test_lists_prepare_writes_todays_two_lists_and_those_of_the_latest_list_dates(
    rated_round_robin: Callable[..., Table],
) -> None:
    a, b = seasoned(1600, family_name="Alpha"), seasoned(1500, family_name="Beta")
    first, second = rated_round_robin([a, b], days_ago(20)), rated_round_robin([a, b], days_ago(10))
    lists_prepare()
    lists_prepare()  # made once
    made = list(StoredList.objects.filter(version=data_version().key).values_list("date", "active"))
    today = timezone.localdate()
    assert {first.date, second.date} <= set(list_dates())
    assert sorted(made) == sorted([(today, False), (today, True), *((date, True) for date in list_dates())])


def test_after_an_edit_without_a_rerate_lists_prepare_writes_the_new_versions_list() -> None:
    player = seasoned(1600, family_name="Alpha")
    lists_prepare()
    edited(player)  # a new data version, no re-rate
    lists_prepare()  # the beat's run
    today = StoredList.objects.get(version=data_version().key, date=timezone.localdate(), active=True)
    assert list_entries(today).get().given_name == player.given_name


def test_lists_prepare_makes_what_the_other_public_pages_read_once_per_data_version(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    rated_round_robin([seasoned(1600, family_name="Alpha"), seasoned(1500, family_name="Beta")], days_ago(10))
    lists_prepare()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("ratings:statistics")).status_code == 200
    # The numbers by year and the most active players are kept: no count over the history, no year of rows read.
    read = " ".join(q["sql"] for q in captured.captured_queries)
    assert "ratings_ratingrow" not in read and "ratings_game" not in read
    for name in ("ratings:clubs", "ratings:countries"):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse(name)).status_code == 200
        assert len(captured.captured_queries) == 1, name  # the data version


class Clock:
    """``timezone.now`` held at ``start`` until moved on (``later``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.start = self.now = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def later(self, delta: dt.timedelta) -> None:
        self.now = self.start + delta


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def test_a_new_data_version_makes_a_new_list_and_the_old_ones_go_a_while_later(clock: Clock) -> None:
    player = seasoned(1600, family_name="Alpha")
    first = list_stored()
    assert names(first) == ["Alpha"]

    clock.later(dt.timedelta(minutes=2))
    edited(player)
    second = list_stored()
    assert second.pk != first.pk and second.version != first.version
    # a request that began with the first version still reads its list whole
    assert set(StoredList.objects.values_list("pk", flat=True)) == {first.pk, second.pk}
    assert names(first) == ["Alpha"]

    clock.later(KEEP_OLD_VERSIONS + dt.timedelta(minutes=1))
    edited(player)
    third = list_stored()
    # the first list is older than KEEP_OLD_VERSIONS, the second not yet
    assert set(StoredList.objects.values_list("pk", flat=True)) == {second.pk, third.pk}
    assert not ListEntry.objects.filter(stored_list_id=first.pk).exists()
    assert ListEntry.objects.filter(stored_list_id=second.pk).count() == 1


def test_only_the_most_recently_made_past_lists_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lists_module, "KEEP_PAST_LISTS", 2)
    seasoned(1600, family_name="Alpha", last_played=days_ago(100))
    made = [list_stored(days_ago(days)) for days in (10, 20, 30)]
    kept = set(StoredList.objects.values_list("pk", flat=True))
    assert kept == {made[1].pk, made[2].pk}
    today = list_stored()  # today's list is no past list: it stays whatever the count
    list_stored(days_ago(40))
    assert today.pk in set(StoredList.objects.values_list("pk", flat=True))


def test_the_ranks_skip_players_rated_by_performance_while_the_lines_count_everyone() -> None:
    seasoned(1700, family_name="Top")
    seasoned(1650, family_name="Newcomer", games=4, result_list=PERFORMANCE)
    seasoned(1600, family_name="German", nationality="DE")
    seasoned(1500, family_name="Provisional", games=12)
    stored = list_stored()
    assert lines(stored) == [
        ("Top", 1, 1, 1, 1),
        ("Newcomer", 2, 2, None, None),
        ("German", 3, 1, 2, 1),
        ("Provisional", 4, 3, 3, 2),
    ]
    assert (stored.player_count, stored.ranked_count) == (4, 3)
    categories = dict(list_entries(stored).values_list("family_name", "category"))
    assert categories == {
        "Top": "established",
        "Newcomer": "unrated",
        "German": "established",
        "Provisional": "provisional",
    }


def test_a_players_standing_is_his_public_rank_on_todays_list() -> None:
    seasoned(1700, family_name="Top")
    seasoned(1650, family_name="Newcomer", games=4, result_list=PERFORMANCE)
    me = seasoned(1600, family_name="Mine")
    newcomer = Player.objects.get(family_name="Newcomer")
    stored = list_stored()
    standing = player_standing(me, stored)
    assert (standing.rank, standing.country_rank) == (2, 2)
    assert (player_standing(newcomer, stored).rank, player_standing(newcomer, stored).country_rank) == (None, None)
    away = seasoned(1800, family_name="Away", last_played=days_ago(800))  # not on the active list
    assert player_standing(away, list_stored()).rank is None


def test_a_pending_dan_grade_is_stored_with_the_line(rated_round_robin: Callable[..., Table]) -> None:
    waiting = seasoned(1900, family_name="Waiting", grade=grade_of(1, "Kyu"))
    other = seasoned(1500, family_name="Other", grade=grade_of(3, "Kyu"))
    table = rated_round_robin([waiting, other], days_ago(5))
    # the table promotes him to 1 Dan (the re-rate records it), which waits for a grade officer's approval
    promotion, _made = Promotion.objects.get_or_create(
        player=waiting,
        grade=FIRST_DAN,
        defaults={"table": table, "game_number": 1, "route": "upper_bound", "rating": 1900, "status": "pending"},
    )
    assert promotion.status == "pending"
    entries = {e.family_name: e for e in list_entries(list_stored())}
    assert entries["Waiting"].pending_grade == FIRST_DAN
    assert entries["Waiting"].shown_pending_grade == FIRST_DAN
    assert entries["Waiting"].grade == grade_of(1, "Kyu")  # the public grade: the Dan grade waits for approval
    assert entries["Other"].pending_grade is None


def test_a_past_list_holds_the_players_active_within_two_years_before_its_date() -> None:
    """On or after the same day two years before the list's date; for 29 February, from 1 March (as the FESA
    program compares the dates, ratings/fesa_files/alltxt.py)."""
    leap = dt.date(2024, 2, 29)
    seasoned(1700, family_name="Last28Feb", last_played=dt.date(2022, 2, 28))
    seasoned(1600, family_name="First1Mar", last_played=dt.date(2022, 3, 1))
    seasoned(1500, family_name="Later", last_played=dt.date(2024, 3, 5))  # not rated yet on the list's date
    assert names(list_stored(leap)) == ["First1Mar"]
    assert names(list_stored(leap, active=False)) == ["Last28Feb", "First1Mar"]
    assert names(list_stored(dt.date(2024, 2, 28))) == ["Last28Feb", "First1Mar"]
    assert names(list_stored(dt.date(2024, 3, 1))) == ["First1Mar"]
    assert names(list_stored(dt.date(2024, 3, 5))) == ["Later"]  # two years after 1 March: the window moved


def test_a_list_made_meanwhile_by_another_process_is_the_one_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two requests that both found no list: the second one's insert breaks the uniqueness of (date, kind of
    list, version) and it reads the list the first one made."""
    seasoned(1600, family_name="Alpha")
    made = list_stored()
    version = data_version()
    assert list_build(ListKey.of(None), version) == made
    assert StoredList.objects.count() == 1 and ListEntry.objects.count() == 1

    # The insert refused and still no list to read: the error is not swallowed.
    monkeypatch.setattr(lists_module, "_stored", lambda key, version, *, using: None)
    with pytest.raises(IntegrityError):
        list_build(ListKey.of(None), version)


def test_a_list_whose_data_changed_while_it_was_made_is_made_again_of_the_new_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A change saved while a list's rows are read (an erasure, say): the list is not kept under the version it
    was asked for, whose lists nothing deletes any more, but made again of the new one."""
    player = seasoned(1600, family_name="Alpha", given_name="Ann")
    before = data_version()
    read = lists_module._rows
    calls = []

    def rows_then_edit(key: ListKey) -> list[tuple[object, ...]]:
        rows = read(key)
        calls.append(key)
        if len(calls) == 1:
            edited(player)  # saved by another process meanwhile
        return rows

    monkeypatch.setattr(lists_module, "_rows", rows_then_edit)
    stored = list_build(ListKey.of(None), before)
    assert len(calls) == 2
    assert stored.version == data_version().key != before.key
    assert list(StoredList.objects.values_list("version", flat=True)) == [stored.version]
    assert list_entries(stored).get().given_name == "Annx"


def test_the_minute_task_deletes_the_older_versions_lists_even_when_it_makes_none(clock: Clock) -> None:
    player = seasoned(1600, family_name="Alpha")
    lists_prepare()
    edited(player)
    lists_prepare()  # the new version's lists; the old ones stay a while for the pages that began with them
    versions = set(StoredList.objects.values_list("version", flat=True))
    assert len(versions) == 2

    clock.later(KEEP_OLD_VERSIONS + dt.timedelta(minutes=1))
    lists_prepare()  # nothing new to make
    assert set(StoredList.objects.values_list("version", flat=True)) == {data_version().key}
    assert not ListEntry.objects.exclude(stored_list__version=data_version().key).exists()


def test_a_player_or_club_deleted_leaves_a_lists_lines_and_empties_their_links() -> None:
    """The lines' keys are not checked by the database (ratings/models/official.py): Django empties them."""
    keep, gone = seasoned(1600, family_name="Keep"), seasoned(1500, family_name="Gone")
    club = Club.objects.create(name="Shogi Club", country="FR")
    stored = list_stored()
    list_entries(stored).filter(player=gone).update(club=club)
    gone.delete()
    club.delete()
    assert list(list_entries(stored).values_list("family_name", "player_id", "club_id")) == [
        ("Keep", keep.pk, None),
        ("Gone", None, None),
    ]
    stored.delete()
    assert not ListEntry.objects.exists()


def test_the_lists_the_pages_link_are_indexed_and_a_past_dates_is_not(rated_round_robin: Callable[..., Table]) -> None:
    """The lines of today's lists and of the latest list dates' go into the sort and filter indexes; a past date's
    list made for a visitor does not. Each list is read whole either way."""
    a, b = seasoned(1600, family_name="Alpha"), seasoned(1500, family_name="Beta", last_played=days_ago(100))
    table = rated_round_robin([a, b], days_ago(10))
    lists_prepare()
    made = {(s.date, s.active): s for s in StoredList.objects.all()}
    today = timezone.localdate()
    assert set(made) == {(today, True), (today, False), (table.date, True)}
    past = list_stored(days_ago(30))
    everyone_then = list_stored(table.date, active=False)  # a list date, but no page links every rated player's
    assert [s.indexed for s in made.values()] == [True, True, True]
    assert (past.indexed, everyone_then.indexed) == (False, False)
    for stored in [*made.values(), past, everyone_then]:
        assert set(ListEntry.objects.filter(stored_list=stored).values_list("indexed", flat=True)) == {stored.indexed}
        assert list_entries(stored).count() == stored.player_count == 2


def test_the_migration_indexes_the_official_lists_and_lets_the_computed_ones_be_made_again(
    rated_round_robin: Callable[..., Table],
) -> None:
    a, b = seasoned(1600, family_name="Alpha"), seasoned(1500, family_name="Beta")
    rated_round_robin([a, b], days_ago(10))
    official = official_list_publish(date=days_ago(5), user=make_rating_officer(), expected=None)
    list_stored()
    StoredList.objects.update(indexed=False)  # as the lists were before the migration
    ListEntry.objects.update(indexed=False)
    assert not official_list_entries(official).exists()

    migration = import_module("ratings.migrations.0046_list_entry_sort_filter_indexes")
    migration.index_lists(apps, connection.schema_editor())
    assert list(StoredList.objects.values_list("kind", "indexed")) == [("official", True)]
    assert list(official_list_entries(official).values_list("family_name", flat=True)) == ["Alpha", "Beta"]
    assert list_stored().indexed


@pytest.mark.django_db(transaction=True)
def test_a_list_another_process_is_deleting_is_left_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers pruning the same lists at once deleted the same lines, each in its own order, and deadlocked
    (a past date's first view failed, bench/load_mix.py): each now deletes only the lists it could lock."""
    if connection.vendor != "postgresql":
        pytest.skip("two live connections at once: the PostgreSQL run has them (SQLite serialises all writes)")
    seasoned(1600, family_name="Alpha", last_played=days_ago(100))
    today = list_stored()
    past = [list_stored(days_ago(days)) for days in (10, 20, 30)]
    monkeypatch.setattr(lists_module, "KEEP_PAST_LISTS", 0)
    outcome: list[str] = []

    def other_worker() -> None:  # its own connection: Django's are per thread
        try:
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = '5s'")
            lists_module._prune(data_version(), using="default")
            outcome.append("pruned")
        except Exception as exc:  # what went wrong is the test's outcome
            outcome.append(repr(exc))
        finally:
            connections.close_all()

    with transaction.atomic():  # one worker's prune, under way
        StoredList.objects.select_for_update().get(pk=past[0].pk)
        ListEntry.objects.filter(stored_list=past[0]).delete()
        worker = threading.Thread(target=other_worker)
        worker.start()
        worker.join(timeout=30)
    assert outcome == ["pruned"]
    assert set(StoredList.objects.values_list("pk", flat=True)) == {today.pk, past[0].pk}
