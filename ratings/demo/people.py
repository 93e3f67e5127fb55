"""The demo federation's people: players with a hidden strength, and the tournament directors.

Some players were already on the FESA list the site started from (an opening state: established or provisional,
with a rating and a grade near their strength); the others join during the period as newcomers, about 30% of
them with a prior grade near their strength (Japanese players mostly with one, from the NSR). Most Japanese
players live in Europe. A few professionals, who only come to the big events, bring their professional grade.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import unicodedata
from collections.abc import Sequence

from ratings.engine import PlayerState
from ratings.engine.constants import lower_bound
from ratings.engine.grades import TOP_AWARDED_GRADE, grade_parts

from .names import BY_CODE, COUNTRIES, Country, feminine
from .sim import SimDirector, SimPlayer

# As ratings.models.new_federation_id (no 0/O or 1/I); repeated here to keep this module free of Django.
FEDERATION_ID_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
HOSTS: tuple[Country, ...] = tuple(c for c in COUNTRIES if c.hosts)
LISTED_SHARE = 0.45  # players already on the list the site started from
PRIOR_GRADE_SHARE = 0.25  # among European newcomers; Japanese ones mostly bring a grade (0.7)


def pick_country(rng: random.Random, countries: Sequence[Country]) -> Country:
    return rng.choices(countries, weights=[c.weight for c in countries])[0]


def players_invent(
    rng: random.Random, count: int, start: dt.date, until: dt.date, *, careers_end: float
) -> list[SimPlayer]:
    """``count`` players, the professionals first; ``start``..``until`` is the period of the tournaments.

    A share ``careers_end`` of the amateurs stops playing some time after joining (when that falls before
    ``until``): their ``left`` date keeps them out of every later tournament.
    """
    span = (until - start).days
    professionals = min(6, max(1, count // 150))
    ids: set[str] = set()
    out: list[SimPlayer] = []
    for index in range(count):
        pro = index < professionals
        country = BY_CODE["JP"] if pro else pick_country(rng, COUNTRIES)
        male = pro or rng.random() < 0.88
        given = rng.choice(country.male if male else country.female)
        family = rng.choice(country.family)
        if not male:
            family = feminine(country.code, family)
        residence = country.code
        if (country.code == "JP" and not pro and rng.random() < 0.65) or (country.code != "JP" and rng.random() < 0.05):
            residence = pick_country(rng, HOSTS).code
        listed = not pro and rng.random() < LISTED_SHARE
        joined = (
            start - dt.timedelta(days=rng.randint(300, 3 * 365))
            if listed
            else start + dt.timedelta(days=rng.randint(0, max(0, span - 60)))
        )
        left = None
        if not pro and rng.random() < careers_end:
            stop = max(start, joined) + dt.timedelta(days=rng.randint(180, max(180, span)))
            left = stop if stop < until else None
        if pro:
            level = rng.randint(4, 9)
            strength = 2560 + 30 * level + rng.gauss(0, 40)
            growth = 0.0
        else:
            mean, spread = (1650, 380) if country.code == "JP" else (1250, 380) if listed else (850, 330)
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
        if listed:
            player.opening = _opening_state(rng, player.strength(start), start)
        elif pro:
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
    for g in range(1, TOP_AWARDED_GRADE + 1):
        if lower_bound(g) <= strength:
            grade = g
    return grade


def _opening_state(rng: random.Random, strength: float, start: dt.date) -> PlayerState:
    """A listed player's state: rated normally for a while, the rating near his strength, a grade a bit below."""
    rating = max(1, round(strength + rng.gauss(0, 80)))
    games = rng.randint(9, 40) if rng.random() < 0.3 else rng.randint(41, 400)
    return PlayerState(
        rating=rating,
        result_list=None,
        game_count=games,
        bonus_count=min(100, games),
        grade=grade_near(rating - 60),
        last_played=start - dt.timedelta(days=rng.randint(7, 300)),
    )


def _prior_grade(
    rng: random.Random, country: Country, strength: float, joined: dt.date
) -> tuple[str, int, str, str, dt.date]:
    """A grade from elsewhere near the player's strength, from the NSR or his national federation."""
    grade = grade_near(strength + rng.gauss(0, 70))
    parts = grade_parts(grade)
    assert parts is not None, "grade_near never gives no grade"
    level, kind = parts[0], parts[1].lower()
    nsr = country.code == "JP" or (kind == "dan" and rng.random() < 0.3)
    source, note = ("nsr", "JSA amateur diploma") if nsr else ("national", f"{country.adjective} federation grade")
    return kind, level, source, note, joined - dt.timedelta(days=rng.randint(30, 1500))


def ascii_slug(text: str) -> str:
    """Lower-case ASCII letters and digits of ``text`` ("Jörg Böhm" -> "jorgbohm")."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.lower() if ch.isalnum())


def directors_invent(rng: random.Random) -> list[SimDirector]:
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
