"""``manage.py fesa_run`` against the FESA program's own output (tests/data/fesa/cases).

Per tests/data/fesa/README.md every case compares every player's rating, history, bonus count, grades and
runs, leaving out players with no rated game in the table (the program gives a newcomer with only byes
the rating 1, docs/rules.md §6 leaves him unchanged), and the lines of all.txt. The sample case is compared
byte for byte. These tests need the engine (ratings.engine.rate_table).
"""

from __future__ import annotations

import io
import re
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from ratings.engine.types import grade_label
from ratings.fesa_files.ratingliste import ListRecord, read_ratingliste
from ratings.fesa_files.turnering import read_turnering

from .data import case_dir, case_names

INPUTS = ("turnering.txt", "ratingliste.pre", "nye-spillere")
OUTPUTS = ("ratingliste.post", "all.txt", "result.txt")


def copy_inputs(case: Path, to: Path) -> Path:
    """The case's input files (only) in a fresh folder ``to``."""
    to.mkdir()
    for name in INPUTS:
        if (case / name).exists():
            shutil.copy(case / name, to / name)
    return to


def fesa_run(*directories: Path) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("fesa_run", *map(str, directories), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


RunCase = Callable[[str], tuple[Path, Path]]


@pytest.fixture(scope="module")
def run_case(tmp_path_factory: pytest.TempPathFactory) -> RunCase:
    """Runs a case once for the module: (the case folder, the folder fesa_run wrote to)."""
    done: dict[str, tuple[Path, Path]] = {}

    def run(name: str) -> tuple[Path, Path]:
        if name not in done:
            case = case_dir(name)
            work = copy_inputs(case, tmp_path_factory.mktemp("cases") / name)
            fesa_run(work)
            done[name] = case, work
        return done[name]

    return run


def without_rated_game(case: Path) -> set[tuple[str, str]]:
    table = read_turnering((case / "turnering.txt").read_bytes())
    return {
        p.name for p in table.players if not any(cell.is_game for cells in table.cells_of(p.number) for cell in cells)
    }


def by_name(path: Path) -> dict[tuple[str, str], ListRecord]:
    return {r.name: r for r in read_ratingliste(path.read_bytes(), path.name)}


def comparable(record: ListRecord) -> dict[str, object]:
    s = record.state
    history = ("count", s.game_count) if s.result_list is None else ("list", Counter(s.result_list))
    return {
        "rating": s.rating,
        "history": history,
        "bonus_count": s.bonus_count,
        "grade": grade_label(s.grade),
        "prior_grade": s.prior_grade,
        "runs": (s.lb_run, s.lb_mp_seen, s.mp_run),
        "last_played": s.last_played,
        "homes": record.homes,
    }


def test_fesa_run_sample_gives_the_programs_files_byte_for_byte(run_case: RunCase) -> None:
    case, work = run_case("sample-2016-01-07")
    assert (work / "ratingliste.post").read_bytes() == (case / "ratingliste.post").read_bytes()
    assert (work / "all.txt").read_bytes() == (case / "all.txt").read_bytes()


@pytest.mark.parametrize("name", case_names())
def test_fesa_run_case_every_player_as_the_program(name: str, run_case: RunCase) -> None:
    case, work = run_case(name)
    expected, got = by_name(case / "ratingliste.post"), by_name(work / "ratingliste.post")
    assert set(got) == set(expected)
    left_out = without_rated_game(case)
    differences = {
        key: (comparable(got[key]), comparable(expected[key]))
        for key in expected
        if key not in left_out and comparable(got[key]) != comparable(expected[key])
    }
    assert not differences
    # The engine writes result lists in the program's order (stored list reversed, then this table).
    lists = {k: r.state.result_list for k, r in expected.items() if k not in left_out}
    assert lists == {k: got[k].state.result_list for k in lists}


def _all_rows(path: Path, left_out: set[tuple[str, str]]) -> list[str]:
    rows = path.read_text(encoding="latin-1").split("\n")
    keep = [r for r in rows[3:] if (r[4:21].rstrip(), r[22:37].rstrip()) not in left_out]
    return rows[:3] + ([r[4:] for r in keep] if left_out else keep)  # ranks shift when rows are left out


@pytest.mark.parametrize("name", case_names())
def test_fesa_run_case_all_txt_lines_as_the_program(name: str, run_case: RunCase) -> None:
    case, work = run_case(name)
    left_out = without_rated_game(case)
    assert _all_rows(work / "all.txt", left_out) == _all_rows(case / "all.txt", left_out)


@pytest.mark.parametrize("name", case_names())
def test_fesa_run_case_files_are_the_programs_bytes(name: str, run_case: RunCase) -> None:
    case = case_dir(name)
    if without_rated_game(case):
        pytest.skip("a player with only byes: the program's list differs from docs/rules.md there")
    case, work = run_case(name)
    for output in ("ratingliste.post", "all.txt"):
        assert (work / output).read_bytes() == (case / output).read_bytes(), output


@pytest.mark.parametrize("name", case_names())
def test_fesa_run_case_result_table_promotes_whom_the_program_promoted(name: str, run_case: RunCase) -> None:
    case, work = run_case(name)
    before, after = by_name(case / "ratingliste.pre"), by_name(case / "ratingliste.post")
    table = read_turnering((case / "turnering.txt").read_bytes())
    promoted = [
        f"Promoting {p.last_name} {p.first_name} to {grade_label(after[p.name].state.grade)}"
        for p in table.players
        if after[p.name].state.grade > (before[p.name].state.grade if p.name in before else 0)
    ]
    text = (work / "result.txt").read_text(encoding="latin-1")
    assert re.findall(r"^Promoting .*$", text, flags=re.MULTILINE) == promoted
    rows = text.split("\n")[2 : 2 + len(table.players)]
    assert [int(r[:2]) for r in rows] == [p.number for p in table.players]


def test_fesa_run_newcomer_with_only_byes_is_left_unchanged(tmp_path: Path) -> None:
    # docs/rules.md §6 (not the program): the sample with a new player who only had byes gives the sample's
    # expected list plus that player exactly as nye-spillere made him (rating 0, never played).
    case = case_dir("sample-2016-01-07")
    work = copy_inputs(case, tmp_path / "work")
    with (work / "turnering.txt").open("a", encoding="latin-1") as f:
        f.write("5 [Nouveau] [Jean] N [0+ 0- 0+]\n")
    (work / "nye-spillere").write_text(
        '(\n("Nouveau" "Jean" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 2 "Kyu" 0 0 nil)\n)\n'
    )
    fesa_run(work)
    newcomer = (
        b'#S(PLAYER :LAST-NAME "Nouveau" :FIRST-NAME "Jean" :NATIONALITY-LIST (#S(HOME :LIST #\\E :NATIONALITY '
        b'"FR" :RESIDENS "FR" :LAST NIL)) :GRADE-LEVEL 0 :GRADE-NAME "" :NSR-GRADE-LEVEL 2 :NSR-GRADE-NAME "Kyu" '
        b":ELO-NUMBER 0 :GAMES 0 :LAST-PLAYED NIL :LB-COUNT NIL :MP-COUNT NIL :BONUS-COUNT 0)\n"
    )
    expected = (case / "ratingliste.post").read_bytes()
    assert (work / "ratingliste.post").read_bytes() == expected[: -len(b"\n)\n")] + newcomer + b"\n)\n"
    assert (work / "all.txt").read_bytes() == (case / "all.txt").read_bytes()


def test_fesa_run_failing_directory_is_reported_and_the_others_go_on(tmp_path: Path) -> None:
    case = case_dir("sample-2016-01-07")
    good = copy_inputs(case, tmp_path / "good")
    bad = copy_inputs(case, tmp_path / "bad")
    text = (bad / "turnering.txt").read_text(encoding="latin-1").replace("[Hebert]", "[Hébert]")
    (bad / "turnering.txt").write_text(text, encoding="latin-1")
    missing = tmp_path / "missing"
    err = io.StringIO()
    with pytest.raises(CommandError, match="2 of 3 directories failed"):
        call_command("fesa_run", str(bad), str(good), str(missing), stdout=io.StringIO(), stderr=err)
    assert f"{bad}: turnering.txt, line 5: unknown player 'Hébert' 'Pascal'" in err.getvalue()
    assert f"{missing}: not a directory" in err.getvalue()
    assert sorted(p.name for p in bad.iterdir()) == sorted(INPUTS[:2])  # nothing written, no temporary file
    assert all((good / name).is_file() for name in OUTPUTS)


def test_fesa_run_table_before_a_players_last_table_is_reported_with_the_line(tmp_path: Path) -> None:
    work = copy_inputs(case_dir("sample-2016-01-07"), tmp_path / "work")
    text = (work / "turnering.txt").read_text(encoding="latin-1").replace("[2016-01-07]", "[2013-01-07]")
    (work / "turnering.txt").write_text(text, encoding="latin-1")
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("fesa_run", str(work), stdout=io.StringIO(), stderr=err)
    assert (
        "turnering.txt, line 3: the table's date 2013-01-07 is before Ishikawa Musashi's last rated table on "
        "2013-04-05" in err.getvalue()
    )
