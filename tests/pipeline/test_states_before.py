"""states_before reads each player's state before a position through the rows' validity; it must give what
his latest row before the position gives, also while a deleted table's re-rate is still pending."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from ratings import engine
from ratings.models import OpeningState, RatingRow, Table
from ratings.models.states import state_from_json, state_to_json
from ratings.selectors.states import starting_states, states_before
from ratings.services.tables.submit import table_delete
from tests.factories import make_player
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


def test_starting_states_take_the_record_s_prior_grade_where_the_rules_say() -> None:
    """Before his first table a migrated player starts from his opening state; one who never played takes his
    record's prior grade (a rating officer may have corrected it since the list was migrated); a new player
    starts with his record's prior grade alone, or none."""
    migrated_idle, migrated_active = make_player("Idle", prior=("dan", 2)), make_player("Active", prior=("dan", 3))
    newcomer = make_player("Newcomer", prior=("kyu", 4))
    unknown = make_player("Unknown")
    from_list = engine.PriorGrade(kind="kyu", level=1)
    idle = engine.PlayerState(rating=1500, game_count=0, prior_grade=from_list)
    active = engine.PlayerState(1700, None, game_count=40, bonus_count=40, grade=20, prior_grade=from_list)
    OpeningState.objects.create(player=migrated_idle, state=state_to_json(idle))
    OpeningState.objects.create(player=migrated_active, state=state_to_json(active))

    states = starting_states([migrated_idle.pk, migrated_active.pk, newcomer.pk, unknown.pk])

    assert states[migrated_idle.pk] == idle._replace(prior_grade=engine.PriorGrade(kind="dan", level=2))
    assert states[migrated_active.pk] == active  # his games rate him: the list's state as it is
    assert states[newcomer.pk] == engine.PlayerState(prior_grade=engine.PriorGrade(kind="kyu", level=4))
    assert states[unknown.pk] == engine.PlayerState()
