"""The fast paths of a re-rate say exactly what the plain ones say.

A re-rate reads games straight from the database into the engine's games, and writes rating rows as tuples
of JSON text (rerate/replay.py, rerate/rows.py), both for speed; here they are held equal to
``tables.engine_games`` and to what the engine's outcome and ``states.state_to_json`` give.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import connection, transaction

from ratings.db import batched_load
from ratings.models import Game, Player, RatingRow
from ratings.models.states import state_to_json
from ratings.selectors.states import starting_states
from ratings.services.rerate import rerate_check, rerate_from
from ratings.services.rerate.replay import History, Replay
from ratings.services.rerate.rows import RowWriter, detail_json
from ratings.services.tables.submit import GameFacts, engine_games, table_preview
from tests.pipeline.histories import START, make_players, random_table, submit

pytestmark = pytest.mark.django_db


def test_history_games_are_what_engine_games_makes_of_the_stored_games() -> None:
    rng = random.Random(7)
    players = make_players(rng, 10)
    tables = [random_table(rng, players, START + dt.timedelta(days=7 * i)) for i in range(8)]
    for table in tables:
        submit(table)  # submitted: the history holds submitted and rated tables
    # The random games include draws, handicaps both ways, forfeits (not played), replays and byes.
    assert Game.objects.filter(played=False).exists() and Game.objects.filter(replay_draw=True).exists()
    assert Game.objects.exclude(handicap="").exists() and Game.objects.filter(second__isnull=True).exists()

    history = History(None)
    for table in tables:
        facts = [GameFacts.of(g) for g in Game.objects.filter(table=table).order_by("round", "id")]
        assert history.games.get(table.pk, []) == engine_games(facts)


def test_rating_rows_hold_what_the_engine_says_about_each_player(django_capture_on_commit_callbacks) -> None:
    rng = random.Random(11)
    players = make_players(rng, 8)
    table = random_table(rng, players, START)
    expected = table_preview(table)  # rates the table in memory from the same states
    with django_capture_on_commit_callbacks(execute=True):
        submit(table)

    rows = {row.player_id: row for row in RatingRow.objects.filter(table=table)}
    assert set(rows) == {o.key for o in expected.outcomes}
    for o in expected.outcomes:
        row = rows[o.key]
        assert (row.date, row.sequence, row.method) == (table.date, table.sequence, o.method)
        assert (row.rating_before, row.rating_after, row.change, row.performance) == (
            o.before.rating,
            o.after.rating,
            o.change,
            o.performance,
        )
        assert (row.rated_games, row.score, row.games_before, row.games_after) == (
            len(o.games),
            o.score,
            o.before.games,
            o.after.games,
        )
        assert (row.grade_before, row.grade_after) == (o.before.grade, o.after.grade)
        assert row.state_before == state_to_json(o.before) and row.state_after == state_to_json(o.after)
        assert row.detail == [detail_json(g) for g in o.games]


def test_full_rerate_in_small_batches_writes_every_row_once_with_its_validity(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:
    """A full re-rate holds each player's latest row back until his next row (or the end) gives its
    ``valid_until``: written in batches of a few rows, across many flushes, the rows are those of one batch,
    and linked as the history links them."""
    rng = random.Random(5)
    players = make_players(rng, 9)
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(10):  # some players sit tables out: their held rows wait over several batches
            submit(random_table(rng, rng.sample(players, rng.randint(3, 7)), START + dt.timedelta(days=7 * i)))

    def stored() -> list[tuple[object, ...]]:
        fields = ("table_id", "player_id", "date", "valid_until", "rating_after", "state_after", "detail")
        return sorted(RatingRow.objects.values_list(*fields), key=lambda row: (row[0], row[1]))

    rerate_from()
    whole = stored()
    monkeypatch.setattr(RowWriter, "BATCH", 4)
    rerate_from()
    assert stored() == whole
    assert len(whole) == RatingRow.objects.count() > 30
    assert rerate_check() == []


def test_a_query_while_the_writers_copy_is_open_is_refused_not_left_waiting(django_capture_on_commit_callbacks) -> None:
    """On PostgreSQL the rows of a batch go through a COPY left open while the replay goes on; a query made
    meanwhile would wait for the COPY's lock forever. It is refused with an error, and the COPY fails with it."""
    if connection.vendor != "postgresql":
        pytest.skip("the open COPY is PostgreSQL's (make test-postgres runs it)")
    rng = random.Random(3)
    with django_capture_on_commit_callbacks(execute=True):
        submit(random_table(rng, make_players(rng, 4), START))
    stored = sorted(RatingRow.objects.values_list("player_id", "rating_after"))
    states = batched_load(starting_states, Player.objects.values_list("pk", flat=True))
    replay = Replay(History(None), states, {}, texts=True)
    refused = pytest.raises(RuntimeError, match="COPY holds the connection")
    with refused, transaction.atomic(), RowWriter(replace_all=False) as writer:
        for table, items in replay.run():
            writer.add(table, items)
        writer.flush()  # the table's rows deleted, the new ones queued: the COPY stays open
        Player.objects.count()
    assert sorted(RatingRow.objects.values_list("player_id", "rating_after")) == stored  # the savepoint went back
