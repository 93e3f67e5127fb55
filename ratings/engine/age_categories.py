"""Age categories: juniors under an age, seniors from an age (as FIDE publishes its top lists by them).

A category is a code: ``U12`` (under 12), ``S65`` (65 and over). The federation chooses its bands
(``AGE_CATEGORIES`` in the settings, e.g. ``U12,U16,U20,S50,S65``). A player's age is counted on the date of
the list asked for, in whole years from his date of birth. A junior band holds every younger player (an
under-12 is also under 16), a senior band every older one; a player's own category is the narrowest band he is
in. Only the category is ever published, never the date of birth (docs/privacy.md).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import NamedTuple

from .errors import EngineError

_CODE = re.compile(r"^([US])([1-9][0-9]?)$")


class AgeBand(NamedTuple):
    """``junior`` True: younger than ``age``; False: ``age`` or older."""

    code: str
    junior: bool
    age: int


def parse_bands(codes: list[str] | tuple[str, ...]) -> tuple[AgeBand, ...]:
    """The bands named by ``codes`` (``U12``, ``S65``), juniors youngest first, then seniors oldest first."""
    bands: list[AgeBand] = []
    for code in codes:
        match = _CODE.match(code.strip().upper())
        if match is None:
            raise EngineError(f"age category {code!r}: expected U<age> (under) or S<age> (that age and over)")
        bands.append(AgeBand(match.group(0), match.group(1) == "U", int(match.group(2))))
    if len({band.code for band in bands}) != len(bands):
        raise EngineError("an age category is named twice")
    juniors = sorted((band for band in bands if band.junior), key=lambda band: band.age)
    seniors = sorted((band for band in bands if not band.junior), key=lambda band: -band.age)
    return (*juniors, *seniors)


def age_on(birth: dt.date, on: dt.date) -> int:
    """Whole years from ``birth`` to ``on``; a 29 February birthday comes on 1 March in other years."""
    years = on.year - birth.year
    if (on.month, on.day) < (birth.month, birth.day):
        years -= 1
    return years


def age_category(birth: dt.date | None, on: dt.date, bands: tuple[AgeBand, ...]) -> str:
    """The narrowest band ``birth`` falls in on ``on``: its code, or "" (no date of birth, or no band)."""
    if birth is None:
        return ""
    age = age_on(birth, on)
    for band in bands:  # youngest juniors first, oldest seniors first: the first that holds is the narrowest
        if (age < band.age) if band.junior else (age >= band.age):
            return band.code
    return ""


def birth_range(band: AgeBand, on: dt.date) -> tuple[dt.date | None, dt.date | None]:
    """The dates of birth in ``band`` on ``on``, as (after, on_or_before): a junior was born after the first (the
    second None); a senior on or before the second (the first None). A query reads it on the date column."""
    limit = _years_before(on, band.age)
    return (limit, None) if band.junior else (None, limit)


def _years_before(on: dt.date, years: int) -> dt.date:
    try:
        return on.replace(year=on.year - years)
    except ValueError:  # 29 February: whoever was born on 1 March that year turns ``years`` on 1 March
        return dt.date(on.year - years, 2, 28)
