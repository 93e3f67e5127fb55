"""The reader of FESA's published result tables (ratings/fesa_files/published.py).

Checked against the real Championnat de France 2025 page (read independently by tests/fesa/published.py)
and against the result tables the program's layout gives for every reference case (handicap columns, MMS
starts, simultaneous givers, ``*`` ratings, promotions), with what real pages add around them, and a
table of more than 99 players.
"""

from __future__ import annotations

import pytest

from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.published import read_published_table
from ratings.fesa_files.run import rate_files
from ratings.fesa_files.turnering import read_turnering

from .data import case_dir, case_names, fesa_data
from .published import read_published


def test_published_cdf_reads_as_the_independent_reader() -> None:
    path = fesa_data() / "fesa-result-CdF-2025.txt"
    table = read_published_table(path.read_bytes(), path.name)
    expected = read_published(path)
    assert f"{table.name} : {table.date_text}" == expected.title
    assert str(table.date) == "2025-04-20" and table.rounds == 6
    assert [
        (r.number, r.last_name, r.first_name, r.nationality, r.grade, r.rating, r.performance, r.points, r.change)
        for r in table.rows
    ] == [
        (r.number, r.last_name, r.first_name, r.nationality, r.grade, r.rating, r.performance, r.points, r.change)
        for r in expected.rows
    ]
    assert [tuple((c.opponent, c.sign) for c in r.cells) for r in table.rows] == [r.cells for r in expected.rows]
    names = {r.number: f"{r.last_name} {r.first_name}" for r in table.rows}
    assert {names[n]: grade for n, grade in table.promotions.items()} == expected.promotions
    assert len(table.turnering().players) == len(table.rows)  # its games are consistent


@pytest.mark.parametrize("name", case_names())
def test_published_case_result_table_reads_back_what_the_run_gave(name: str) -> None:
    case = case_dir(name)
    nye = (case / "nye-spillere").read_bytes() if (case / "nye-spillere").is_file() else None
    run = rate_files((case / "turnering.txt").read_bytes(), (case / "ratingliste.pre").read_bytes(), nye)
    page = b"# source: a season page\n<pre>\n\n" + run.result_txt.replace(b"\n", b"\r\n") + b"</pre>\n"
    table = read_published_table(page)
    outcomes = {o.key: o for o in run.result.outcomes}
    assert table.rounds == run.table.rounds and str(table.date) == str(run.table.date)
    for row, player in zip(table.rows, run.table.players, strict=True):
        assert (row.last_name, row.first_name, row.cells) == (player.last_name, player.first_name, player.cells)
        assert row.points == run.table.points(player.number)
        outcome = outcomes.get(player.number)
        if outcome is not None:
            assert row.rating_after == outcome.after.rating
            assert row.performance == (outcome.method == "performance")
    promoted = {o.key: o.after.grade for o in run.result.outcomes if o.promotions}
    assert table.promotions == promoted
    games = [(p.name, p.cells, p.simul_giver) for p in table.turnering().players]
    assert games == [
        (p.name, p.cells, p.simul_giver) for p in read_turnering((case / "turnering.txt").read_bytes()).players
    ]


def big_table(players: int) -> tuple[bytes, bytes]:
    """A one-round table of ``players`` newcomers (1 beats 2, 3 beats 4, …) and their nye-spillere."""
    lines = ["[Big open]", "[2024-03-02]"]
    for n in range(1, players + 1):
        opponent, sign = (n + 1, "+") if n % 2 else (n - 1, "-")
        lines.append(f"{n} [Player{n:03d}] [Given Name] [{opponent}{sign}]")
    nye = "\n".join(
        f'("Player{n:03d}" "Given Name" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 2 "Dan" 0 0 nil)'
        for n in range(1, players + 1)
    )
    return ("\n".join(lines) + "\n").encode(), f"(\n{nye}\n)\n".encode()


def test_published_rows_past_99_are_read_after_their_number() -> None:
    turnering, nye = big_table(104)
    run = rate_files(turnering, b"()\n", nye)
    assert b"\n100 Player100" in run.result_txt  # one column wider than the rows above
    table = read_published_table(run.result_txt.decode("latin-1").replace(" ", "\xa0", 3))
    assert [r.number for r in table.rows] == list(range(1, 105))
    assert table.rows[99].last_name == "Player100" and table.rows[99].first_name == "Given Name"
    assert [r.rating_after for r in table.rows] == [o.after.rating for o in run.result.outcomes]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no table here\n", "no title"),
        ("T : 2024-01-02\nNr Name Nat  Grade  ELO    1  Pts   +/-\n", "no rows"),
        (
            "T : 2024-01-02\nNr Name          Nat  Grade  ELO    1  Pts   +/-\n 1 A  B  FR         1500   2+ x  +5\n",
            "line 3: cannot read the points",
        ),
        (
            "T : 2024-13-02\nNr Name          Nat  Grade  ELO    1  Pts   +/-\n 1 A  B  FR         1500   0+  1  +0\n",
            "line 1: the title's date",
        ),
    ],
)
def test_published_unreadable_table_names_the_line(text: str, message: str) -> None:
    with pytest.raises(FesaFileError, match=message):
        read_published_table(text, "page.txt")
