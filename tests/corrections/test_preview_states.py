"""The preview replays only the tables the change reaches (``SparseReplay``), taking the other players' states
from their stored rows: every player ends with the state the full replay of every table gives him, for a table
moved later or earlier, and the preview still equals what the re-rate then stores."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from ratings.models import Player, Table
from ratings.selectors.states import states_before
from ratings.services.corrections.apply import correction_make, correction_preview
from ratings.services.corrections.preview import _table_history
from ratings.services.rerate.replay import Replay, stored_rows
from ratings.services.rerate.sparse import SparseReplay
from ratings.services.tables.submit import table_delete
from tests.corrections.helpers import (
    player_columns,
    previewed,
    promotion_records,
    rerate_and_check,
    result_flipped,
    stored_changes,
    table_change,
)
from tests.corrections.test_services import rated_history
from tests.factories import make_player, make_rating_officer, make_table
from tests.pipeline.histories import random_games, submit

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("seed", "moved", "to"), [(1, 3, 8), (2, 8, 2), (3, 5, 6), (7, 10, 1)])
@pytest.mark.slow
def test_the_sparse_replay_ends_every_player_where_the_full_replay_does(seed, moved, to) -> None:
    tables = rated_history(seed)
    table, there = tables[moved], tables[to]
    change = table_change(table, tournament=there.tournament, date=there.date, sequence=None)
    start, history = _table_history(change)
    sparse = SparseReplay(history, start, fixed=set(), overrides={})
    sparse.run()

    history.load(t.pk for t in history.tables)  # every table, the changed one as the change leaves it
    stored = stored_rows([t.pk for t in history.tables])
    everyone = history.playing_all() | {pid for rows in stored.values() for pid in rows}
    full = Replay(history, states_before(date=start[0], sequence=start[1], player_ids=everyone), stored, texts=False)
    for _table, _items in full.run():
        pass
    assert sparse.redone and set(sparse.redone) <= set(full.redone)
    assert sparse.final_state(everyone) == {pid: full.state_of(pid) for pid in everyone}
    assert {(pid, t) for pid, t, _p in sparse.found} == {(pid, t) for pid, t, _p in full.found}

    players, promotions = player_columns(), promotion_records()
    preview = correction_preview(change)
    correction_make(user=make_rating_officer(), reason="Wrong day", change=change, expected=None)
    rerate_and_check()
    assert previewed(preview) == stored_changes(players, promotions)


def test_the_sparse_replay_sees_a_table_deleted_on_the_day_of_a_later_one() -> None:
    """A table deleted while its re-rate waits: its players' next table of the same day starts from the deleted
    table's rows, which their dates cannot show. table_delete flags that table, so the preview looks at it."""
    rng = random.Random(5)
    day = dt.date(2024, 3, 2)
    four, others = [make_player() for _ in range(4)], [make_player() for _ in range(4)]
    earlier = make_table(others, date=day - dt.timedelta(days=7))
    deleted = make_table(four, date=day, sequence=1)
    same_day = make_table(four, tournament=deleted.tournament, date=day, sequence=2)
    later = make_table([*four, *others], date=day + dt.timedelta(days=7))
    for table, rounds in ((earlier, 3), (deleted, 3), (same_day, 3), (later, 4)):
        players = list(Player.objects.filter(entries__table=table))
        random_games(rng, table, players, rounds)
        submit(table)
    rerate_and_check()
    table_delete(table=Table.objects.get(pk=deleted.pk))  # its re-rate has not run yet
    assert Table.objects.get(pk=same_day.pk).needs_rerate

    change = result_flipped(earlier)
    start, history = _table_history(change)
    sparse = SparseReplay(history, start, fixed=set(), overrides={})
    sparse.run()
    history.load(t.pk for t in history.tables)
    stored = stored_rows([t.pk for t in history.tables])
    everyone = history.playing_all() | {pid for rows in stored.values() for pid in rows}
    full = Replay(history, states_before(date=start[0], sequence=start[1], player_ids=everyone), stored, texts=False)
    for _table, _items in full.run():
        pass
    assert sparse.final_state(everyone) == {pid: full.state_of(pid) for pid in everyone}

    players, promotions = player_columns(), promotion_records()
    preview = correction_preview(change)
    correction_make(user=make_rating_officer(), reason="Wrong result", change=change, expected=None)
    rerate_and_check()
    assert previewed(preview) == stored_changes(players, promotions)
