"""The demo federation's values before they reach the database: plain dataclasses, no Django."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ratings.engine import PlayerState


@dataclass(frozen=True, slots=True)
class Knobs:
    """What may differ from the site's demo federation; the defaults are the demo.

    The page-load benchmark's harsher federation ends most careers (so that much of the list is inactive) and
    has no grade officer approving Dan grades (so that every Dan promotion waits); the re-rating benchmark wants
    every table rated, so no drafts.
    """

    careers_end: float = 0.2  # share of the players (professionals aside) who stop playing during the period
    drafts: int = 2  # the latest tables left as drafts, the very last one without its last round
    dan_approvals: bool = True  # the grade officer approves the older Dan promotions (build.demo_build)

    def __post_init__(self) -> None:
        if not 0.0 <= self.careers_end <= 1.0 or self.drafts < 0:
            raise ValueError(f"knobs out of range: {self}")


@dataclass(slots=True)
class SimPlayer:
    index: int
    federation_id: str
    family_name: str
    given_name: str
    nationality: str
    residence: str
    date_of_birth: dt.date
    strength0: float  # hidden: what results are drawn from
    growth: float  # points per year for the first five years
    joined: dt.date
    left: dt.date | None
    activity: float  # relative weight of taking part in a tournament
    travel: float  # relative weight of going abroad
    professional: bool = False
    prior: tuple[str, int, str, str, dt.date] | None = None  # kind, level, source, note, date
    opening: PlayerState | None = None  # his state on the FESA list the site started from, if he was on it

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


@dataclass(frozen=True, slots=True)
class SimGame:
    round: int
    first: int
    second: int | None
    result: str  # a ratings.models.GameResult value
    handicap: str = ""
    giver: str = ""  # "first" / "second"
    played: bool = True
    replay_draw: bool = False


@dataclass
class World:
    seed: int
    start: dt.date
    until: dt.date
    players: list[SimPlayer]
    directors: list[SimDirector]
    tournaments: list[SimTournament]
    tables: list[SimTable]
