"""Age categories from a date of birth on a date (ratings/engine/age_categories.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine.age_categories import age_category, age_on, birth_range, parse_bands
from ratings.engine.errors import EngineError

BANDS = parse_bands(["S50", "U16", "S65", "U12", "U20"])
ON = dt.date(2026, 6, 15)


def test_parse_bands_orders_juniors_youngest_first_then_seniors_oldest_first() -> None:
    assert [b.code for b in BANDS] == ["U12", "U16", "U20", "S65", "S50"]


@pytest.mark.parametrize("codes", [["X12"], ["U0"], ["U12", "u12"], ["S"], ["U123"]])
def test_parse_bands_refuses_a_bad_or_doubled_code(codes: list[str]) -> None:
    with pytest.raises(EngineError):
        parse_bands(codes)


@pytest.mark.parametrize(
    ("birth", "expected"),
    [
        (dt.date(2014, 6, 16), "U12"),  # 11, turns 12 tomorrow
        (dt.date(2014, 6, 15), "U16"),  # 12 today
        (dt.date(2006, 6, 16), "U20"),
        (dt.date(2006, 6, 15), ""),  # 20 today: no junior band, not a senior
        (dt.date(1976, 6, 15), "S50"),
        (dt.date(1961, 6, 16), "S50"),  # 64
        (dt.date(1961, 6, 15), "S65"),
        (None, ""),
    ],
)
def test_age_category_is_the_narrowest_band(birth: dt.date | None, expected: str) -> None:
    assert age_category(birth, ON, BANDS) == expected


def test_a_29_february_birthday_comes_on_1_march() -> None:
    assert age_on(dt.date(2012, 2, 29), dt.date(2024, 2, 28)) == 11
    assert age_on(dt.date(2012, 2, 29), dt.date(2024, 2, 29)) == 12
    assert age_on(dt.date(2012, 2, 29), dt.date(2025, 2, 28)) == 12
    assert age_on(dt.date(2012, 2, 29), dt.date(2025, 3, 1)) == 13


@pytest.mark.parametrize("on", [dt.date(2024, 2, 29), dt.date(2025, 3, 1), ON])
@pytest.mark.parametrize("band", BANDS)
def test_birth_range_agrees_with_the_category_for_every_birthday_around_its_limit(on: dt.date, band: object) -> None:
    after, on_or_before = birth_range(band, on)  # type: ignore[arg-type]
    limit = after or on_or_before
    assert limit is not None
    for days in range(-3, 4):
        birth = limit + dt.timedelta(days=days)
        in_range = birth > after if after else birth <= on_or_before  # type: ignore[operator]
        age = age_on(birth, on)
        assert in_range == (age < band.age if band.junior else age >= band.age)  # type: ignore[attr-defined]
