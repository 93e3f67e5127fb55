"""The preview reads the states before the corrected table from the stored rows where they say it: the same
states as reading every player's latest row before it, for a table moved later or earlier, and a preview
that still equals what the re-rate then stores."""

from __future__ import annotations

import pytest

from ratings.models.states import state_from_json
from ratings.selectors.states import states_before
from ratings.services.corrections.apply import correction_make, correction_preview
from ratings.services.corrections.preview import _initial_states, _table_history
from ratings.services.rerate.replay import stored_rows
from tests.corrections.helpers import (
    player_columns,
    previewed,
    promotion_records,
    rerate_and_check,
    stored_changes,
    table_change,
)
from tests.corrections.test_services import rated_history
from tests.factories import make_rating_officer

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("seed", "moved", "to"), [(1, 3, 8), (2, 8, 2), (3, 5, 6), (7, 10, 1)])
@pytest.mark.slow
def test_states_from_stored_rows_equal_the_latest_rows_and_the_preview_is_stored(seed, moved, to) -> None:
    tables = rated_history(seed)
    table, there = tables[moved], tables[to]
    change = table_change(table, tournament=there.tournament, date=there.date, sequence=None)
    start, history = _table_history(change)
    stored = stored_rows([t.pk for t in history.tables])
    read, entered = _initial_states(start, history, stored, fixed=set())
    fast = read | {pid: state_from_json(data) for pid, data in entered.items()}
    assert entered and not read.keys() & entered.keys()  # some come from the stored rows, none twice
    everyone = set(fast) | history.playing_all()
    assert fast == states_before(date=start[0], sequence=start[1], player_ids=everyone)

    players, promotions = player_columns(), promotion_records()
    preview = correction_preview(change)
    correction_make(user=make_rating_officer(), reason="Wrong day", change=change)
    rerate_and_check()
    assert previewed(preview) == stored_changes(players, promotions)
