"""all.txt, the public rating list, against the program's files."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine.types import PlayerState, PriorGrade, grade_of
from ratings.fesa_files.alltxt import all_txt_text, is_active, write_all_txt
from ratings.fesa_files.ratingliste import Home, ListRecord, read_ratingliste
from ratings.fesa_files.turnering import read_turnering

from .data import case_dir, case_names


@pytest.mark.parametrize("name", case_names())
def test_write_all_txt_from_the_expected_list_gives_the_programs_file(name: str) -> None:
    # Independent of the engine: the program's own ratingliste.post must give the program's all.txt.
    case = case_dir(name)
    records = read_ratingliste((case / "ratingliste.post").read_bytes())
    date = read_turnering((case / "turnering.txt").read_bytes()).date
    assert write_all_txt(records, date) == (case / "all.txt").read_bytes()


def _player(last: dt.date | None, prior: PriorGrade | None = None) -> ListRecord:
    return ListRecord("X", "Y", (Home("E", "FR", "FR", last),), PlayerState(last_played=last, prior_grade=prior))


@pytest.mark.parametrize(
    ("last", "active"),
    [
        (dt.date(2018, 6, 7), True),  # exactly two years before: within
        (dt.date(2018, 6, 6), False),
        (dt.date(2020, 6, 8), True),  # after the list's date: the program still lists him
        (None, False),
    ],
)
def test_is_active_two_years_back_inclusive(last: dt.date | None, active: bool) -> None:
    assert is_active(_player(last), dt.date(2020, 6, 7)) is active


def test_is_active_29_february_compares_as_the_program_does() -> None:
    # The program builds "2022-02-29" and compares text: 28 February 2022 is before it, 1 March after.
    assert not is_active(_player(dt.date(2022, 2, 28)), dt.date(2024, 2, 29))
    assert is_active(_player(dt.date(2022, 3, 1)), dt.date(2024, 2, 29))


def test_is_active_professionals_are_left_out() -> None:
    assert not is_active(_player(dt.date(2020, 1, 1), PriorGrade("pro", 1)), dt.date(2020, 6, 7))
    assert is_active(_player(dt.date(2020, 1, 1), PriorGrade("dan", 7)), dt.date(2020, 6, 7))


def test_all_txt_text_long_names_push_the_columns_and_there_is_no_final_newline() -> None:
    state = PlayerState(
        rating=1787, result_list=None, game_count=123, grade=grade_of(12, "Kyu"),
        prior_grade=PriorGrade("dan", 1), last_played=dt.date(2016, 1, 7),
    )  # fmt: skip
    record = ListRecord("Lopez de la Fuente", "Maria Guadalupe Jr", (Home("E", "ES", "ES"),), state)
    text = all_txt_text([record], dt.date(2016, 1, 7))
    # "~3d ~17a ~15a ~6 grade ~6 prior ~4d ~3d     nationality": ~17a pads and never cuts.
    assert text.split("\n")[3] == "  1 Lopez de la Fuente Maria Guadalupe Jr 12 Kyu  1 Dan 1787 123     ES"
    assert not text.endswith("\n")
    assert text.split("\n")[:3] == [
        "Elo list for 2016-01-07",
        "",
        "    Name                               Grades       Elo #games Nationality",
    ]


def test_write_all_txt_transliterates_names_outside_latin1_and_keeps_the_columns() -> None:
    state = PlayerState(rating=1500, last_played=dt.date(2016, 1, 7))
    records = [
        ListRecord("Œuvray", "Zieliński", (Home("E", "FR", "FR"),), state),
        ListRecord("Hébert", "Dvořák", (Home("E", "FR", "FR"),), state),
    ]
    lines = write_all_txt(records, dt.date(2016, 1, 7)).decode("iso-8859-1").split("\n")
    assert lines[3].startswith("  1 Oeuvray           Zielinski ")
    assert lines[4].startswith("  2 Hébert            Dvorák    ")
    assert lines[3].index("1500") == lines[4].index("1500")


def test_all_txt_text_lists_exactly_the_players_is_active_keeps() -> None:
    # all.txt lists the players is_active keeps, at every boundary of the two years and for a professional.
    lasts = [None, dt.date(2018, 6, 6), dt.date(2018, 6, 7), dt.date(2018, 6, 8), dt.date(2020, 6, 8)]
    priors = [None, PriorGrade("pro", 1), PriorGrade("dan", 2), PriorGrade("kyu", 3)]
    records = [
        ListRecord(f"P{i}", f"Q{j}", (Home("E", "FR", "FR", last),), PlayerState(last_played=last, prior_grade=prior))
        for i, last in enumerate(lasts)
        for j, prior in enumerate(priors)
    ]
    for date in (dt.date(2020, 6, 7), dt.date(2020, 6, 6), dt.date(2020, 6, 8)):
        listed = [row.split()[1:3] for row in all_txt_text(records, date).split("\n")[3:]]
        assert listed == [[r.last_name, r.first_name] for r in records if is_active(r, date)]
