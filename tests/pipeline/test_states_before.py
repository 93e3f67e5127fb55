"""states_before reads each player's state before a position through the rows' validity; it must give what
his latest row before the position gives, also while a deleted table's re-rate is still pending."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from ratings.models import RatingRow, Table
from ratings.models.states import state_from_json
from ratings.selectors.states import starting_states, states_before
from ratings.services.tables.submit import table_delete
from tests.pipeline.histories import START, make_players, random_table, submit

pytestmark = pytest.mark.django_db


def latest_rows_before(date: dt.date, sequence: int, player_ids: list[int]) -> dict[int, object]:
    """The definition: the state after of the player's latest row before the position, else his start."""
    out: dict[int, object] = {}
    rows = RatingRow.objects.filter(player_id__in=player_ids).order_by("date", "sequence")
    for pid, row_date, row_sequence, state in rows.values_list("player_id", "date", "sequence", "state_after"):
        if (row_date, row_sequence) < (date, sequence):
            out[pid] = state_from_json(state)
    return out | {pid: state for pid, state in starting_states(player_ids).items() if pid not in out}


@pytest.mark.parametrize("seed", [1, 2])
def test_states_before_equal_the_latest_rows_before_every_position(
    seed: int, django_capture_on_commit_callbacks
) -> None:
    rng = random.Random(seed)
    players = make_players(rng, 10)
    with django_capture_on_commit_callbacks(execute=True):
        for week in range(8):
            submit(random_table(rng, players, START + dt.timedelta(days=7 * week)))
    ids = [p.pk for p in players]
    tables = list(Table.objects.order_by("date", "sequence"))
    # Two tables deleted, their re-rate not run yet: the rows before them point to rows that are gone.
    with django_capture_on_commit_callbacks(execute=False):
        for table in (tables[2], tables[5]):
            table_delete(table=table)
    positions = [(t.date, t.sequence) for t in tables] + [(tables[-1].date + dt.timedelta(days=1), 1)]
    for date, sequence in positions:
        assert states_before(date=date, sequence=sequence, player_ids=ids) == latest_rows_before(date, sequence, ids)
