"""The demo generator (ratings/demo) in its two forms, and the knobs the benchmarks turn."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest

from ratings.demo.build import demo_build
from ratings.demo.history import engine_history
from ratings.demo.play import table_games
from ratings.demo.sim import Knobs, World
from ratings.demo.world import world_build
from ratings.engine import PlayerState
from ratings.engine.history import rate_history
from ratings.models import Game, Player, Promotion, PromotionStatus, Table, TableEntry, TableStatus

UNTIL = dt.date(2024, 6, 30)
SIZE = {"players": 90, "years": 2, "tables_per_year": 12, "until": UNTIL}
PURE = ("__init__.py", "names.py", "people.py", "play.py", "sim.py", "world.py", "history.py")


def rated_games(world: World) -> int:
    return sum(g.second is not None and g.played for t in world.tables for g in table_games(world, t))


@pytest.mark.parametrize("name", PURE)
def test_demo_model_module_imports_no_django(name: str) -> None:
    path = Path(__file__).resolve().parent.parent / "ratings" / "demo" / name
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    bad = {m for m in modules if m.split(".")[0] in {"django", "federation"} or m.startswith("ratings.models")}
    assert not bad, f"{name} imports {sorted(bad)}: the engine benchmark uses it without Django"


@pytest.mark.django_db
@pytest.mark.slow
def test_engine_history_agrees_with_the_database_demo() -> None:
    """The same federation, rated by the engine alone and by the site's re-rate, ends with the same ratings."""
    summary = demo_build(seed=3, **SIZE)
    world = world_build(seed=3, **SIZE)
    history = engine_history(world)
    # A table played again because it did not settle would hold other games than the world's.
    assert summary.rating_errors == summary.tables_replayed == 0
    rated = Table.objects.filter(status=TableStatus.RATED)
    assert len(history.tables) == rated.count() == len(world.tables) - 2
    assert history.games == Game.objects.filter(table__in=rated, second__isnull=False, played=True).count()
    assert sum(len(t.players) for t in history.tables) == TableEntry.objects.filter(table__in=rated).count()
    assert len(world.players) == Player.objects.count()
    assert len(history.opening) == Player.objects.filter(opening_state__isnull=False).count()

    result = rate_history(history.tables, history.opening)
    assert not result.unsettled
    # A player the history never met has the engine's blank state: rating 0, no games, as the site stores.
    blank = PlayerState()
    computed = {p.federation_id: result.states.get(p.index, blank) for p in world.players}
    stored = {
        fid: (rating, games) for fid, rating, games in Player.objects.values_list("federation_id", "rating", "games")
    }
    assert {fid: (s.rating, s.games) for fid, s in computed.items()} == stored
    assert sum(s.games > 0 for s in computed.values()) > 60


def test_world_games_target_ends_with_the_table_that_reaches_it() -> None:
    world = world_build(players=300, years=3, games=4000, seed=5, until=UNTIL, knobs=Knobs(drafts=0))
    total = rated_games(world)
    last = world.tables[-1]
    last_games = sum(g.second is not None and g.played for g in table_games(world, last))
    assert total - last_games < 4000 <= total
    assert world.tournaments[-1].index == last.tournament  # no tournament left without a table


def test_world_games_target_scales_the_calendar() -> None:
    small = world_build(players=300, years=3, games=3000, seed=5, until=UNTIL)
    large = world_build(players=300, years=3, games=12000, seed=5, until=UNTIL)
    assert 3 * len(small.tables) < len(large.tables)


@pytest.mark.parametrize("share", [0.0, 0.2, 0.9])
def test_world_careers_end_share_and_nobody_plays_after_his_career(share: float) -> None:
    world = world_build(seed=2, knobs=Knobs(careers_end=share), **SIZE)
    amateurs = [p for p in world.players if not p.professional]
    ended = sum(p.left is not None for p in amateurs) / len(amateurs)
    if share == 0.0:
        assert ended == 0.0
    else:
        # Some careers would end after the period and do not count: the share is an upper bound.
        assert share * 0.4 <= ended <= share
    for table in world.tables:
        assert all(world.players[i].active(table.date) for i in table.players)


def test_world_drafts_knob() -> None:
    world = world_build(seed=2, knobs=Knobs(drafts=0), **SIZE)
    assert not any(t.draft for t in world.tables) and all(t.complete for t in world.tables)
    assert len(engine_history(world).tables) == len(world.tables)
    world = world_build(seed=2, knobs=Knobs(drafts=3), **SIZE)
    assert [t.draft for t in world.tables[-4:]] == [False, True, True, True]
    assert not world.tables[-1].complete and world.tables[-2].complete


def test_knobs_refuse_values_out_of_range() -> None:
    with pytest.raises(ValueError, match="knobs"):
        Knobs(careers_end=1.5)
    with pytest.raises(ValueError, match="knobs"):
        Knobs(drafts=-1)


@pytest.mark.django_db
@pytest.mark.parametrize("approvals", [True, False])
@pytest.mark.slow
def test_demo_dan_approvals_knob(approvals: bool) -> None:
    demo_build(players=200, years=4, seed=1, until=UNTIL, knobs=Knobs(dan_approvals=approvals))
    dan = Promotion.objects.filter(grade__gte=21)
    assert dan.filter(status=PromotionStatus.PENDING).exists()
    assert dan.filter(status=PromotionStatus.APPROVED).exists() == approvals


@pytest.mark.parametrize("seed", [1, 3, 7])
def test_world_tables_lie_within_their_tournaments_and_not_after_until(seed: int) -> None:
    """The demo builds only what the table date rule allows (ratings/services/tables/dates.py)."""
    world = world_build(seed=seed, **SIZE)
    for table in world.tables:
        tournament = world.tournaments[table.tournament]
        assert tournament.start <= table.date <= tournament.end <= UNTIL
