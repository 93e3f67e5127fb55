"""Duplicates tests: a small rated history where one person was entered twice and the two never met."""

from __future__ import annotations

import datetime as dt
import random

from ratings.models import Player, Table
from ratings.services.rerate import rerate_pending
from tests.factories import make_player, make_table
from tests.pipeline.histories import START, random_games, submit


def twice_entered(seed: int = 1) -> tuple[Player, Player, list[Player], list[Table]]:
    """``kept`` (Rossi Mateo) and ``duplicate`` (Rossi Matteo) play in alternate tables with eight others."""
    rng = random.Random(seed)
    kept = make_player("Rossi", "Mateo", nationality="IT", prior=("kyu", 3))
    duplicate = make_player("Rossi", "Matteo", nationality="IT")
    others = [
        make_player(name, prior=("kyu", rng.randint(1, 8)) if rng.random() < 0.5 else None)
        for name in ("Andersson", "Bianchi", "Castro", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvath")
    ]
    tables = []
    for week in range(8):
        chosen = [kept if week % 2 == 0 else duplicate, *rng.sample(others, 4)]
        table = make_table(chosen, date=START + dt.timedelta(days=7 * week))
        random_games(rng, table, chosen, 3)
        submit(table)
        tables.append(table)
    rerate_pending()
    for p in (kept, duplicate):
        p.refresh_from_db()
    return kept, duplicate, others, tables
