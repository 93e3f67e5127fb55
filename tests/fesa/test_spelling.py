"""The state list read line by line where it is in the program's spelling (ratings/fesa_files/spelling.py).

Writing an unchanged record back as the line it was read from is right only if that line is what printing
the record gives: checked here on every record of the reference lists and on lines generated from the
pattern itself.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.lisp import print_form
from ratings.fesa_files.ratingliste import read_ratingliste, record_struct, with_source, write_ratingliste
from ratings.fesa_files.records import ListRecord
from ratings.fesa_files.spelling import RECORD, read_spelled

from .data import case_dir, case_names

_DAY = dt.date(2020, 1, 1)


def _same_record(fast: ListRecord, slow: ListRecord) -> None:
    assert fast == slow
    assert (fast.line, fast.file) == (slow.line, slow.file)
    full = with_source(fast)
    assert full == slow
    assert full.source == slow.source
    assert [h.source for h in full.homes] == [h.source for h in slow.homes]


@pytest.mark.parametrize("name", case_names())
@pytest.mark.parametrize("which", ["ratingliste.pre", "ratingliste.post"])
def test_every_reference_record_is_read_as_its_printed_line(name: str, which: str) -> None:
    text = (case_dir(name) / which).read_bytes().decode("latin-1")
    fast = read_spelled(text, which)
    assert fast is not None, "the program's own lists are all in its spelling"
    slow = read_ratingliste(text, which)
    assert len(fast) == len(slow)
    for f, s in zip(fast, slow, strict=True):
        _same_record(f, s)
        assert f.text == print_form(record_struct(s))  # the line is what printing the record gives
    assert read_ratingliste(text, which, keep_text=True) == slow
    assert write_ratingliste(fast, which) == write_ratingliste(slow, which) == text.encode("latin-1")


@pytest.mark.parametrize("name", case_names())
def test_a_played_record_read_by_its_line_is_written_as_one_read_by_its_structure(name: str) -> None:
    text = (case_dir(name) / "ratingliste.pre").read_bytes().decode("latin-1")
    fast, slow = read_spelled(text, "ratingliste.pre"), read_ratingliste(text)
    assert fast is not None
    for f, s in zip(fast, slow, strict=True):
        changed = s.state._replace(rating=s.state.rating + 1, bonus_count=0, lb_run=0, mp_run=0)
        for origin in ("E", "A"):
            played_fast = with_source(f).played(s.state.last_played or s.homes[0].last or _DAY, origin, changed)
            played_slow = s.played(s.state.last_played or s.homes[0].last or _DAY, origin, changed)
            assert played_fast.text is None
            assert write_ratingliste([played_fast]) == write_ratingliste([played_slow])


_INT = st.from_regex(r"0|-?[1-9][0-9]{0,8}", fullmatch=True)
_TEXT = st.from_regex(r'[^"\\\n]{0,12}', fullmatch=True)
_DATES = st.one_of(
    st.sampled_from(["NIL", '""', "0"]),
    st.dates(dt.date(1980, 1, 1), dt.date(2030, 12, 31)).map(lambda d: f'"{d.isoformat()}"'),
    st.dates(dt.date(1980, 1, 1), dt.date(2030, 12, 31)).map(lambda d: f'"{d.isoformat()[:7]}"'),
)
_HOME = st.builds(
    lambda code, nat, res, last: f"#S(HOME :LIST #\\{code} :NATIONALITY {nat} :RESIDENS {res} :LAST {last})",
    st.sampled_from("EAea"),
    _TEXT.map(lambda t: f'"{t}"'),
    _TEXT.map(lambda t: f'"{t}"'),
    _DATES,
)
_GAME = st.builds(lambda r, s: f"({r} {s} 1)", st.integers(0, 3000), st.sampled_from(["0", "1", "1/2"]))


@st.composite
def spelled_lines(draw: st.DrawFn) -> str:
    """Lines of the pattern with values the slots mostly accept (the pattern alone mostly gives refused
    grades and dates); tests/fesa/test_record_line.py plays them too."""
    homes = draw(st.lists(_HOME, max_size=3))
    games = draw(st.one_of(st.sampled_from(["NIL", "0"]), _INT, st.lists(_GAME, min_size=1, max_size=5)))
    unit, nsr_unit = draw(st.sampled_from(["Dan", "Kyu", ""])), draw(st.sampled_from(["Dan", "Kyu", "Pro", ""]))
    lb = draw(
        st.one_of(
            st.just("NIL"), st.builds(lambda n, t: f"(:LB {n} {t})", st.integers(1, 20), st.sampled_from(["T", "NIL"]))
        )
    )
    line = (
        f'#S(PLAYER :LAST-NAME "{draw(_TEXT)}" :FIRST-NAME "{draw(_TEXT)}"'
        f" :NATIONALITY-LIST {'(' + ' '.join(homes) + ')' if homes else 'NIL'}"
        f' :GRADE-LEVEL {draw(st.integers(0 if unit == "" else 1, 12))} :GRADE-NAME "{unit}"'
        f' :NSR-GRADE-LEVEL {draw(st.integers(0 if nsr_unit == "" else 1, 12))} :NSR-GRADE-NAME "{nsr_unit}"'
        f" :ELO-NUMBER {draw(_INT)}"
        f" :GAMES {'(' + ' '.join(games) + ')' if isinstance(games, list) else games}"
        f" :LAST-PLAYED {draw(_DATES)} :LB-COUNT {lb}"
        f" :MP-COUNT {draw(st.sampled_from(['NIL', '(:MP 0)', '(:MP 3)']))} :BONUS-COUNT {draw(_INT)})"
    )
    assert RECORD.fullmatch(line)
    return line


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.from_regex(RECORD, fullmatch=True), spelled_lines()))
def test_a_line_in_the_spelling_prints_back_unchanged(line: str) -> None:
    text = "(" + line + "\n\n)\n"
    try:
        (slow,) = read_ratingliste(text)
    except FesaFileError:
        assert read_spelled(text, "ratingliste.pre") is None  # left to the general reader, which refuses it
        return
    assert print_form(record_struct(slow)) == line
    fast = read_spelled(text, "ratingliste.pre")
    assert fast is not None
    _same_record(fast[0], slow)


@pytest.mark.parametrize(
    "change",
    [
        ("(#S(PLAYER", "(; a comment\n#S(PLAYER"),
        (":LB-COUNT NIL", ":LB-COUNT (:LB 0 T)"),  # printed back as NIL
        (":LB-COUNT NIL", ":lb-count NIL"),
        (':GRADE-NAME "Dan"', ':GRADE-NAME "dan"'),
        (":ELO-NUMBER 1950", ":ELO-NUMBER +1950"),
        (":ELO-NUMBER 1950", ":ELO-NUMBER  1950"),
        (' :FIRST-NAME "', '\n :FIRST-NAME "'),
        ('"Joly"', '"Jo\\ly"'),
        ("\n\n)\n", "\n\n"),
    ],
)
def test_a_list_in_another_spelling_is_left_to_the_general_reader(change: tuple[str, str]) -> None:
    text = (case_dir("synthetic-case-000") / "ratingliste.pre").read_bytes().decode("latin-1")
    assert change[0] in text
    other = text.replace(change[0], change[1], 1)
    assert read_spelled(other, "ratingliste.pre") is None
    try:
        slow = read_ratingliste(other)
    except FesaFileError as exc:
        with pytest.raises(FesaFileError) as caught:
            read_ratingliste(other, keep_text=True)
        assert str(caught.value) == str(exc)
        return
    fast = read_ratingliste(other, keep_text=True)
    assert fast == slow
    assert write_ratingliste(fast) == write_ratingliste(slow)
