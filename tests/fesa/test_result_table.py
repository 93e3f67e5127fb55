"""The result table, against the published Championnat de France 2025 and the program's format string."""

from __future__ import annotations

import datetime as dt

from ratings.engine.types import PlayerOutcome, PlayerState, Promotion, TableResult, grade_of
from ratings.fesa_files.ratingliste import Home, ListRecord
from ratings.fesa_files.result_table import _points, lisp_number, result_table_text
from ratings.fesa_files.turnering import Cell, TablePlayer, Turnering, read_turnering

from .data import case_dir, case_names, fesa_data
from .published import read_published


def outcome(
    key: int, before: PlayerState, *, rating: int, change: int | None, grade: int | None = None
) -> PlayerOutcome:
    """An outcome carrying only what the result table shows."""
    after = before._replace(rating=rating, grade=before.grade if grade is None else grade)
    promotions = () if grade is None else (Promotion(grade, "upper_bound", 20, float(rating), 1),)
    method = "normal" if change is not None else "performance"
    return PlayerOutcome(key, method, before, after, change, None, (), promotions)


def test_result_table_text_reproduces_the_published_cdf_2025() -> None:
    published = read_published(fesa_data() / "fesa-result-CdF-2025.txt")
    name, date_text = published.title.split(" : ")
    players, records, outcomes = [], {}, []
    for row in published.rows:
        cells = tuple(Cell(o, s) for o, s in row.cells)  # type: ignore[arg-type]
        players.append(TablePlayer(row.number, row.last_name, row.first_name, cells))
        if row.performance:
            before = PlayerState()
            result = outcome(row.number, before, rating=row.rating, change=None)
        else:
            before = PlayerState(rating=row.rating, result_list=None, game_count=50, grade=row.grade)
            final = published.promotions.get(f"{row.last_name} {row.first_name}")
            result = outcome(row.number, before, rating=row.rating + (row.change or 0), change=row.change, grade=final)
        records[row.number] = ListRecord(row.last_name, row.first_name, (Home("E", row.nationality, "FR"),), before)
        outcomes.append(result)
    table = Turnering(name, dt.date(2025, 4, 20), date_text, tuple(players), 6)
    text = result_table_text(table, records, TableResult(tuple(outcomes), 1))
    assert text == published.text


def test_result_table_text_handicaps_macmahon_draws_and_givers() -> None:
    table = read_turnering(
        "[Cup]\n[2020-05-01]\n1 [Ab] [C] [2+(-r) 0=] [1]\n2 [D] [Ef] [1-(+R) 0+]\n3 [G] [] [&]\n4 [H] [] [0- 3+]\n"
    )
    home = (Home("E", "FR", "FR"),)
    normal = PlayerState(rating=1800, result_list=None, game_count=40, grade=grade_of(1, "Dan"))
    records = {
        1: ListRecord("Ab", "C", home, normal),
        2: ListRecord("D", "Ef", home, PlayerState()),
        3: ListRecord("G", "", home, PlayerState(rating=2100, result_list=None, game_count=90)),
        4: ListRecord("H", "", home, PlayerState(rating=900, result_list=((900, 1.0), (1000, 0.0)))),
    }
    result = TableResult(
        (
            outcome(1, normal, rating=1805, change=5, grade=grade_of(2, "Dan")),
            outcome(2, PlayerState(), rating=1500, change=None),
            outcome(3, records[3].state, rating=2095, change=-5),
            outcome(4, records[4].state, rating=1200, change=None),
        ),
        1,
    )
    # Widths: family 2, given 2, so "Nat" goes to column 2+2+5 = 9 (one blank after "Nr Name ").
    # A table with a handicap gives every round five more columns, "(-r )" or blanks; a positive
    # MacMahon score adds "MMS" (~2d) before the points, and points print as Lisp numbers (1+1/2+1 = 5/2).
    # The giver (3) has no cells (he lost his one game, to 4); player 4, rated by performance, shows
    # his new rating with "*" and no change.
    expected = [
        "Cup : 2020-05-01",
        "Nr Name  Nat  Grade  ELO    1        2      MMS Pts   +/-",
        " 1 Ab C  FR   1 Dan  1800   2+(-r )  0=       1 5/2    +5",
        " 2 D  Ef FR          1500*  1-(+R )  0+       0  1  ",
        " 3 G     FR          2100   0  0    -5",
        " 4 H     FR          1200*  0-       3+       0  1  ",
        "",
        "Promoting Ab C to 2 Dan",
        "",
    ]
    assert result_table_text(table, records, result) == "\n".join(expected)


def test_result_table_text_player_without_a_rated_game_is_shown_unchanged() -> None:
    table = read_turnering("[Cup]\n[2020-05-01]\n1 [A] [] [0+]\n2 [B] [] [0-]\n")
    home = (Home("E", "NO", "NO"),)
    records = {
        1: ListRecord("A", "", home, PlayerState(rating=1500, result_list=None, game_count=30)),
        2: ListRecord("B", "", home, PlayerState()),
    }
    text = result_table_text(table, records, TableResult((), 0))
    # A game count: his rating and "+0", as the program prints it; a result list: his rating and "*".
    assert text.split("\n")[2:4] == [" 1 A  NO          1500   0+   1    +0", " 2 B  NO             0*  0-   0  "]


def test_points_in_half_points_print_as_the_points_do() -> None:
    tables = [read_turnering((case_dir(name) / "turnering.txt").read_bytes()) for name in case_names()]
    tables.append(read_turnering("[Cup]\n[2020-05-01]\n1 [A] [] [2= 3=] [0]\n2 [B] [] [1= 0=]\n3 [C] [] [0+ 1=]\n"))
    tables.append(read_turnering("[Cup]\n[2020-05-01]\n1 [A] [] [2= 3+] [-0.5]\n2 [B] [] [1= 0=]\n3 [C] [] [&]\n"))
    for table in tables:
        for p in table.players:
            assert _points(table, p) == lisp_number(table.points(p.number))


def test_lisp_number_prints_ratios_like_lisp() -> None:
    assert [lisp_number(x) for x in (3, 0, 2.5, -0.5)] == ["3", "0", "5/2", "-1/2"]


def test_result_table_text_transliterates_names_before_laying_out_the_columns() -> None:
    table = read_turnering("[Cup]\n[2020-05-01]\n1 [Œuvray] [Łukasz] [0+]\n2 [B] [] [0-]\n")
    home = (Home("E", "FR", "FR"),)
    records = {1: ListRecord("Œuvray", "Łukasz", home, PlayerState()), 2: ListRecord("B", "", home, PlayerState())}
    lines = result_table_text(table, records, TableResult((), 0)).split("\n")
    assert lines[2].startswith(" 1 Oeuvray Lukasz FR ")
    assert lines[3].startswith(" 2 B              FR ")
    assert lines[1].index("Nat") == lines[2].index("FR")
