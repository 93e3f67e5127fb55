"""Every reader of a FESA file either reads it or raises FesaFileError naming the file: never another error.

Hypothesis builds files from the pieces real files are made of (brackets, cells, handicaps, Lisp forms,
numbers of any length, other scripts' digits), so that it reaches past the first line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.published import read_published_table
from ratings.fesa_files.ratingliste import read_nye_spillere, read_ratingliste
from ratings.fesa_files.turnering import MAX_PLAYERS, MAX_ROUNDS, read_turnering

from .data import fesa_data

CDF_2025 = (fesa_data() / "fesa-result-CdF-2025.txt").read_bytes().decode("iso-8859-1")
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NUMBERS = st.one_of(
    st.integers(-5, 40).map(str),
    st.integers(10**8, 10**12).map(str),
    st.just("9" * 5000),
    st.sampled_from(["١٢", "１２", "٣", "0", "1/0", "3/2", "1.5", "-.5", "+", "2."]),
)
TURNERING_PIECES = st.one_of(
    NUMBERS,
    st.sampled_from(["[", "]", " ", "\n", "+", "-", "=", "#", "&", "(", ")", "(+R)", "(-2P)", "N", "FR", ";"]),
    st.sampled_from(["[Cup]\n", "[2020-05-01]\n", "[2020-05-01/02]\n", "1 [A] [B] [", "[2+ 0- 1=]", "[1.5]"]),
    st.text(max_size=3),
)
LISP_PIECES = st.one_of(
    NUMBERS,
    st.sampled_from(["(", ")", " ", "\n", '"', "#S(PLAYER", ":ELO-NUMBER", ":GAMES", "NIL", "T", "#\\a", "|", "'"]),
    st.sampled_from(['"Ishikawa"', '"2016-01-07"', "((1740 1/2 1))", '(("E" "FR" "FR" NIL))', ":LAST-NAME"]),
    st.text(max_size=3),
)
PUBLISHED_PIECES = st.one_of(
    NUMBERS,
    st.sampled_from([" ", "\n", "+", "-", "*", "Kyu", "Dan", "FR", "(+R )", "Promoting ", " to ", "MMS", "Pts"]),
    st.sampled_from(["Cup : 2025-04-19/20\n", "Nr Name       Nat  Grade  ELO    1   2  Pts   +/-\n", " 1 A  B  FR "]),
    st.text(max_size=3),
)


def files(pieces: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(pieces, max_size=60).map("".join)


def reads_or_names_the_file(reader: Callable[..., Any], text: str | bytes, file: str) -> None:
    try:
        reader(text, file)
    except FesaFileError as exc:
        assert exc.file == file and str(exc).startswith(file)


@FUZZ
@given(files(TURNERING_PIECES))
def test_read_turnering_reads_or_raises_a_named_error(text: str) -> None:
    reads_or_names_the_file(read_turnering, text, "turnering.txt")
    reads_or_names_the_file(read_turnering, text.encode("utf-8"), "turnering.txt")


@FUZZ
@given(files(LISP_PIECES))
def test_read_ratingliste_and_nye_spillere_read_or_raise_a_named_error(text: str) -> None:
    reads_or_names_the_file(read_ratingliste, "(" + text + ")", "ratingliste.pre")
    reads_or_names_the_file(read_nye_spillere, "(" + text + ")", "nye-spillere")


@FUZZ
@given(files(PUBLISHED_PIECES))
def test_read_published_table_reads_or_raises_a_named_error(text: str) -> None:
    reads_or_names_the_file(read_published_table, text, "result.txt")


@FUZZ
@given(st.data())
def test_read_published_table_with_a_real_table_damaged_reads_or_raises_a_named_error(data: st.DataObject) -> None:
    text = CDF_2025
    at = data.draw(st.integers(0, len(text)))
    cut = data.draw(st.integers(0, 20))
    piece = data.draw(PUBLISHED_PIECES)
    reads_or_names_the_file(read_published_table, text[:at] + piece + text[at + cut :], "result.txt")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("1 [A] [B] [" + "9" * 5000 + "+]", "round 1: opponent number 999999999999… is too large"),
        ("1 [A] [B] [2+] [" + "9" * 5000 + "]", "the MacMahon start score must be a number"),
        ("1 [A] [B] [١+]", "round 1: cannot read the cell"),
        ("1 [A] [B] [2+] [١]", "the MacMahon start score must be a number"),
    ],
)
def test_read_turnering_huge_numbers_and_other_digits_are_named_errors(line: str, message: str) -> None:
    with pytest.raises(FesaFileError) as caught:
        read_turnering(f"[Cup]\n[2020-05-01]\n{line}\n2 [C] [D] [1-]\n")
    assert caught.value.line == 3 and message in caught.value.message


def test_read_turnering_more_players_than_the_limit_stops_at_the_first_too_many() -> None:
    lines = "".join(f"{n} [P{n}] [] [0+]\n" for n in range(1, 33_001))
    with pytest.raises(FesaFileError) as caught:
        read_turnering("[Cup]\n[2020-05-01]\n" + lines)
    assert caught.value.line == 2 + MAX_PLAYERS + 1
    assert f"at most {MAX_PLAYERS} players" in caught.value.message


def test_read_turnering_more_rounds_than_the_limit_is_a_named_error() -> None:
    cells = " ".join(["0+"] * (MAX_ROUNDS + 1))
    with pytest.raises(FesaFileError) as caught:
        read_turnering(f"[Cup]\n[2020-05-01]\n1 [A] [] [{cells}]\n")
    assert caught.value.line == 3 and f"at most {MAX_ROUNDS} rounds, not {MAX_ROUNDS + 1}" in caught.value.message


def test_read_turnering_at_the_limits_is_read() -> None:
    cells = " ".join(["0+"] * MAX_ROUNDS)
    lines = "".join(f"{n} [P{n}] [] [{cells}]\n" for n in range(1, MAX_PLAYERS + 1))
    table = read_turnering("[Cup]\n[2020-05-01]\n" + lines)
    assert (len(table.players), table.rounds) == (MAX_PLAYERS, MAX_ROUNDS)


@pytest.mark.parametrize("number", ["9" * 5000, "1" * 10, "١٢"])
def test_read_ratingliste_huge_numbers_and_other_digits_are_named_errors(number: str) -> None:
    with pytest.raises(FesaFileError) as caught:
        read_ratingliste(f'(\n("A" "B" NIL {number})\n)\n', "ratingliste.pre")
    assert caught.value.line == 2
