"""The direct printing of a list record (ratings/fesa_files/slots.py ``record_line``) and the played record of a
line in the program's spelling (ratings/fesa_files/spelling.py ``played``) against the general path: the
record's structure (``record_struct``) printed by the Lisp printer, after :func:`with_source`.

Every record of the 52 reference lists is played with changed states drawn by hypothesis (each slot kept or
changed, to the values a slot may take in either spelling), so every way a slot keeps its old text is met.
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine.types import NO_GRADE, PlayerState, PriorGrade
from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.lisp import print_form
from ratings.fesa_files.ratingliste import read_ratingliste, record_struct, with_source, write_ratingliste
from ratings.fesa_files.records import Home, ListRecord
from ratings.fesa_files.slots import record_line
from ratings.fesa_files.spelling import played, read_spelled

from .data import case_dir, case_names
from .test_spelling import spelled_lines


@cache
def _reference_records() -> tuple[tuple[ListRecord, ListRecord], ...]:
    """(read by its line, read by the general reader) for every record of every reference list."""
    pairs: list[tuple[ListRecord, ListRecord]] = []
    for name in case_names():
        for which in ("ratingliste.pre", "ratingliste.post"):
            text = (case_dir(name) / which).read_bytes().decode("latin-1")
            fast = read_spelled(text, which)
            assert fast is not None
            pairs.extend(zip(fast, read_ratingliste(text, which), strict=True))
    return tuple(pairs)


_DAYS = st.dates(dt.date(1990, 1, 1), dt.date(2030, 12, 31))
_DATES = st.one_of(st.none(), _DAYS)
_RESULTS = st.lists(st.tuples(st.integers(0, 3000), st.sampled_from([0.0, 0.5, 1.0])), max_size=6).map(tuple)


@st.composite
def _changed(draw: st.DrawFn, state: PlayerState) -> PlayerState:
    """``state`` with some of its slots changed (each one kept about half the time)."""

    def maybe(value: Any, other: st.SearchStrategy[Any]) -> Any:
        return value if draw(st.booleans()) else draw(other)

    results = state.result_list
    return state._replace(
        rating=maybe(state.rating, st.integers(1, 3000)),
        result_list=maybe(
            results,
            st.one_of(
                st.none(),
                st.just(()),
                _RESULTS,
                st.just(None if results is None else (*results, (1500, 0.5))),
                st.just(None if not results else tuple([(r + 1, s) for r, s in results])),
            ),
        ),
        game_count=maybe(state.game_count, st.one_of(st.just(0), st.integers(0, 300))),
        bonus_count=maybe(state.bonus_count, st.integers(0, 5)),
        grade=maybe(state.grade, st.sampled_from([NO_GRADE, 1, 10, 20, 21, 23, 27])),
        prior_grade=maybe(
            state.prior_grade,
            st.one_of(st.none(), st.builds(PriorGrade, st.sampled_from(["kyu", "dan", "pro"]), st.integers(1, 9))),
        ),
        lb_run=maybe(state.lb_run, st.integers(0, 4)),
        lb_mp_seen=maybe(state.lb_mp_seen, st.booleans()),
        mp_run=maybe(state.mp_run, st.integers(0, 4)),
        last_played=maybe(state.last_played, _DATES),
    )


def _assert_played_alike(fast: ListRecord, slow: ListRecord, date: dt.date, origin: str, state: PlayerState) -> None:
    quick = played(fast, date, origin, state)
    general = with_source(fast).played(date, origin, state)
    assert quick == general == slow.played(date, origin, state)
    assert (
        quick.text == print_form(record_struct(general)) == print_form(record_struct(slow.played(date, origin, state)))
    )
    assert write_ratingliste([quick]) == write_ratingliste([general])


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_a_played_line_is_written_as_the_general_path_writes_it(data: st.DataObject) -> None:
    fast, slow = data.draw(st.sampled_from(_reference_records()))
    state = data.draw(_changed(slow.state))
    date = data.draw(st.one_of(st.sampled_from([slow.state.last_played or dt.date(2016, 1, 7)]), _DAYS))
    _assert_played_alike(fast, slow, date, data.draw(st.sampled_from("EA")), state)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_a_generated_line_played_is_written_as_the_general_path_writes_it(data: st.DataObject) -> None:
    # The generated lines hold the spellings the reference lists lack: :GAMES NIL, :LAST-PLAYED "" or 0,
    # months, (:MP 0), HOMEs without a date.
    text = "(" + data.draw(spelled_lines()) + "\n\n)\n"
    try:
        (slow,) = read_ratingliste(text)
    except FesaFileError:
        return
    fast = read_spelled(text, "ratingliste.pre")
    assert fast is not None
    state = data.draw(_changed(slow.state))
    date = data.draw(_DAYS)
    _assert_played_alike(fast[0], slow, date, data.draw(st.sampled_from("EA")), state)


@pytest.mark.parametrize("origin", ["E", "A"])
def test_every_reference_record_played_unchanged_keeps_its_line(origin: str) -> None:
    for fast, slow in _reference_records():
        date = slow.state.last_played or dt.date(2016, 1, 7)
        _assert_played_alike(fast, slow, date, origin, slow.state)


def test_a_record_not_read_by_its_line_is_played_as_it_is() -> None:
    fast, slow = _reference_records()[0]
    date = dt.date(2030, 1, 1)
    assert played(slow, date, "E", slow.state).source is slow.source
    assert played(fast._replace(text=None), date, "E", slow.state).text is None


def test_record_line_is_the_printed_structure_for_every_reference_record() -> None:
    for _, slow in _reference_records():
        bare_homes = tuple(h._replace(source=None) for h in slow.homes)
        for record in (
            slow._replace(source=None),  # HOMEs with the forms they were read from
            slow._replace(source=None, homes=bare_homes),
            slow,
        ):
            assert record_line(record) == print_form(record_struct(record))


def test_record_line_keeps_a_home_read_in_another_spelling() -> None:
    (record,) = read_ratingliste(
        '(#S(PLAYER :LAST-NAME "A" :FIRST-NAME "B" :NATIONALITY-LIST (#S(HOME :LIST #\\E :LAST "" :NATIONALITY "FR"))'
        ' :GRADE-LEVEL 0 :GRADE-NAME "" :NSR-GRADE-LEVEL 0 :NSR-GRADE-NAME "" :ELO-NUMBER 1500 :GAMES NIL'
        " :LAST-PLAYED NIL :LB-COUNT NIL :MP-COUNT NIL :BONUS-COUNT 0)\n)\n"
    )
    bare = record._replace(source=None)
    assert record_line(bare) == print_form(record_struct(bare))
    assert ':RESIDENS "" :LAST "")' in record_line(bare)  # the program's order, the old :LAST kept
    moved = bare._replace(homes=(Home("E", "FR", "", dt.date(2020, 1, 2), record.homes[0].source),))
    assert record_line(moved) == print_form(record_struct(moved))


def test_record_line_refuses_a_result_the_printer_refuses() -> None:
    _, slow = _reference_records()[0]
    broken = slow._replace(source=None, state=slow.state._replace(result_list=((1500, 0.25),)))
    with pytest.raises(ValueError, match="0, 1/2 or 1"):
        record_struct(broken)
    with pytest.raises(ValueError, match="0, 1/2 or 1"):
        record_line(broken)
