"""turnering.txt: reading, the consistency rules, writing, and the engine's input."""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

import pytest

from ratings.engine.types import Game, Handicap, PlayerState
from ratings.fesa_files.errors import FesaFileError, FesaFileErrors
from ratings.fesa_files.turnering import (
    MAX_ROUNDS,
    Cell,
    HandicapMark,
    engine_table,
    read_turnering,
    write_turnering,
)

from .data import case_dir, case_names, fesa_data

HEADER = "[Test table, Oslo, Norway]\n[2020-05-01]\n"


def table_text(*results: str) -> str:
    """A table whose player i (from 1) is P<i> with the given results field."""
    return HEADER + "".join(f"{i} [P{i}] [X] [{r}]\n" for i, r in enumerate(results, start=1))


def test_read_turnering_kota_league_has_71_lines_and_58_players_with_games() -> None:
    table = read_turnering((fesa_data() / "kota-3rd_company_league_day1-turnering.txt").read_bytes())
    assert (table.name, table.date, table.rounds) == ("League", dt.date(2018, 5, 26), 3)
    assert len(table.players) == 71
    assert table.player(1).name == ("N108", "")
    assert table.player(1).line == 4  # after the source line and the two header lines
    assert table.player(71).cells == (Cell(0, "-"), Cell(0, "-"), Cell(49, "+"))
    playing = {n for n in range(1, 72) if any(c.is_game for c in table.player(n).cells)}
    assert len(playing) == 58
    # The table's one draw: N59 (57) and N169 (67) in round 2.
    assert table.player(57).cells[1] == Cell(67, "=")
    assert table.player(67).cells[1] == Cell(57, "=")
    assert table.points(57) == Fraction(5, 2)
    games = engine_table(table, {n: PlayerState() for n in range(1, 72)}).table.games
    assert Game(2, 57, 67, 0.5) in games
    assert {k for g in games for k in (g.first, g.second)} == playing


def test_read_turnering_handicap_cell_variants() -> None:
    results = ["0+"] * 16
    results[0], results[11] = "12+(-2p)", "1-(+2p)"
    results[1], results[15] = "16-(+R)", "2+(-R)"
    results[2], results[3] = "4+(-rl)", "3-(+RL)"
    results[4], results[5] = "6+(-r )", "5-( + R)"
    table = read_turnering(table_text(*results))
    assert table.player(1).cells == (Cell(12, "+", HandicapMark(False, "2p")),)
    assert table.player(2).cells == (Cell(16, "-", HandicapMark(True, "R")),)
    assert table.player(3).cells == (Cell(4, "+", HandicapMark(False, "RL")),)
    assert table.player(5).cells == (Cell(6, "+", HandicapMark(False, "R")),)
    assert table.player(5).cells[0].handicap.spelling == "r"  # type: ignore[union-attr]
    games = engine_table(table, {n: PlayerState() for n in range(1, 17)}).table.games
    # The giver is the side marked "-": player 1 gave 2 pieces, 16 gave the rook to 2.
    assert Game(1, 1, 12, 1.0, Handicap("2p", 1)) in games
    assert Game(1, 2, 16, 0.0, Handicap("R", 16)) in games


def test_read_turnering_byes_count_in_points_and_are_not_games() -> None:
    table = read_turnering(table_text("0+ 2+", "0- 1-", "0= 0#"))
    assert [c.score for c in table.player(3).cells] == [Fraction(1, 2), 0]
    assert (table.points(1), table.points(2), table.points(3)) == (2, 0, Fraction(1, 2))
    assert engine_table(table, {n: PlayerState() for n in (1, 2, 3)}).table.games == (Game(2, 1, 2, 1.0),)


def test_read_turnering_simultaneous_giver_is_the_mirror_of_the_others() -> None:
    table = read_turnering(table_text("&", "1-(+B) 3+", "1+ 2-", "1= 0+"))
    assert table.player(1).simul_giver
    assert table.cells_of(1) == (
        (Cell(2, "+", HandicapMark(False, "B")), Cell(3, "-"), Cell(4, "=")),
        (),
    )
    assert table.points(1) == Fraction(3, 2)
    built = engine_table(table, {n: PlayerState() for n in (1, 2, 3, 4)})
    # The giver's three round-1 games get consecutive round numbers in table order; round 2 stays after.
    rounds = {(g.first, g.second): g.round for g in built.table.games}
    assert rounds[(2, 1)] < rounds[(3, 1)] < rounds[(4, 1)] < rounds[(2, 3)]
    assert {built.round_of[r] for r in rounds.values()} == {1, 2}
    assert Game(rounds[(2, 1)], 2, 1, 0.0, Handicap("B", 1)) in built.table.games


def test_read_turnering_comments_header_lines_and_empty_lines_are_skipped() -> None:
    text = (
        "; sent by the director\n[Club cup]\n  ; the date:\n[2016-01-07]\n[Time control: 30min + 30sec]\n"
        "Nr Name Results\n1 [A] [a] [2+]\n; a note between players\n\n2 [B] [b] [1-]\n\nPoints follow\n"
    )
    table = read_turnering(text)
    assert [(p.name, p.line) for p in table.players] == [(("A", "a"), 7), (("B", "b"), 10)]


def test_read_turnering_free_text_macmahon_and_printed_numbers() -> None:
    text = HEADER + "1 [Ould Ahmed] [Samy] FR N [2+ 0=] [2] 3.5\n3 [B] [] JP [1- 0+]\n"
    table = read_turnering(text)
    first = table.player(1)
    assert (first.number, first.last_name, first.free_text) == (1, "Ould Ahmed", " FR N ")
    assert (first.nationality, first.marked_new, first.macmahon) == ("FR", True, "2")
    assert table.points(1) == Fraction(7, 2)
    assert table.player(2).number == 2


def test_read_turnering_date_span_is_dated_by_its_last_day() -> None:
    table = read_turnering("[CdF Nantes 2025]\n[2025-04-19/20]\n1 [A] [] [2+]\n2 [B] [] [1-]\n")
    assert (table.date, table.date_text) == (dt.date(2025, 4, 20), "2025-04-19/20")


def test_read_turnering_utf8_and_latin1_give_the_same_table() -> None:
    text = "[Coupe de Noël]\n[2020-12-20]\n1 [Hébert] [Zoé] [2+]\n2 [Åberg] [Bjørn] [1-]\n"
    from_utf8 = read_turnering(text.encode("utf-8"))
    assert from_utf8 == read_turnering(text.encode("latin-1"))
    assert from_utf8.player(2).name == ("Åberg", "Bjørn")


# A table for each problem the reader tells of a line: its text, the line to blame, words of the message.
BAD_TABLES = [
    (table_text("2+", "1+"), 3, "P1 X (line 3) has '2+', P2 X (line 4) has '1+': the results do not add up"),
    (table_text("2=", "1-"), 3, "round 1: P1 X (line 3) has '2=', P2 X (line 4) has '1-'"),
    (
        table_text("2+ 3+", "1- 0+", "0- 2-"),
        3,
        "round 2: P1 X (line 3) has '3+', P3 X (line 5) has '2-': the cells do not name each other",
    ),
    (table_text("2+(-B)", "1-"), 3, "a handicap on one side only"),
    (table_text("2+(-B)", "1-(-B)"), 3, "the handicap must have the same code and opposite sides"),
    (table_text("2+(-B)", "1-(+L)"), 3, "the handicap must have the same code and opposite sides"),
    (table_text("2+(-Q)", "1-(+Q)"), 3, "round 1: unknown handicap code 'Q'"),
    (table_text("2+(B)", "1-(B)"), 3, "a handicap must start with + or -"),
    (table_text("2+ 0+", "1-"), 4, "uneven number of rounds: P2 X has 1, P1 X (line 3) has 2"),
    (table_text("2+", "1- 0+"), 4, "uneven number of rounds"),
    (table_text("3+", "0+"), 3, "names player 3, but the table has 2"),
    (table_text("1+", "0+"), 3, "is named as his own opponent"),
    (table_text("2+x", "1-"), 3, "round 1: cannot read the cell '2+x'"),
    (table_text("2+ 0- 2", "1- 0+ 1"), 3, "round 3: cannot read the cell '2'"),
    (table_text("0+ 2#", "0+ 1-"), 3, "round 2: '#' (no-show) needs opponent 0"),
    (table_text("0+(-B)", "0+(+B)"), 3, "a handicap on a round without a game"),
    (HEADER + "1 [A] [a] 2+\n", 3, "a player line needs [family name] [given name] [results]"),
    (HEADER + "1 [A] [a] [2+\n", 3, "'[' at column 11 is not closed"),
    (HEADER + "1 [A] [a] [2+] [x]\n2 [B] [b] [1-]\n", 3, "the MacMahon start score must be a number"),
    (HEADER + "2 [A] [a] [2+]\n", 3, "the first player line must start with 1"),
    (table_text("2+", "1-") + "The end\n3 [C] [c] [0+]\n", 6, "player lines must follow each other, but line 5"),
    ("[Name]\n[2020-5-1]\n1 [A] [a] [0+]\n", 2, "the table's date must be YYYY-MM-DD, not '2020-5-1'"),
    ("[Name]\n[2020-05-09/08]\n1 [A] [a] [0+]\n", 2, "the table's date must be YYYY-MM-DD"),
    ("[Name]\n[2020-05-01]\n1 [G] [g] [&]\n", 3, "every player is a simultaneous giver"),
    (HEADER + "1 [A\u202e] [a] [0+]\n", 3, "the family name 'A\\u202e' holds an invisible format character (U+202E"),
    (HEADER + "1 [A] [a\x07] [0+]\n", 3, "the given name 'a\\x07' holds a control character (U+0007"),
    ("[Name\u2028]\n[2020-05-01]\n1 [A] [a] [0+]\n", 1, "the table's name 'Name\\u2028' holds a line separator"),
    (
        table_text(" ".join(["0+"] * (MAX_ROUNDS + 1))),
        3,
        f"a table has at most {MAX_ROUNDS} rounds, not {MAX_ROUNDS + 1}",
    ),
]
# A table for each problem of the file as a whole.
INCOMPLETE_TABLES = [
    ("", "no [table name] line"),
    ("[Name]\n", "no [date] line"),
    ("[Name]\n[2020-05-01]\nno results\n", "no player lines"),
]


@pytest.mark.parametrize(("text", "line", "words"), BAD_TABLES)
def test_read_turnering_inconsistent_table_names_file_line_and_players(text: str, line: int, words: str) -> None:
    with pytest.raises(FesaFileError) as caught:
        read_turnering(text, "turnering.txt")
    assert (caught.value.file, caught.value.line) == ("turnering.txt", line)
    assert words in caught.value.message
    assert str(caught.value).startswith(f"turnering.txt, line {line}: ")


@pytest.mark.parametrize(("text", "words"), INCOMPLETE_TABLES)
def test_read_turnering_missing_parts_name_the_file(text: str, words: str) -> None:
    with pytest.raises(FesaFileError, match=re.escape(f"turnering.txt: {words}")):
        read_turnering(text)


@pytest.mark.parametrize("name", case_names())
def test_write_turnering_round_trip_of_every_case_gives_the_same_bytes(name: str) -> None:
    data = (case_dir(name) / "turnering.txt").read_bytes()
    assert write_turnering(read_turnering(data)) == data


def test_write_turnering_round_trip_keeps_the_table_of_the_kota_file() -> None:
    # The file's first line (where it was copied from) is not part of a table and is not written back.
    data = (fesa_data() / "kota-3rd_company_league_day1-turnering.txt").read_bytes()
    table = read_turnering(data)
    written = write_turnering(table)
    assert read_turnering(written) == table
    assert written == data[data.index(b"[League]") :]


def test_write_turnering_writes_canonical_cells_givers_and_macmahon() -> None:
    text = HEADER + "1 [G] [g] [ & ]\n2 [A] [] FR [1+( - r ) 3=] [1] pts\n3 [B] [b] [0- 2=]\n"
    written = write_turnering(read_turnering(text))
    assert written == (HEADER + "1 [G] [g] [&]\n2 [A] [] FR [1+(-R) 3=] [1] pts\n3 [B] [b] [0- 2=]\n").encode()


def test_read_turnering_reports_every_problem_of_the_file_at_once_in_line_order() -> None:
    """A bad date, an unreadable cell and a mismatch between two readable lines: one reading tells all three."""
    text = (
        "[Test table, Oslo, Norway]\n[2020-13-01]\n"
        "1 [P1] [X] [2+ 3+]\n"
        "2 [P2] [X] [1- 3?]\n"  # unreadable: its cells and the cells naming it are not compared
        "3 [P3] [X] [4- 1-]\n"
        "4 [P4] [X] [3- 0+]\n"  # 3- against 4-: both lost
    )
    with pytest.raises(FesaFileErrors) as caught:
        read_turnering(text)
    found = [(e.line, e.message) for e in caught.value.errors]
    assert [line for line, _message in found] == [2, 4, 5]
    assert "YYYY-MM-DD" in found[0][1]
    assert "cannot read the cell '3?'" in found[1][1]
    assert "do not add up to one point" in found[2][1]


def test_read_turnering_goes_on_after_a_player_line_out_of_place() -> None:
    text = table_text("2+", "1-") + "[a comment without a semicolon]\n3 [P3] [X] [0+ 1 +]\n4 [P4] [X] [1+]\n"
    with pytest.raises(FesaFileErrors) as caught:
        read_turnering(text)
    assert [e.line for e in caught.value.errors] == [6, 7]
    assert all("must follow each other" in e.message for e in caught.value.errors)
