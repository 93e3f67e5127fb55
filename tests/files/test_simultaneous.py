"""A simultaneous-display giver (``[&]``): stored as consecutive rounds, rated as the file says."""

from __future__ import annotations

import pytest

from ratings import engine
from ratings.fesa_files.turnering import engine_table, read_turnering
from ratings.models import Game, Table
from ratings.services.fesa.turnering import turnering_import

SIMUL = b"""[Simul]
[2016-01-07]
1 [Giver] [Gus] [&]
2 [Alpha] [Ann] [1- 3+]
3 [Beta] [Bob] [1= 2-]
4 [Gamma] [Cy] [1+(+R) 0+]
"""


@pytest.mark.django_db
def test_simultaneous_giver_games_get_one_round_each() -> None:
    plan = turnering_import(data=SIMUL, tournament=None, create_new=True, commit=True)
    table = Table.objects.get(pk=plan.table_id)
    giver = table.entries.get(seat=1).player
    rounds = sorted(g.round for g in Game.objects.filter(table=table) if giver.pk in (g.first_id, g.second_id))
    assert rounds == [1, 2, 3]  # three games in the file's round 1, one database round each
    # After them, the file's round 2 (Alpha beat Beta, Gamma had a bye) comes as round 4.
    assert sorted((g.round, g.second_id is None) for g in Game.objects.filter(table=table, round=4)) == [
        (4, False),
        (4, True),
    ]


@pytest.mark.django_db
def test_simultaneous_table_rates_like_the_file() -> None:
    plan = turnering_import(data=SIMUL, tournament=None, create_new=True)
    assert plan.ok, plan.problems
    turnering = read_turnering(SIMUL)
    prepared = engine_table(turnering, {p.number: engine.PlayerState() for p in turnering.players})
    direct = engine.rate_table(prepared.table).by_key()
    assert {e.number: (e.rating_after, e.games) for e in plan.effects} == {
        n: (o.after.rating, len(o.games)) for n, o in direct.items()
    }
    assert next(e for e in plan.effects if e.number == 1).games == 3
