"""``table_save``: creating and changing a table with its entries and games, the rules it refuses, and the
re-rate it asks for, called directly as every interface calls it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.db import transaction

from ratings.models import Game, GameResult, PendingRerate, Player, RatingRow, Table, TableEntry, TableStatus
from ratings.services.rerate import rerate_from
from ratings.services.tables.save import EntryFacts, GameEdit, TableRefused, table_check, table_save
from ratings.services.tables.submit import GameFacts
from tests.factories import add_game, make_player, make_table, make_tournament

pytestmark = pytest.mark.django_db

DAY = dt.date(2024, 5, 12)


def game(round_: int, first: Player, second: Player | None, result: str = GameResult.FIRST_WON) -> GameFacts:
    return GameFacts(round=round_, first_id=first.pk, second_id=second.pk if second else None, result=result)


def saved_games(table: Table) -> list[GameEdit]:
    """The table's games as edits that keep every one of them."""
    return [GameEdit(facts=GameFacts.of(g), id=g.pk) for g in table.games.order_by("round", "id")]


def seats(table: Table) -> dict[int, int]:
    return dict(table.entries.values_list("player_id", "seat"))


def everything() -> tuple[object, ...]:
    """The rows a refused save must leave as they were, history included."""
    return (
        list(Table.objects.values_list("pk", "date", "sequence", "name", "updated_at")),
        list(TableEntry.objects.values_list("pk", "player_id", "seat")),
        list(Game.objects.values_list("pk", "round", "first_id", "second_id", "result")),
        (Table.history.count(), TableEntry.history.count(), Game.history.count()),
        list(PendingRerate.objects.values_list("from_date", "from_sequence", "generation")),
    )


@pytest.fixture
def four() -> list[Player]:
    return [make_player("Abe", "Ken"), make_player("Berg", "Lena"), make_player("Cruz", "Marta"), make_player("Dahl")]


def test_table_save_creates_a_draft_after_the_days_tables_with_numbered_entries_and_games(four: list[Player]) -> None:
    a, b, c = four[:3]
    make_table([make_player()], date=DAY, sequence=1)
    saved = table_save(
        table=None,
        tournament=make_tournament(),
        name="Open",
        date=DAY,
        entries=[EntryFacts(player_id=a.pk, seat=3), EntryFacts(player_id=b.pk), EntryFacts(player_id=c.pk, seat=1)],
        games=[GameEdit(facts=game(1, a, b)), GameEdit(facts=game(1, c, None, GameResult.BYE))],
        strict_dates=True,
    )
    table = Table.objects.get(pk=saved.table.pk)
    assert (table.name, table.date, table.sequence, table.status) == ("Open", DAY, 2, TableStatus.DRAFT)
    assert seats(table) == {a.pk: 3, b.pk: 4, c.pk: 1}  # the blank number follows the highest one given
    assert set(table.games.values_list("round", "first_id", "second_id")) == {(1, a.pk, b.pk), (1, c.pk, None)}
    assert len(saved.entries.new) == 3 and len(saved.games.new) == 2
    assert not saved.rerate_requested and not PendingRerate.objects.exists()


def test_table_save_changes_a_game_in_place_keeping_its_row_and_history(four: list[Player]) -> None:
    a, b, c, d = four
    table = make_table(four, date=DAY)
    first, second = add_game(table, 1, a, b), add_game(table, 1, c, d)
    edits = [
        GameEdit(facts=GameFacts.of(first), id=first.pk),
        GameEdit(facts=game(1, c, d, GameResult.DRAW), id=second.pk),
    ]

    saved = table_save(
        table=table, tournament=table.tournament, name="", date=DAY, entries=None, games=edits, strict_dates=True
    )

    second.refresh_from_db()
    assert second.result == GameResult.DRAW and table.games.count() == 2
    assert [(g.pk, fields) for g, fields in saved.games.changed] == [(second.pk, ["result"])]
    assert second.history.count() == 2  # created, then corrected: the correction is on the record
    assert seats(table) == {a.pk: 1, b.pk: 2, c.pk: 3, d.pk: 4}  # entries None: the saved ones stay


def test_table_save_swaps_rounds_numbers_and_opponents_in_one_save(four: list[Player]) -> None:
    a, b, c, d = four
    table = make_table(four, date=DAY)
    round_one, round_two = add_game(table, 1, a, b), add_game(table, 2, a, c)
    other, fourth = add_game(table, 1, c, d), add_game(table, 2, b, d)
    # Rounds 1 and 2 of Abe trade places, Abe and Berg trade numbers, Cruz-Dahl moves to round 2 and Berg-Dahl
    # to round 1:
    # every intermediate order of the writes hits a unique constraint, the final table does not.
    saved = table_save(
        table=table,
        tournament=table.tournament,
        name="",
        date=DAY,
        entries=[EntryFacts(player_id=a.pk, seat=2), EntryFacts(player_id=b.pk, seat=1)]
        + [EntryFacts(player_id=p.pk, seat=n) for n, p in ((3, c), (4, d))],
        games=[
            GameEdit(facts=game(2, a, b), id=round_one.pk),
            GameEdit(facts=game(1, a, c), id=round_two.pk),
            GameEdit(facts=game(2, c, d), id=other.pk),
            GameEdit(facts=game(1, b, d), id=fourth.pk),
        ],
        strict_dates=True,
    )
    assert seats(table) == {a.pk: 2, b.pk: 1, c.pk: 3, d.pk: 4}
    assert {g.pk: (g.round, g.first_id, g.second_id) for g in table.games.all()} == {
        round_one.pk: (2, a.pk, b.pk),
        round_two.pk: (1, a.pk, c.pk),
        other.pk: (2, c.pk, d.pk),
        fourth.pk: (1, b.pk, d.pk),
    }
    assert len(saved.entries.changed) == 2 and not saved.entries.new and not saved.entries.deleted


def test_table_save_deletes_the_games_and_players_left_out(four: list[Player]) -> None:
    a, b, c, d = four
    table = make_table(four, date=DAY)
    kept = add_game(table, 1, a, b)
    add_game(table, 1, c, d)
    saved = table_save(
        table=table,
        tournament=table.tournament,
        name="",
        date=DAY,
        entries=[EntryFacts(player_id=p.pk, seat=n) for n, p in enumerate((a, b, c), 1)],
        games=[GameEdit(facts=GameFacts.of(kept), id=kept.pk)],
        strict_dates=True,
    )
    assert list(table.games.values_list("pk", flat=True)) == [kept.pk]
    assert set(seats(table)) == {a.pk, b.pk, c.pk}
    assert len(saved.games.deleted) == 1 and len(saved.entries.deleted) == 1


def rated_later(player: Player) -> None:
    """A rated table of ``player`` two weeks after DAY."""
    later = make_table([player, make_player("Falk")], date=DAY + dt.timedelta(days=14), status=TableStatus.SUBMITTED)
    add_game(later, 1, player, later.entries.get(seat=2).player)
    rerate_from(date=None)
    assert RatingRow.objects.filter(table=later).count() == 2


def test_table_save_refuses_a_date_before_a_players_last_rated_table_for_a_director(four: list[Player]) -> None:
    a, b = four[:2]
    rated_later(a)
    arguments = {
        "table": None,
        "tournament": make_tournament(),
        "name": "",
        "date": DAY,
        "entries": [EntryFacts(player_id=a.pk), EntryFacts(player_id=b.pk)],
        "games": [GameEdit(facts=game(1, a, b))],
    }
    before = everything()
    with pytest.raises(TableRefused) as refused:
        table_save(**arguments, strict_dates=True)  # type: ignore[arg-type]
    assert "Abe Ken: the table's date 2024-05-12 is before his last rated table (2024-05-26)." in refused.value.problems
    assert any("Only a rating officer" in p for p in refused.value.by_field["games"])
    assert everything() == before
    # A rating officer inserts a late table into the past on purpose: only the tables before it count.
    assert table_save(**arguments, strict_dates=False).table.pk is not None  # type: ignore[arg-type]


def test_table_refused_save_writes_nothing_and_names_every_problem(four: list[Player]) -> None:
    a, b, c, _d = four
    make_table([make_player()], date=DAY + dt.timedelta(days=7), sequence=1)
    table = make_table(four, date=DAY)
    kept = add_game(table, 1, a, b)
    before = everything()
    with pytest.raises(TableRefused) as refused:
        table_save(
            table=table,
            tournament=table.tournament,
            name="renamed",
            date=DAY + dt.timedelta(days=7),
            sequence=1,
            entries=[EntryFacts(player_id=p.pk, seat=n) for n, p in enumerate(four, 1)]
            + [EntryFacts(player_id=a.pk, seat=9)],
            games=[GameEdit(facts=game(1, a, b, GameResult.DRAW), id=kept.pk), GameEdit(facts=game(2, c, c))],
            strict_dates=False,
        )
    by_field = refused.value.by_field
    assert by_field["sequence"] == [
        "Another table of 2024-05-19 has the number 1; leave it empty to take the next free one."
    ]
    assert by_field["entries"] == ["Abe Ken is entered twice (numbers 1 and 9)."]
    assert "Round 2: Cruz Marta cannot play against himself." in by_field["games"]
    assert everything() == before
    table.refresh_from_db()
    assert (table.name, table.date) == ("", DAY)


def test_table_check_asks_a_submitted_table_for_a_rated_game(four: list[Player]) -> None:
    a, b = four[:2]
    table = make_table([a, b], date=DAY, status=TableStatus.SUBMITTED)
    with pytest.raises(TableRefused) as refused:
        table_check(
            table=table,
            tournament=table.tournament,
            date=DAY,
            sequence=None,
            entries=None,
            games=[game(1, a, None, GameResult.BYE), game(1, b, None, GameResult.ABSENT)],
            strict_dates=True,
        )
    assert refused.value.by_field == {"games": ["The table has no rated game."]}


def test_table_save_of_a_submitted_table_asks_for_a_rerate_in_its_own_transaction(
    four: list[Player], django_capture_on_commit_callbacks: Callable[..., object]
) -> None:
    a, b = four[:2]
    tournament = make_tournament(date=DAY - dt.timedelta(days=2), until=DAY)
    table = make_table([a, b], tournament=tournament, date=DAY, sequence=2, status=TableStatus.SUBMITTED)
    played = add_game(table, 1, a, b)
    draw = [GameEdit(facts=game(1, a, b, GameResult.DRAW), id=played.pk)]

    # The edit and its re-rate request stand or fall together.
    with pytest.raises(RuntimeError), transaction.atomic():
        table_save(
            table=table, tournament=table.tournament, name="", date=DAY, entries=None, games=draw, strict_dates=False
        )
        assert PendingRerate.objects.exists()
        raise RuntimeError("the request fails after the save")
    played.refresh_from_db()
    assert played.result == GameResult.FIRST_WON and not PendingRerate.objects.exists()

    # Moved two days earlier: re-rating starts at the earlier of its two places.
    with django_capture_on_commit_callbacks() as callbacks:  # type: ignore[attr-defined]
        saved = table_save(
            table=table,
            tournament=table.tournament,
            name="",
            date=DAY - dt.timedelta(days=2),
            entries=None,
            games=draw,
            strict_dates=False,
        )
    assert saved.rerate_requested and len(callbacks) == 1  # the re-rate is queued once the edit is committed
    pending = PendingRerate.objects.get()
    table.refresh_from_db()
    assert (pending.from_date, pending.from_sequence) == (DAY - dt.timedelta(days=2), 1)
    assert table.needs_rerate and table.sequence == 1


def test_table_save_without_a_change_asks_for_no_rerate(four: list[Player]) -> None:
    a, b = four[:2]
    table = make_table([a, b], date=DAY, status=TableStatus.RATED)
    add_game(table, 1, a, b)
    saved = table_save(
        table=table,
        tournament=table.tournament,
        name="",
        date=DAY,
        entries=None,
        games=saved_games(table),
        strict_dates=False,
    )
    assert not saved.rerate_requested and not PendingRerate.objects.exists()
