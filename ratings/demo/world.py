"""The demo federation's calendar: tournaments and their tables, each with its players in seat order.

Each year a European championship (two tables) and national championships of the larger countries, then local
tournaments until the year has its number of tables; on weekends, in the host country's cities, mostly with
local players and some visitors; bigger tournaments split into an A and a B group. The games of each table are
played apart (``play.table_games``).

Every table holds a few players the rules can anchor on (on the opening list, with a prior grade, or rated
before): a table of nothing but brand-new players has no fixed point, since every performance rating then
moves with the others' (docs/rules.md §6), and it would never settle.

Pure Python and deterministic: the same arguments give the same world, whatever the process (only
``random.Random`` seeded with ints or strings, no iteration over sets of strings).
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .names import Country
from .people import HOSTS, directors_invent, pick_country, players_invent
from .play import table_games
from .sim import Knobs, SimDirector, SimPlayer, SimTable, SimTournament, World

TIME_CONTROLS = ("40 min + 30 s byoyomi", "30 min + 30 s byoyomi", "60 min + 30 s byoyomi", "25 min + 10 s Fischer")
MIN_TABLE = 6
ANCHOR_SHARE = 0.25  # at least this share of a table, and at least two players, have something to anchor on
GAMES_PER_TABLE = 35.0  # rated games of an average table (measured over federations of 400..20,000 players)
GAMES_MARGIN = 1.1  # how much more than the games asked for the calendar is planned for, before the cut


def default_tables_per_year(players: int) -> int:
    """About one table a year per ten players: each player then plays two or three tables a year."""
    return max(6, round(players / 10))


def tables_per_year_for(games: int, years: int) -> int:
    """Tables a year for about ``games`` rated games, a little more than needed (``world_build`` cuts the
    calendar once it has them)."""
    return max(6, math.ceil(games * GAMES_MARGIN / (years * GAMES_PER_TABLE)))


def world_build(
    *,
    players: int,
    years: int,
    seed: int,
    until: dt.date,
    tables_per_year: int | None = None,
    games: int | None = None,
    knobs: Knobs = Knobs(),  # noqa: B008 - frozen, so one shared default is safe
) -> World:
    """The whole federation: players, directors, tournaments and tables (games come per table, ``table_games``).

    The period is the ``years`` before ``until``; ``tables_per_year`` defaults to ``default_tables_per_year``,
    or, with ``games``, to what about that many rated games need: the calendar then ends with the table that
    reaches ``games`` (the tables' games are played for that count, and the calendar planned again once if the
    estimate was far off). The latest ``knobs.drafts``
    tables are drafts, the last one with its last round still missing, so the admin has work in progress.
    """
    if games is None:
        return _world(players, years, tables_per_year or default_tables_per_year(players), seed, until, knobs)
    per_year = tables_per_year or tables_per_year_for(games, years)
    world = _world(players, years, per_year, seed, until, Knobs(careers_end=knobs.careers_end, drafts=0))
    counts = _rated_games(world)
    if tables_per_year is None and not games <= sum(counts) <= games * GAMES_MARGIN**2:
        # The estimate missed (a small federation's tables are bigger, its championships weigh more): plan
        # again for the games the first calendar's tables really held, so that the cut falls near ``until``.
        per_year = max(6, math.ceil(per_year * games * GAMES_MARGIN / max(1, sum(counts))))
        world = _world(players, years, per_year, seed, until, Knobs(careers_end=knobs.careers_end, drafts=0))
        counts = _rated_games(world)
    _cut_after(world, counts, games)
    _drafts_mark(world.tables, knobs.drafts)
    return world


def _world(players: int, years: int, per_year: int, seed: int, until: dt.date, knobs: Knobs) -> World:
    rng = random.Random(seed)
    start = until - dt.timedelta(days=round(365.25 * years))
    people = players_invent(rng, players, start, until, careers_end=knobs.careers_end)
    directors = directors_invent(rng)
    tournaments, tables = _calendar(rng, people, directors, years, per_year, start, until)
    _drafts_mark(tables, knobs.drafts)
    return World(seed, start, until, people, directors, tournaments, tables)


def _drafts_mark(tables: list[SimTable], drafts: int) -> None:
    if drafts and tables:
        for table in tables[-drafts:]:
            table.draft = True
        tables[-1].complete = False


def _rated_games(world: World) -> list[int]:
    """Each table's rated games (played pairings), as ``table_games`` plays them."""
    return [sum(g.second is not None and g.played for g in table_games(world, table)) for table in world.tables]


def _cut_after(world: World, counts: list[int], games: int) -> None:
    """End the calendar with the table whose rated games (``counts``, by table) bring the total to ``games``."""
    total = 0
    for table, count in zip(world.tables, counts, strict=True):
        total += count
        if total >= games:
            del world.tables[table.index + 1 :]
            del world.tournaments[table.tournament + 1 :]
            return


def _anchors_wanted(size: int) -> int:
    return max(2, math.ceil(size * ANCHOR_SHARE))


def _weekend(rng: random.Random, low: dt.date, high: dt.date) -> dt.date:
    """A Saturday or Sunday between ``low`` and ``high`` (the last weekend day before ``high`` if need be)."""
    day = low + dt.timedelta(days=rng.randint(0, max(0, (high - low).days)))
    while day.weekday() < 5:
        day += dt.timedelta(days=1)
    while day > high or day.weekday() < 5:
        day -= dt.timedelta(days=1)
    return day


@dataclass
class _Plan:
    kind: str  # "european", "national", "local"
    country: Country
    end: dt.date
    size: int
    tables: int


def _plans(rng: random.Random, years: int, per_year: int, start: dt.date, until: dt.date) -> list[_Plan]:
    """Each year's tournaments, in date order: a European championship, national ones, then local ones."""
    plans: list[_Plan] = []
    span = (until - start).days
    by_weight = sorted(HOSTS, key=lambda c: -c.weight)
    for year in range(years):
        low = start + dt.timedelta(days=year * span // years + 1)
        high = start + dt.timedelta(days=(year + 1) * span // years)
        count = 0
        if per_year >= 6:
            middle = low + (high - low) / 2
            end = _weekend(rng, middle - dt.timedelta(days=30), middle + dt.timedelta(days=30))
            plans.append(_Plan("european", pick_country(rng, HOSTS), end, rng.randint(36, 60), 2))
            count += 2
        for country in by_weight[: per_year // 8]:
            plans.append(_Plan("national", country, _weekend(rng, low, high), rng.randint(12, 32), 1))
            count += 1
        while count < per_year:
            size = min(40, MIN_TABLE + int(rng.lognormvariate(2.0, 0.6)))
            split = 2 if size >= 20 and rng.random() < 0.35 else 1
            plans.append(_Plan("local", pick_country(rng, HOSTS), _weekend(rng, low, high), size, split))
            count += split
    plans.sort(key=lambda p: p.end)
    return plans


def _calendar(
    rng: random.Random,
    people: list[SimPlayer],
    directors: list[SimDirector],
    years: int,
    per_year: int,
    start: dt.date,
    until: dt.date,
) -> tuple[list[SimTournament], list[SimTable]]:
    plans = _plans(rng, years, per_year, start, until)

    home: dict[str, tuple[list[int], list[float]]] = {}
    for country in HOSTS:
        members = [p.index for p in people if p.residence == country.code and not p.professional]
        home[country.code] = (members, _cumulative([people[i].activity for i in members]))
    amateurs = [p.index for p in people if not p.professional]
    abroad = (amateurs, _cumulative([people[i].activity * (0.05 + people[i].travel) for i in amateurs]))
    professionals = [p.index for p in people if p.professional]
    busy: dict[dt.date, set[int]] = defaultdict(set)
    anchored = {p.index for p in people if p.opening is not None or p.prior is not None}

    tournaments: list[SimTournament] = []
    tables: list[SimTable] = []
    for plan in plans:
        begin = plan.end - dt.timedelta(days=1) if plan.size >= 24 and plan.end.weekday() == 6 else plan.end
        days = [begin, plan.end]

        def free(i: int, days: list[dt.date] = days) -> bool:
            return people[i].active(days[0]) and all(i not in busy[d] for d in days)

        def free_anchor(i: int) -> bool:
            return i in anchored and free(i)

        foreign_share = {"european": 0.75, "national": 0.0, "local": rng.uniform(0.0, 0.15)}[plan.kind]
        visitors = round(plan.size * foreign_share)
        chosen = _draw(rng, *home[plan.country.code], plan.size - visitors, free, [])
        chosen = _draw(rng, *abroad, plan.size - len(chosen), free, chosen)
        if plan.kind != "local" and professionals and rng.random() < 0.3:
            chosen = _draw(rng, professionals, _cumulative([1.0] * len(professionals)), 1, free, chosen, tries=3)
        missing = _anchors_wanted(len(chosen)) - sum(i in anchored for i in chosen)
        if missing > 0:
            chosen = _draw(rng, *home[plan.country.code], missing, free_anchor, chosen)
            missing = _anchors_wanted(len(chosen)) - sum(i in anchored for i in chosen)
            chosen = _draw(rng, *abroad, missing, free_anchor, chosen)
        if len(chosen) < MIN_TABLE or sum(i in anchored for i in chosen) < _anchors_wanted(len(chosen)):
            continue
        for i in chosen:
            for d in days:
                busy[d].add(i)
        city = rng.choice(plan.country.cities)
        tournament = SimTournament(
            index=len(tournaments),
            name=_tournament_name(rng, plan, city),
            city=city,
            country=plan.country.code,
            start=begin,
            end=plan.end,
            time_control=rng.choice(TIME_CONTROLS),
            director=rng.choice([k for k, d in enumerate(directors) if d.country == plan.country.code]),
        )
        tournaments.append(tournament)
        seeded = sorted(chosen, key=lambda i: -(people[i].strength(plan.end) + rng.gauss(0, 60)))
        groups = [("", seeded)]
        if plan.tables == 2 and len(seeded) >= 2 * MIN_TABLE + 4:
            cut = max(MIN_TABLE + 2, round(len(seeded) * rng.uniform(0.4, 0.55)))
            lower = seeded[cut:]
            if sum(i in anchored for i in lower) >= _anchors_wanted(len(lower)):
                groups = [("A group", seeded[:cut]), ("B group", lower)]
        anchored.update(chosen)  # from now on they have a rating, or a result list to anchor on
        for name, seats in groups:
            tables.append(SimTable(len(tables), tournament.index, name, plan.end, 0, seats))
    sequences: dict[dt.date, int] = defaultdict(int)
    for table in tables:  # already in date order, tournaments of a date in plan order
        sequences[table.date] += 1
        table.sequence = sequences[table.date]
    return tournaments, tables


def _cumulative(weights: Sequence[float]) -> list[float]:
    total, out = 0.0, []
    for w in weights:
        total += w
        out.append(total)
    return out


def _draw(
    rng: random.Random,
    pool: list[int],
    cumulative: list[float],
    wanted: int,
    accept: Callable[[int], bool],
    chosen: list[int],
    tries: int = 12,
) -> list[int]:
    """``chosen`` plus up to ``wanted`` more players drawn by weight, without repeats, that ``accept`` takes.

    Drawing with rejection keeps a tournament's cost proportional to its size, not to the federation's.
    """
    out = list(chosen)
    if not pool or wanted <= 0:
        return out
    seen = set(out)
    goal = len(out) + wanted
    for _ in range(tries * wanted):
        if len(out) >= goal:
            break
        candidate = pool[min(len(pool) - 1, bisect.bisect(cumulative, rng.random() * cumulative[-1]))]
        if candidate in seen:
            continue
        seen.add(candidate)
        if accept(candidate):
            out.append(candidate)
    return out


def _tournament_name(rng: random.Random, plan: _Plan, city: str) -> str:
    if plan.kind == "european":
        return "European Shogi Championship"
    if plan.kind == "national":
        return f"{plan.country.adjective} Shogi Championship"
    season = "Spring" if 3 <= plan.end.month <= 5 else "Summer" if plan.end.month <= 8 else "Autumn"
    if plan.end.month in (12, 1, 2):
        season = "Winter"
    patterns = (f"{city} Open", f"{city} Shogi Cup", f"{season} Tournament {city}", f"{city} Shogi Open")
    return rng.choice(patterns)
