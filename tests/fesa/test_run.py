"""One run on files (ratings.fesa_files.run.rate_files): matching the table to the list, and its errors."""

from __future__ import annotations

import pytest

from ratings.engine import InvalidTable, TableDidNotSettle
from ratings.fesa_files import run
from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.run import rate_files

from .data import case_dir

NEWCOMER = b'("Hebert" "Pascal" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 0 "" 0 0 nil)'


def sample() -> tuple[bytes, bytes]:
    case = case_dir("sample-2016-01-07")
    return (case / "turnering.txt").read_bytes(), (case / "ratingliste.pre").read_bytes()


def errors_of(turnering: bytes, ratingliste: bytes, nye: bytes | None = None) -> FesaFileError:
    with pytest.raises(FesaFileError) as caught:
        rate_files(turnering, ratingliste, nye)
    return caught.value


def test_rate_files_unknown_player_names_the_line() -> None:
    turnering, liste = sample()
    error = errors_of(turnering.replace(b"[Samy]", b"[Sami]"), liste)
    assert str(error) == (
        "turnering.txt, line 4: unknown player 'Ould Ahmed' 'Sami': not in ratingliste.pre nor nye-spillere"
    )


def test_rate_files_player_twice_in_the_table_names_both_lines() -> None:
    turnering, liste = sample()
    error = errors_of(turnering.replace(b"[Mazouzi] [Sana]", b"[Hebert] [Pascal]"), liste)
    assert str(error) == "turnering.txt, line 6: 'Hebert' 'Pascal' is already on line 5"


def test_rate_files_new_player_already_in_the_list_is_a_duplicate() -> None:
    turnering, liste = sample()
    error = errors_of(turnering, liste, b"(\n" + NEWCOMER + b"\n)\n")
    assert (error.file, error.line) == ("ratingliste.pre", 3)
    assert "duplicate player 'Hebert' 'Pascal' (also in nye-spillere, line 2)" in error.message


def test_rate_files_inconsistent_table_is_reported_before_rating() -> None:
    turnering, liste = sample()
    error = errors_of(turnering.replace(b"[4+ 2- 1-]", b"[4+ 2+ 1-]"), liste)
    assert (error.file, error.line) == ("turnering.txt", 4)
    assert "round 2: Ould Ahmed Samy (line 4) has '3+', Hebert Pascal (line 5) has '2+'" in error.message


@pytest.mark.parametrize(
    ("raised", "words"),
    [
        (InvalidTable("table 'x': player 3 plays twice in round 1"), "the table cannot be rated: table 'x'"),
        (TableDidNotSettle("table 'x' did not settle in 1000 sweeps"), "the table does not settle: table 'x'"),
    ],
)
def test_rate_files_engine_refusal_is_reported_with_the_file(
    monkeypatch: pytest.MonkeyPatch, raised: Exception, words: str
) -> None:
    # The engine stands in for a refusal the reader cannot foresee; what is tested is the report.
    def refuse(*args: object, **kwargs: object) -> None:
        raise raised

    monkeypatch.setattr(run, "rate_table", refuse)
    error = errors_of(*sample())
    assert (error.file, error.line) == ("turnering.txt", None)
    assert str(error).startswith(f"turnering.txt: {words}")


def test_rate_files_utf8_turnering_matches_the_latin1_list() -> None:
    case = case_dir("synthetic-case-005")  # accented names in the table and the lists
    turnering = (case / "turnering.txt").read_bytes()
    liste, nye = (case / "ratingliste.pre").read_bytes(), (case / "nye-spillere").read_bytes()
    as_utf8 = turnering.decode("latin-1").encode("utf-8")
    assert as_utf8 != turnering
    assert rate_files(as_utf8, liste, nye).ratingliste_post == (case / "ratingliste.post").read_bytes()


def test_rate_files_same_date_as_the_last_table_is_allowed() -> None:
    # docs/rules.md §1: tables of one date are rated one after another (the program refused this).
    turnering, liste = sample()
    first = rate_files(turnering, liste)
    again = rate_files(turnering, first.ratingliste_post)
    assert {o.after.last_played for o in again.result.outcomes} == {first.table.date}
