"""A made-up shogi federation as plain values: players with a hidden strength and a calendar of tournaments
with their tables (the games of each table: ``play.table_games``).

Pure Python, no Django, deterministic: the same arguments give the same world, whatever the process (only
``random.Random`` seeded with ints or strings, no iteration over sets of strings). The service beside it
(``ratings.services.demo``) writes the world to the database and has the real engine rate it.

What makes it look real:

* players from twenty countries with names as spelled there; a strength drawn per player that grows in the
  first years; some join before the period, most during it, some stop; Japanese players mostly live in Europe;
  about 30% of the newcomers bring a prior grade (national federation or NSR) close to their strength; a few
  professionals who only come to the big events;
* a European championship and national championships each year, then local tournaments, on weekends, in the
  host country's cities, mostly with local players and some visitors; bigger ones split into two tables.
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
import random
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ratings.engine.constants import lower_bound

from .names import BY_CODE, COUNTRIES, Country, feminine

# As ratings.models.new_federation_id (no 0/O or 1/I); repeated here to keep this module free of Django.
FEDERATION_ID_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
HOSTS: tuple[Country, ...] = tuple(c for c in COUNTRIES if c.hosts)
TIME_CONTROLS = ("40 min + 30 s byoyomi", "30 min + 30 s byoyomi", "60 min + 30 s byoyomi", "25 min + 10 s Fischer")

PRIOR_GRADE_SHARE = 0.25  # among European newcomers; Japanese ones mostly bring a grade (0.7)
MIN_TABLE = 6


@dataclass(slots=True)
class SimPlayer:
    index: int
    federation_id: str
    family_name: str
    given_name: str
    nationality: str
    residence: str
    date_of_birth: dt.date
    strength0: float
    growth: float  # points per year for the first five years
    joined: dt.date
    left: dt.date | None
    activity: float  # relative weight of taking part in a tournament
    travel: float  # relative weight of going abroad
    professional: bool = False
    prior: tuple[str, int, str, str, dt.date] | None = None  # kind, level, source, note, date

    def strength(self, day: dt.date) -> float:
        years = max(0.0, min(5.0, (day - self.joined).days / 365.25))
        return self.strength0 + self.growth * years

    def active(self, day: dt.date) -> bool:
        return self.joined <= day and (self.left is None or day < self.left)


@dataclass(slots=True)
class SimDirector:
    username: str
    first_name: str
    last_name: str
    country: str


@dataclass(slots=True)
class SimTournament:
    index: int
    name: str
    city: str
    country: str
    start: dt.date
    end: dt.date
    time_control: str
    director: int  # index in World.directors


@dataclass(slots=True)
class SimTable:
    index: int
    tournament: int
    name: str
    date: dt.date
    sequence: int
    players: list[int]  # seat order
    complete: bool = True  # False: the last round is not entered yet (a draft in progress)
    draft: bool = False


@dataclass
class World:
    seed: int
    start: dt.date
    until: dt.date
    players: list[SimPlayer]
    directors: list[SimDirector]
    tournaments: list[SimTournament]
    tables: list[SimTable]


def default_tables_per_year(players: int) -> int:
    """About one table a year per ten players: each player then plays two or three tables a year."""
    return max(6, round(players / 10))


def world_build(*, players: int, years: int, tables_per_year: int, seed: int, until: dt.date) -> World:
    """The whole federation: players, directors, tournaments and tables (games come per table, ``table_games``).

    The period is the ``years`` before ``until``; the latest two tables are drafts (the last one with its last
    round still missing), so the admin has work in progress.
    """
    rng = random.Random(seed)
    start = until - dt.timedelta(days=round(365.25 * years))
    people = _players(rng, players, start, until)
    directors = _directors(rng)
    tournaments, tables = _calendar(rng, people, directors, years, tables_per_year, start, until)
    for table in tables[-2:]:
        table.draft = True
    if tables:
        tables[-1].complete = False
    return World(seed, start, until, people, directors, tournaments, tables)


def _pick(rng: random.Random, countries: Sequence[Country]) -> Country:
    return rng.choices(countries, weights=[c.weight for c in countries])[0]


def _players(rng: random.Random, count: int, start: dt.date, until: dt.date) -> list[SimPlayer]:
    span = (until - start).days
    professionals = min(6, max(1, count // 150))
    ids: set[str] = set()
    out: list[SimPlayer] = []
    for index in range(count):
        pro = index < professionals
        country = BY_CODE["JP"] if pro else _pick(rng, COUNTRIES)
        male = pro or rng.random() < 0.88
        given = rng.choice(country.male if male else country.female)
        family = rng.choice(country.family)
        if not male:
            family = feminine(country.code, family)
        residence = country.code
        if country.code == "JP" and not pro and rng.random() < 0.65:
            residence = _pick(rng, HOSTS).code  # most Japanese players of a European federation live here
        elif country.code != "JP" and rng.random() < 0.05:
            residence = _pick(rng, HOSTS).code
        founding = pro or rng.random() < 0.45
        joined = (
            start - dt.timedelta(days=rng.randint(0, 3 * 365))
            if founding
            else start + dt.timedelta(days=rng.randint(0, max(0, span - 60)))
        )
        left = None
        if not pro and rng.random() < 0.2:
            stop = joined + dt.timedelta(days=rng.randint(180, max(180, span)))
            left = stop if stop < until else None
        if pro:
            level = rng.randint(4, 9)
            strength = 2560 + 30 * level + rng.gauss(0, 40)
            growth = 0.0
        else:
            mean, spread = (1650, 380) if country.code == "JP" else (1250, 380) if founding else (850, 330)
            strength = min(2500.0, max(100.0, rng.gauss(mean, spread)))
            growth = max(0.0, rng.gauss(70, 45) if strength < 1400 else rng.gauss(15, 20))
        age = rng.randint(10, 70) if rng.random() < 0.9 else rng.randint(71, 85)
        player = SimPlayer(
            index=index,
            federation_id=_federation_id(rng, ids),
            family_name=family,
            given_name=given,
            nationality=country.code,
            residence=residence,
            date_of_birth=dt.date(joined.year - age, rng.randint(1, 12), rng.randint(1, 28)),
            strength0=strength,
            growth=growth,
            joined=joined,
            left=left,
            activity=0.4 if pro else min(12.0, max(0.3, rng.lognormvariate(math.log(2.5), 0.7))),
            travel=1.0 if pro else rng.random() ** 2,
            professional=pro,
        )
        if pro:
            player.prior = ("pro", level, "nsr", "JSA professional", joined - dt.timedelta(days=rng.randint(400, 9000)))
        elif rng.random() < (0.7 if country.code == "JP" else PRIOR_GRADE_SHARE):
            player.prior = _prior_grade(rng, country, strength, joined)
        out.append(player)
    return out


def _federation_id(rng: random.Random, taken: set[str]) -> str:
    while True:
        code = "".join(rng.choice(FEDERATION_ID_ALPHABET) for _ in range(8))
        if code not in taken:
            taken.add(code)
            return code


def grade_near(strength: float) -> int:
    """The grade (engine scale, 1 = 20 Kyu .. 26 = 6 Dan) whose band holds ``strength``."""
    grade = 1
    for g in range(1, 27):
        if lower_bound(g) <= strength:
            grade = g
    return grade


def _prior_grade(
    rng: random.Random, country: Country, strength: float, joined: dt.date
) -> tuple[str, int, str, str, dt.date]:
    """A grade from elsewhere near the player's strength, from the NSR or his national federation."""
    grade = grade_near(strength + rng.gauss(0, 70))
    kind, level = ("dan", grade - 20) if grade >= 21 else ("kyu", 21 - grade)
    nsr = country.code == "JP" or (kind == "dan" and rng.random() < 0.3)
    source, note = ("nsr", "JSA amateur diploma") if nsr else ("national", f"{country.adjective} federation grade")
    return kind, level, source, note, joined - dt.timedelta(days=rng.randint(30, 1500))


def ascii_slug(text: str) -> str:
    """Lower-case ASCII letters and digits of ``text`` ("Jörg Böhm" -> "jorgbohm")."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.lower() if ch.isalnum())


def _directors(rng: random.Random) -> list[SimDirector]:
    """Two tournament directors per host country, named like people there."""
    out: list[SimDirector] = []
    taken: set[str] = set()
    for country in HOSTS:
        for _ in range(2):
            given, family = rng.choice(country.male + country.female[:4]), rng.choice(country.family)
            username = f"{ascii_slug(given)}.{ascii_slug(family)}"
            while username in taken:
                username += str(rng.randint(0, 9))
            taken.add(username)
            out.append(SimDirector(username, given, family, country.code))
    return out


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


def _calendar(
    rng: random.Random,
    people: list[SimPlayer],
    directors: list[SimDirector],
    years: int,
    per_year: int,
    start: dt.date,
    until: dt.date,
) -> tuple[list[SimTournament], list[SimTable]]:
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
            plans.append(_Plan("european", _pick(rng, HOSTS), end, rng.randint(36, 60), 2))
            count += 2
        for country in by_weight[: per_year // 8]:
            plans.append(_Plan("national", country, _weekend(rng, low, high), rng.randint(12, 32), 1))
            count += 1
        while count < per_year:
            size = min(40, MIN_TABLE + int(rng.lognormvariate(2.0, 0.6)))
            tables = 2 if size >= 20 and rng.random() < 0.35 else 1
            plans.append(_Plan("local", _pick(rng, HOSTS), _weekend(rng, low, high), size, tables))
            count += tables
    plans.sort(key=lambda p: p.end)

    home: dict[str, tuple[list[int], list[float]]] = {}
    for country in HOSTS:
        members = [p.index for p in people if p.residence == country.code and not p.professional]
        home[country.code] = (members, _cumulative([people[i].activity for i in members]))
    amateurs = [p.index for p in people if not p.professional]
    abroad = (amateurs, _cumulative([people[i].activity * (0.05 + people[i].travel) for i in amateurs]))
    professionals = [p.index for p in people if p.professional]
    busy: dict[dt.date, set[int]] = defaultdict(set)

    tournaments: list[SimTournament] = []
    tables: list[SimTable] = []
    for plan in plans:
        begin = plan.end - dt.timedelta(days=1) if plan.size >= 24 and plan.end.weekday() == 6 else plan.end
        days = [begin, plan.end]

        def free(i: int, days: list[dt.date] = days) -> bool:
            return people[i].active(days[0]) and all(i not in busy[d] for d in days)

        foreign_share = {"european": 0.75, "national": 0.0, "local": rng.uniform(0.0, 0.15)}[plan.kind]
        visitors = round(plan.size * foreign_share)
        chosen = _draw(rng, *home[plan.country.code], plan.size - visitors, free, [])
        chosen = _draw(rng, *abroad, plan.size - len(chosen), free, chosen)
        if plan.kind != "local" and professionals and rng.random() < 0.3:
            chosen = _draw(rng, professionals, _cumulative([1.0] * len(professionals)), 1, free, chosen, tries=3)
        if len(chosen) < MIN_TABLE:
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
            groups = [("A group", seeded[:cut]), ("B group", seeded[cut:])]
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
