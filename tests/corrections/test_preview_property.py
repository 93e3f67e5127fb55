"""Whatever a rating officer does — correct a result, move a table, replace a player, set a prior grade, merge
two records or undo any of these, in any order — the preview he is shown is exactly what saving then stores:
the same players' rating, category and grade, the same promotion records appearing, withdrawn or flagged.

A property test: hypothesis draws sequences of edits over one small rated federation (two records of one
person, a player from the FESA opening balance and a twin of his without games, eight others); each sequence
runs in a savepoint rolled back afterwards. The examples are derandomised and bounded, so the test gives the
same answer on every run and takes seconds.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.models import Correction, Player, Table, TableEntry
from ratings.services.corrections.apply import (
    MergeChange,
    MergeRefused,
    NothingToCorrect,
    UndoRefused,
    correction_make,
    correction_preview,
    correction_undo,
    correction_undo_change,
)
from ratings.services.corrections.facts import PriorGradeChange
from ratings.services.tables.replace import ReplaceRefused, table_replace_change
from ratings.services.tables.save import TableRefused
from tests.corrections.helpers import (
    player_columns,
    previewed,
    promotion_records,
    rerate_and_check,
    result_flipped,
    stored_changes,
    table_change,
)
from tests.duplicates.helpers import twice_entered
from tests.factories import make_player, make_rating_officer, make_table
from tests.grades.conftest import START as OPENING
from tests.grades.conftest import seasoned
from tests.pipeline.histories import random_games, submit

pytestmark = pytest.mark.django_db

Refused = (MergeRefused, NothingToCorrect, UndoRefused, ReplaceRefused, TableRefused, IndexError)
"""What an edit drawn at random may meet: it is then not made (as the admin would refuse it), nothing to check."""

PLAYERS, TABLES = 12, 10
index = st.integers(min_value=0, max_value=99)  # taken modulo the number of tables, players or corrections
edits = st.one_of(
    st.tuples(st.just("flip"), index, st.integers(min_value=0, max_value=3)),
    st.tuples(st.just("move"), index, index),
    st.tuples(st.just("replace"), index, index, index),
    st.tuples(st.just("prior"), index, st.integers(min_value=0, max_value=8)),
    st.tuples(st.just("merge"), st.sampled_from([(1, 0), (0, 1), (3, 2), (2, 3)])),
    st.tuples(st.just("undo"), index),
)


def federation() -> tuple[list[int], list[int]]:
    """The players and the rated tables, by id: ``twice_entered``'s history, then Moreau (from the FESA opening
    balance, rated since) in two tables with the others, and his twin without a game."""
    kept, duplicate, others, tables = twice_entered(7)
    rng = random.Random(7)
    moreau = seasoned(1115, 15, family_name="Moreau", nationality="FR")
    for week in (5, 6):  # after his opening balance's last game (the grades tests' START)
        chosen = [moreau, *rng.sample(others, 3)]
        table = make_table(chosen, date=OPENING + dt.timedelta(days=7 * week))
        random_games(rng, table, chosen, 2)
        submit(table)
        tables.append(table)
    twin = make_player("Moreau", nationality="FR")
    rerate_and_check()
    players = [kept, duplicate, moreau, twin, *others]
    return [p.pk for p in players], [t.pk for t in tables]


def change_of(edit: tuple[Any, ...], players: list[int], tables: list[int]) -> Any:
    """The change ``edit`` asks for, built from the database as it is now; raises one of Refused."""
    kind, *args = edit
    if kind == "undo":
        open_ = list(Correction.objects.filter(undone_by__isnull=True, undoes__isnull=True).order_by("pk"))
        if not open_:
            raise IndexError("nothing to undo")
        correction = open_[args[0] % len(open_)]
        return correction, correction_undo_change(correction)
    if kind == "merge":  # the two records of one person, either way round: the merges that are not refused
        duplicate, kept = (Player.objects.get(pk=players[i]) for i in args[0])
        return None, MergeChange(duplicate=duplicate, kept=kept)
    if kind == "prior":
        player = Player.objects.get(pk=players[args[0] % PLAYERS])
        if not args[1]:
            return None, PriorGradeChange(player=player, kind="", level=None, source="")
        return None, PriorGradeChange(player=player, kind="kyu", level=args[1], source="national")
    table = Table.objects.get(pk=tables[args[0] % TABLES])
    if kind == "flip":
        return None, result_flipped(table, game_index=args[1])
    if kind == "move":
        there = Table.objects.get(pk=tables[args[1] % TABLES])
        return None, table_change(table, tournament=there.tournament, date=there.date, sequence=None)
    entries = list(TableEntry.objects.filter(table=table).order_by("seat").values_list("player_id", flat=True))
    wrong = Player.objects.get(pk=entries[args[1] % len(entries)])
    right = Player.objects.get(pk=players[args[2] % PLAYERS])
    return None, table_replace_change(table=table, wrong=wrong, right=right)


def test_every_preview_is_what_the_save_then_stores() -> None:
    players, tables = federation()
    assert len(players) == PLAYERS and len(tables) == TABLES
    officer = make_rating_officer()
    made: list[str] = []

    @settings(
        max_examples=20,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(st.lists(edits, min_size=1, max_size=4))
    def sequence(steps: list[tuple[Any, ...]]) -> None:
        with transaction.atomic():
            for edit in steps:
                try:
                    undoes, change = change_of(edit, players, tables)
                    preview = correction_preview(change)
                except Refused:
                    continue
                before = player_columns(), promotion_records()
                try:
                    if undoes is not None:
                        correction_undo(correction=undoes, user=officer, reason="drawn", expected=None)
                    else:
                        correction_make(user=officer, reason="drawn", change=change, expected=None)
                except NothingToCorrect:
                    continue
                rerate_and_check()
                assert previewed(preview) == stored_changes(*before), edit
                made.append(edit[0])
            transaction.set_rollback(True)  # the next sequence starts from the same federation

    sequence()
    assert {"flip", "move", "replace", "merge", "undo"} <= set(made)  # the draws reached every kind of edit
