"""A table whose rating would run off the handicap scale names the player (and, in a file, his line) wherever it
is previewed: the admin's crosstable and the upload and API's file, as the rules (docs/rules.md §3) and the
program's files path do, never the engine's key ("player 1", a database id)."""

from __future__ import annotations

import pytest

from ratings.models import GameResult
from ratings.services.fesa.turnering import turnering_import
from ratings.services.tables.submit import TableInvalid, table_preview
from tests.factories import add_game, make_player, make_table
from tests.pipeline.test_unsettled import CUP, established

pytestmark = pytest.mark.django_db


def test_the_admins_preview_names_the_player_whose_rating_runs_off_the_scale() -> None:
    master, newcomer = established("Mester", 2678), make_player("Neu")
    cup = make_table([master, newcomer], date=CUP)
    add_game(cup, 1, newcomer, master, GameResult.FIRST_WON, handicap="R", giver="first")
    with pytest.raises(TableInvalid) as refused:
        table_preview(cup)
    [message] = refused.value.problems
    assert f"{newcomer}'s rating would reach" in message and f"player {newcomer.pk}'" not in message


def test_a_files_preview_names_the_player_and_his_line() -> None:
    cells = ("2+(-R)", "1-(+R)")  # the newcomer gives the master a rook and wins
    master = established("Mester", 2678)
    text = f"[Cup]\n[{CUP.isoformat()}]\n1 [Neu] [Hans] N [{cells[0]}]\n2 [Mester] [{master.given_name}] [{cells[1]}]\n"
    plan = turnering_import(data=text.encode(), tournament=None, create_new=True)
    off_scale = [p for p in plan.problems if "would reach" in p.message]
    [problem] = off_scale
    assert "Neu Hans" in problem.message and problem.line == 3, (problem.line, problem.message)
