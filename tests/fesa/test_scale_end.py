"""A table whose rating would run off the handicap scale (docs/rules.md §3) is refused by the files' run as the
FESA program stops on it: an error naming the player's line, nothing written, the program's exit status 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.run import NYE_SPILLERE, RATINGLISTE_PRE, TURNERING, rate_files

from .test_standalone_run import standalone

MASTER = (
    b'(#S(PLAYER :LAST-NAME "Mester" :FIRST-NAME "Anna" :NATIONALITY-LIST (#S(HOME :LIST #\\E :NATIONALITY "FR" '
    b':RESIDENS "FR" :LAST "2015-04-05")) :GRADE-LEVEL 6 :GRADE-NAME "Dan" :NSR-GRADE-LEVEL 0 :NSR-GRADE-NAME "" '
    b':ELO-NUMBER 2678 :GAMES 60 :LAST-PLAYED "2015-04-05" :LB-COUNT NIL :MP-COUNT NIL :BONUS-COUNT 100)\n)\n'
)
NEWCOMER = b'(\n("Neu" "Otto" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 0 "" 0 0 nil)\n)\n'


def turnering(handicap: str) -> bytes:
    """The newcomer gives the 2678 master a handicap and wins."""
    return (
        f"[Runaway Cup]\n[2016-01-07]\n1 [Mester] [Anna] [2-(+{handicap})]\n2 [Neu] [Otto] [1+(-{handicap})]\n"
    ).encode("latin-1")


def test_a_rating_off_the_handicap_scale_is_refused_naming_the_players_line() -> None:
    with pytest.raises(FesaFileError) as refused:
        rate_files(turnering("R"), MASTER, NEWCOMER)
    assert (refused.value.file, refused.value.line) == (TURNERING, 4)
    assert "Neu Otto's rating would reach" in refused.value.message and "(9999)" in refused.value.message


def test_the_same_table_with_a_bishop_stays_on_the_scale() -> None:
    done = rate_files(turnering("B"), MASTER, NEWCOMER)
    (newcomer,) = [o for o in done.result.outcomes if o.key == 2]
    assert 3120 < newcomer.after.rating < 9999


def test_the_program_exits_with_an_error_for_that_folder_and_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "runaway"
    folder.mkdir()
    (folder / TURNERING).write_bytes(turnering("R"))
    (folder / RATINGLISTE_PRE).write_bytes(MASTER)
    (folder / NYE_SPILLERE).write_bytes(NEWCOMER)
    done = standalone("-m", "ratings.fesa_files", str(folder))
    assert done.returncode == 1
    assert f"{folder}: turnering.txt, line 4: the table cannot be rated: Neu Otto's rating would reach" in done.stderr
    assert sorted(p.name for p in folder.iterdir()) == sorted([TURNERING, RATINGLISTE_PRE, NYE_SPILLERE])
