"""The state list (ratingliste.pre/.post) and nye-spillere: reading, writing back, sorting."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine.types import PlayerState, PriorGrade, grade_of
from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.ratingliste import (
    Home,
    ListRecord,
    read_nye_spillere,
    read_ratingliste,
    sort_like_program,
    table_origin,
    write_ratingliste,
)
from ratings.fesa_files.slots import SlotError, as_date

from .data import case_dir, case_names

ISHIKAWA = (
    '#S(PLAYER :LAST-NAME "Ishikawa" :FIRST-NAME "Musashi" :NATIONALITY-LIST (#S(HOME :LIST #\\E '
    ':NATIONALITY "FR" :RESIDENS "FR" :LAST "2013-04-05")) :GRADE-LEVEL 0 :GRADE-NAME "" :NSR-GRADE-LEVEL 1 '
    ':NSR-GRADE-NAME "Dan" :ELO-NUMBER 1766 :GAMES ((1740 0 1) (1740 1 1) (1315 1 1) (400 1 1) (850 1 1)) '
    ':LAST-PLAYED "2013-04-05" :LB-COUNT NIL :MP-COUNT NIL :BONUS-COUNT 0)'
)


SLOTS = [
    "LAST-NAME", "FIRST-NAME", "NATIONALITY-LIST", "GRADE-LEVEL", "GRADE-NAME", "NSR-GRADE-LEVEL",
    "NSR-GRADE-NAME", "ELO-NUMBER", "GAMES", "LAST-PLAYED", "LB-COUNT", "MP-COUNT", "BONUS-COUNT",
]  # fmt: skip


def player(**slots: str) -> str:
    """ISHIKAWA with some slots' printed values replaced."""
    text = ISHIKAWA
    for key, value in slots.items():
        name = key.replace("_", "-").upper()
        start = text.index(f" :{name} ") + len(name) + 3
        following = SLOTS.index(name) + 1
        end = text.index(f" :{SLOTS[following]} ") if following < len(SLOTS) else len(text) - 1
        text = text[:start] + value + text[end:]
    return text


def test_read_ratingliste_maps_a_record_to_the_engine_state() -> None:
    (record,) = read_ratingliste("(" + ISHIKAWA + "\n\n)\n")
    assert record.name == ("Ishikawa", "Musashi")
    assert record.homes == (Home("E", "FR", "FR", dt.date(2013, 4, 5)),)
    assert record.state == PlayerState(
        rating=1766,
        result_list=((1740, 0.0), (1740, 1.0), (1315, 1.0), (400, 1.0), (850, 1.0)),
        prior_grade=PriorGrade("dan", 1),
        last_played=dt.date(2013, 4, 5),
    )
    assert record.line == 1


def test_read_ratingliste_counts_runs_grades_and_draws() -> None:
    text = player(
        grade_level="3", grade_name='"Kyu"', nsr_grade_level="2", nsr_grade_name='"Pro"',
        games="((1500 1/2 1))", lb_count="(:LB 4 T)", mp_count="(:MP 2)", bonus_count="17",
    )  # fmt: skip
    (record,) = read_ratingliste(f"({text}\n\n)\n")
    state = record.state
    assert (state.grade, state.prior_grade) == (grade_of(3, "Kyu"), PriorGrade("pro", 2))
    assert state.result_list == ((1500, 0.5),)
    assert (state.lb_run, state.lb_mp_seen, state.mp_run, state.bonus_count) == (4, True, 2, 17)


@pytest.mark.parametrize("name", case_names())
@pytest.mark.parametrize("which", ["ratingliste.pre", "ratingliste.post"])
def test_write_ratingliste_round_trip_gives_the_same_bytes(name: str, which: str) -> None:
    data = (case_dir(name) / which).read_bytes()
    assert write_ratingliste(read_ratingliste(data, which)) == data


@pytest.mark.parametrize("name", case_names())
def test_write_ratingliste_without_the_read_forms_prints_as_the_program(name: str) -> None:
    # Records made by the site carry no source structure: the canonical printer alone must match.
    data = (case_dir(name) / "ratingliste.post").read_bytes()
    bare = [
        r._replace(source=None, homes=tuple(h._replace(source=None) for h in r.homes))
        for r in read_ratingliste(data, "ratingliste.post")
    ]
    assert write_ratingliste(bare) == data


def test_write_ratingliste_keeps_an_unchanged_slot_spelled_as_read() -> None:
    text = "(" + player(last_played='""') + "\n\n)\n"
    (record,) = read_ratingliste(text)
    assert record.state.last_played is None
    assert write_ratingliste([record]) == text.encode("latin-1")
    later = record._replace(state=record.state._replace(last_played=dt.date(2016, 1, 7)))
    assert b':LAST-PLAYED "2016-01-07"' in write_ratingliste([later])


def test_read_ratingliste_month_only_date_is_the_months_end_and_written_back_as_read() -> None:
    text = "(" + player(last_played='"2005-02"') + "\n\n)\n"
    (record,) = read_ratingliste(text)
    assert record.state.last_played == dt.date(2005, 2, 28)
    assert write_ratingliste([record]) == text.encode("latin-1")


def test_write_ratingliste_empty_list() -> None:
    assert write_ratingliste([]) == b"(\n)\n"
    assert read_ratingliste(b"(\n)\n") == ()


def test_write_ratingliste_character_outside_latin1_is_transliterated() -> None:
    (record,) = read_ratingliste("(" + ISHIKAWA + "\n)\n")
    written = write_ratingliste([record._replace(first_name="Ernő", last_name="Dvořák")])
    (back,) = read_ratingliste(written)
    assert back.name == ("Dvorák", "Erno")


def test_read_ratingliste_duplicate_names_is_an_error_naming_both_lines() -> None:
    text = "(" + ISHIKAWA + "\n" + player(elo_number="1") + "\n" + ISHIKAWA + "\n)\n"
    with pytest.raises(FesaFileError) as caught:
        read_ratingliste(text, "ratingliste.pre")
    assert (caught.value.file, caught.value.line) == ("ratingliste.pre", 2)
    assert "duplicate player 'Ishikawa' 'Musashi' (also on line 1)" in str(caught.value)


@pytest.mark.parametrize(
    ("slots", "words"),
    [
        ({"elo_number": '"1766"'}, "ELO-NUMBER must be an integer"),
        ({"games": "((1740 2 1))"}, "a game result must be 0, 1/2 or 1"),
        ({"games": "((1740 1 2))"}, "a GAMES entry must be (rating result 1)"),
        ({"grade_level": "3", "grade_name": '"Pro"'}, "no such FESA grade: 3 'Pro'"),
        ({"nsr_grade_level": "0", "nsr_grade_name": '"Dan"'}, "no such prior grade"),
        ({"last_played": '"2013-13-05"'}, "LAST-PLAYED must be a date"),
        ({"last_played": '"20130405"'}, "LAST-PLAYED must be a date"),
        ({"lb_count": "(:MP 3)"}, "LB-COUNT must be NIL or (:LB n T|NIL)"),
        ({"nationality_list": '(#S(HOME :LIST "E"))'}, "HOME :LIST must be a character"),
    ],
)
def test_read_ratingliste_bad_slot_names_the_record_line(slots: dict[str, str], words: str) -> None:
    text = "(" + ISHIKAWA + "\n\n" + player(**slots) + "\n)\n"
    with pytest.raises(FesaFileError) as caught:
        read_ratingliste(text, "ratingliste.pre")
    assert caught.value.line == 3
    assert words in caught.value.message


def test_read_ratingliste_unknown_or_missing_slot_is_an_error() -> None:
    with pytest.raises(FesaFileError, match="line 1: PLAYER has unknown slot :RANK"):
        read_ratingliste("(" + ISHIKAWA[:-1] + " :RANK 3)\n)")
    with pytest.raises(FesaFileError, match="line 1: PLAYER lacks slot :BONUS-COUNT"):
        read_ratingliste("(" + ISHIKAWA.replace(" :BONUS-COUNT 0", "") + "\n)")


def test_read_nye_spillere_newcomer_has_no_grade_and_the_prior_grade() -> None:
    text = '(\n("N55" "" (#S(HOME :list #\\E :nationality "JP" :residens "JP")) 3 "Kyu" 0 0 nil)\n)\n'
    (record,) = read_nye_spillere(text)
    assert record.name == ("N55", "")
    assert record.homes == (Home("E", "JP", "JP", None),)
    assert record.state == PlayerState(prior_grade=PriorGrade("kyu", 3))
    assert record.line == 2
    # Printed as the program prints a new player who has not played yet (as in the synthetic lists).
    assert write_ratingliste([record]) == (
        b'(#S(PLAYER :LAST-NAME "N55" :FIRST-NAME "" :NATIONALITY-LIST (#S(HOME :LIST #\\E :NATIONALITY "JP" '
        b':RESIDENS "JP" :LAST NIL)) :GRADE-LEVEL 0 :GRADE-NAME "" :NSR-GRADE-LEVEL 3 :NSR-GRADE-NAME "Kyu" '
        b":ELO-NUMBER 0 :GAMES 0 :LAST-PLAYED NIL :LB-COUNT NIL :MP-COUNT NIL :BONUS-COUNT 0)\n\n)\n"
    )


def test_read_nye_spillere_optional_runs_are_read() -> None:
    text = '(("A" "B" NIL 0 "" 1500 20 "2015-01-01" (:LB 2 NIL) (:MP 1)))'
    (record,) = read_nye_spillere(text)
    assert (record.state.rating, record.state.game_count, record.state.lb_run, record.state.mp_run) == (1500, 20, 2, 1)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('(\n("A" "B" NIL 0 "")\n)', 2, "a new player must be"),
        ('(\n("A" "B" NIL 0 "Kyu" 0 0 nil)\n)', 2, "no such prior grade"),
        ('(\n("A" "B" NIL 0 "" 0 0 nil)\n("A" "B" NIL 0 "" 0 0 nil))', 3, "duplicate player 'A' 'B'"),
        ('(("A" "B" NIL 0 "" 0 0 nil))\n(special-promotion "A" "B" 1 "Dan")', 2, "text after the end"),
    ],
)
def test_read_nye_spillere_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(FesaFileError) as caught:
        read_nye_spillere(text)
    assert (caught.value.file, caught.value.line) == ("nye-spillere", line)
    assert words in caught.value.message


def _record(last: str, rating: int) -> ListRecord:
    return ListRecord(last, "", (), PlayerState(rating=rating))


def test_sort_like_program_is_stable_with_newcomers_first() -> None:
    # Equal ratings keep their order, new players before the list's players (synthetic-case-008 shows
    # a newcomer rated 1 ahead of a listed player rated 1 who comes first in the table).
    listed = [_record("a", 1500), _record("b", 1), _record("c", 1600), _record("d", 1)]
    newcomers = [_record("n1", 1), _record("n2", 1600)]
    assert [r.last_name for r in sort_like_program(newcomers, listed)] == ["n2", "c", "a", "n1", "b", "d"]


def test_played_updates_the_home_of_the_table_list_or_adds_one_in_front() -> None:
    day = dt.date(2020, 5, 1)
    european = Home("E", "FR", "FR", dt.date(2019, 1, 1))
    american = Home("A", "US", "US", None)
    record = ListRecord("x", "y", (american, european), PlayerState())
    assert record.played(day, "E").homes == (american, european._replace(last=day))
    only_american = ListRecord("x", "y", (american,), PlayerState())
    assert only_american.played(day, "E").homes == (Home("E", "US", "US", day), american)


def test_table_origin_is_american_only_for_a_majority_of_american_homes() -> None:
    e, a = Home("E", "FR", "FR"), Home("A", "US", "US")
    assert table_origin([ListRecord("1", "", (a,), PlayerState()), ListRecord("2", "", (e,), PlayerState())]) == "E"
    assert table_origin([ListRecord("1", "", (a,), PlayerState()), ListRecord("2", "", (a, e), PlayerState())]) == "A"


def test_list_nationality_prefers_the_american_home_and_result_table_the_first() -> None:
    record = ListRecord("x", "y", (Home("E", "FR", "FR"), Home("A", "US", "US")), PlayerState())
    assert (record.list_nationality(), record.home_nationality()) == ("US", "FR")


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("2004-02", dt.date(2004, 2, 29)),
        ("1900-02", dt.date(1900, 2, 28)),
        ("2000-02", dt.date(2000, 2, 29)),
        ("2005-04", dt.date(2005, 4, 30)),
        ("2005-12", dt.date(2005, 12, 31)),
    ],
)
def test_month_only_date_is_the_last_day_of_that_month(text: str, day: dt.date) -> None:
    assert as_date(text, "LAST-PLAYED") == day


@pytest.mark.parametrize("text", ["2005-00", "2005-13", "0000-01", "2005-02-30"])
def test_date_slot_that_is_no_day_is_refused(text: str) -> None:
    with pytest.raises(SlotError, match="must be a date"):
        as_date(text, "LAST-PLAYED")
