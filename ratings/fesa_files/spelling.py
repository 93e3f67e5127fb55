"""The state list's records that are already in the program's spelling: read by one regular expression
each, and written back as the text they were read from while they are unchanged.

The program prints a record on one line, every slot in its order, in one spelling. A line that matches
:data:`RECORD` exactly is text that printing the record back gives unchanged (tests/fesa/test_spelling.py
checks it on every record of the reference cases and on generated ones): single spaces, upper-case keys
and symbols, strings without a backslash or quote to escape, integers without a sign or leading zeros,
results ``0``, ``1`` or ``1/2``, grade names as the program writes them, and no ``(:LB 0 …)`` (written
back as ``NIL``). Most of a run's list is players who did not play, so most of it is copied, not rebuilt.

A file with any other line (a comment, a record over several lines, another spelling, a value the slots
refuse) is left whole to the general reader (ratings/fesa_files/ratingliste.py), so what is accepted and
the messages are the general reader's.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from functools import lru_cache

from ratings.engine.types import PlayerState, PriorGrade

from .lisp import HALF, NIL, Char, Form, Struct, Symbol
from .names import first_refused
from .records import Home, ListRecord
from .slots import SlotError, as_date, as_grade, as_prior, record_line

_INT = r"0|-?[1-9][0-9]{0,8}"  # as printed: no sign but "-", no leading zero, at most nine digits
_STRING = r'"([^"\\\n]*)"'  # printed as it is: nothing to escape, on one line
_DATE = r'NIL|""|0|"[0-9]{4}-[0-9]{2}(?:-[0-9]{2})?"'


def _home(g: str) -> str:
    """A HOME; ``g`` opens its groups: ``(`` to capture, ``(?:`` to repeat it inside another pattern."""
    return rf'#S\(HOME :LIST #\\{g}[A-Za-z]) :NATIONALITY "{g}[^"\\\n]*)" :RESIDENS "{g}[^"\\\n]*)" :LAST {g}{_DATE})\)'


def _game(g: str) -> str:
    return rf"\({g}{_INT}) {g}0|1|1/2) 1\)"


_HOMES = re.compile(_home("("))
RECORD = re.compile(
    rf"#S\(PLAYER :LAST-NAME {_STRING} :FIRST-NAME {_STRING}"
    rf" :NATIONALITY-LIST (NIL|\({_home('(?:')}(?: {_home('(?:')})*\))"
    rf' :GRADE-LEVEL ({_INT}) :GRADE-NAME "(Dan|Kyu|)"'
    rf' :NSR-GRADE-LEVEL ({_INT}) :NSR-GRADE-NAME "(Dan|Kyu|Pro|)" :ELO-NUMBER ({_INT})'
    rf" :GAMES (NIL|{_INT}|\({_game('(?:')}(?: {_game('(?:')})*\))"
    rf" :LAST-PLAYED ({_DATE}) :LB-COUNT (NIL|\(:LB -?[1-9][0-9]{{0,8}} (?:T|NIL)\))"
    rf" :MP-COUNT (NIL|\(:MP (?:{_INT})\)) :BONUS-COUNT ({_INT})\)"
)
"""One record as the program prints it; groups: the names, the HOME list, grade level and name, prior
grade level and name, rating, GAMES, LAST-PLAYED, LB-COUNT, MP-COUNT and BONUS-COUNT, as text."""

_SCORES = {"0": 0.0, "1": 1.0, "1/2": 0.5}
_LB = Symbol("LB", keyword=True)
_MP = Symbol("MP", keyword=True)
_T = Symbol("T")


def _date(text: str) -> Form:
    return NIL if text == "NIL" else 0 if text == "0" else text[1:-1]


def _games(text: str) -> Form:
    if text[0] == "(":
        return [[int(rating), HALF if result == "1/2" else int(result), 1] for rating, result, _ in _game_texts(text)]
    return NIL if text == "NIL" else int(text)


def _game_texts(text: str) -> list[list[str]]:
    """The rating, result and ``1`` of each game of a GAMES result list :data:`RECORD` matched,
    ``((1740 1/2 1) (1800 0 1))``: games are separated by ``) (`` and their texts by single spaces."""
    return [game.split(" ") for game in text[2:-2].split(") (")]


def _run(text: str, keyword: Symbol) -> Form:
    if text == "NIL":
        return NIL
    _, count, *seen = text[1:-1].split(" ")
    return [keyword, int(count), *(_T if s == "T" else NIL for s in seen)]


def _homes(text: str) -> tuple[Home, ...]:
    return tuple(
        [Home(code, nationality, residens, _day(last)) for code, nationality, residens, last in _HOMES.findall(text)]
    )


# The values of a line are read straight into the engine's state, as as_state reads the forms the general
# reader makes of them (tests/fesa/test_spelling.py compares the two on every reference record and on
# generated lines). Dates and grades repeat all over a list: they are read once each (the values are
# immutable, so records share them).


@lru_cache(maxsize=4096)
def _day(text: str) -> dt.date | None:
    return as_date(_date(text), "a date")


@lru_cache(maxsize=256)
def _grade(level: str, unit: str) -> int:
    return as_grade(int(level), unit)


@lru_cache(maxsize=256)
def _prior(level: str, unit: str) -> PriorGrade | None:
    return as_prior(int(level), unit)


def _results(text: str) -> tuple[tuple[tuple[int, float], ...] | None, int]:
    """(result list, game count) of a GAMES text, as slots._games reads its form."""
    if text[0] == "(":
        return tuple([(int(rating), _SCORES[result]) for rating, result, _ in _game_texts(text)]), 0
    count = 0 if text == "NIL" else int(text)
    if count < 0:
        raise SlotError(f"GAMES must not be negative, not {count}")
    return ((), 0) if count == 0 else (None, count)


def _record(match: re.Match[str], text: str, line: int, file: str) -> ListRecord:
    last, first, homes, level, unit, nsr_level, nsr_unit, elo, games, played, lb, mp, bonus = match.groups()
    if first_refused(last) or first_refused(first):
        raise SlotError("a name the general reader refuses, naming it")
    result_list, game_count = _results(games)
    lb_run, lb_seen = 0, False
    if lb != "NIL":
        _, run, seen = lb[1:-1].split(" ")  # (:LB n T|NIL)
        lb_run, lb_seen = int(run), seen == "T"
    state = PlayerState(
        rating=int(elo),
        result_list=result_list,
        game_count=game_count,
        bonus_count=int(bonus),
        grade=_grade(level, unit),
        prior_grade=_prior(nsr_level, nsr_unit),
        lb_run=lb_run,
        lb_mp_seen=lb_seen,
        mp_run=0 if mp == "NIL" else int(mp[5:-1]),  # (:MP n)
        last_played=_day(played),
    )
    return ListRecord(last, first, _homes(homes), state, line, file, None, text)


def with_source(record: ListRecord) -> ListRecord:
    """``record`` with the structures it was read from (its own and its HOMEs'), for a record read with
    only its text: writing a changed record keeps the spelling of its unchanged slots from them. The
    structures are those the general reader makes of the same text."""
    match = RECORD.fullmatch(record.text) if record.source is None and record.text is not None else None
    if match is None:
        return record
    last, first, homes_text, level, unit, nsr_level, nsr_unit, elo, games, played, lb, mp, bonus = match.groups()
    homes: list[Home] = []
    home_forms: list[Form] = []
    for home, found in zip(record.homes, _HOMES.findall(homes_text), strict=True):
        home_form = _home_source(*found)
        home_forms.append(home_form)
        homes.append(Home(home.list, home.nationality, home.residens, home.last, home_form))
    source = Struct(
        "PLAYER",
        (
            ("LAST-NAME", last),
            ("FIRST-NAME", first),
            ("NATIONALITY-LIST", home_forms or NIL),
            ("GRADE-LEVEL", int(level)),
            ("GRADE-NAME", unit),
            ("NSR-GRADE-LEVEL", int(nsr_level)),
            ("NSR-GRADE-NAME", nsr_unit),
            ("ELO-NUMBER", int(elo)),
            ("GAMES", _games(games)),
            ("LAST-PLAYED", _date(played)),
            ("LB-COUNT", _run(lb, _LB)),
            ("MP-COUNT", _run(mp, _MP)),
            ("BONUS-COUNT", int(bonus)),
        ),
    )
    return ListRecord(last, first, tuple(homes), record.state, record.line, record.file, source, record.text)


def played(record: ListRecord, date: dt.date, origin: str, state: PlayerState) -> ListRecord:
    """``with_source(record).played(date, origin, state)`` (:meth:`ListRecord.played`), with the line
    :func:`~.ratingliste.write_ratingliste` writes for it as its ``text``, for a record read by its line.

    The line is printed directly (:func:`~.slots.record_line`), keeping the old line's text of every slot
    the table left unchanged, instead of through the structures :func:`with_source` makes: a run does it
    for every player of its table. Only a HOME whose date is spelled ``""``, ``0`` or as a month gets its
    structure, to keep that spelling while the date is unchanged; any other prints as it was read.
    Any other record is played as it is.
    """
    match = RECORD.fullmatch(record.text) if record.source is None and record.text is not None else None
    if match is None:
        return record.played(date, origin, state)
    groups = match.groups()
    found = _HOMES.findall(groups[2])
    if not all(last == "NIL" or len(last) == 12 for *_, last in found):  # NIL or "YYYY-MM-DD"
        homes = tuple(
            Home(home.list, home.nationality, home.residens, home.last, _home_source(*spelled))
            for home, spelled in zip(record.homes, found, strict=True)
        )
        record = ListRecord(record.last_name, record.first_name, homes, record.state, record.line, record.file)
    after = record.played(date, origin, state)
    line = record_line(after, (record.state, (groups[8], groups[9], groups[11])))  # GAMES, LAST-PLAYED, MP-COUNT
    return ListRecord(after.last_name, after.first_name, after.homes, after.state, after.line, after.file, None, line)


def _home_source(code: str, nationality: str, residens: str, last: str) -> Struct:
    """The structure the general reader makes of a HOME of the program's spelling."""
    return Struct(
        "HOME", (("LIST", Char(code)), ("NATIONALITY", nationality), ("RESIDENS", residens), ("LAST", _date(last)))
    )


def read_spelled(
    text: str, file: str, general: Callable[[str, int], tuple[ListRecord, ...] | None] | None = None
) -> tuple[ListRecord, ...] | None:
    """The records of a list file whose records are lines in the program's spelling, each keeping that line
    as its ``text``; None for any other file (or a value the slots refuse), to be read by the general reader.

    With ``general``, a run of lines not in the spelling (a hand-edited record, a comment) is handed to it:
    the run's text as a list of its own, and the number of lines before it, to count its records' lines
    from. It answers the run's records, or None when the run cannot be read alone (a form that goes on past
    it, a mistake), and the whole file is then the general reader's, messages included. So one odd line
    does not send a list of thousands of records to the general reader, ten times slower a record.
    """
    if not text.startswith("("):
        return None
    lines = text[1:].split("\n")
    records: list[ListRecord] = []
    match = RECORD.fullmatch
    index = 0
    try:
        while index < len(lines):
            line = lines[index]
            found = match(line)
            if found is not None:
                index += 1
                records.append(_record(found, line, index, file))
                continue
            end = index + 1
            while end < len(lines) and match(lines[end]) is None:
                end += 1
            run = "\n".join(lines[index:end])
            if end == len(lines):  # the run ends the file, so it must close the list
                if run.strip(" \t\r\n\f") == ")":  # blanks and the list's end
                    return tuple(records)
                rest = None if general is None else general("(" + run, index)
                return None if rest is None else (*records, *rest)
            more = None if general is None else general("(" + run + "\n)", index)
            if more is None:
                return None
            records.extend(more)
            index = end
    except SlotError:
        return None
    return None  # no closing parenthesis
