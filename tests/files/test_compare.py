"""``manage.py fesa_compare``: the site's state beside the program's list, difference by difference."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.engine import PlayerState
from ratings.fesa_files.compare import BYES_ONLY, compare_lists
from ratings.fesa_files.ratingliste import ListRecord, read_ratingliste
from tests.files.fesa_cases import case_dir, case_names

NEWCOMER = b'(\n("Neu" "Otto" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 0 "" 0 0 nil)\n)\n'


def compare(path: Path) -> tuple[str, str | None]:
    out = io.StringIO()
    try:
        call_command("fesa_compare", str(path), stdout=out)
    except CommandError as exc:
        return out.getvalue(), str(exc)
    return out.getvalue(), None


@pytest.mark.django_db
def test_compare_after_the_same_table_is_identical(django_capture_on_commit_callbacks: object) -> None:
    case = case_dir("nekomadoken-13")
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        call_command(
            "import_turnering",
            str(case / "turnering.txt"),
            "--new-players",
            str(case / "nye-spillere"),
            "--submit",
            stdout=io.StringIO(),
        )
    out, failure = compare(case / "ratingliste.post")
    assert failure is None, out
    assert "identical to ratingliste.post" in out


@pytest.mark.django_db
def test_compare_lists_every_difference_by_player_and_field(tmp_path: Path) -> None:
    case = case_dir("nekomadoken-13")
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    text = (case / "ratingliste.pre").read_bytes().decode("iso-8859-1")
    first = read_ratingliste(text)[0]
    changed = text.replace(
        f":ELO-NUMBER {first.state.rating} :GAMES", f":ELO-NUMBER {first.state.rating + 7} :GAMES", 1
    ).replace(":BONUS-COUNT 0)", ":BONUS-COUNT 3)", 1)
    lines = changed.split("\n")
    del lines[2]  # the program's list lacks its third player
    (tmp_path / "post").write_bytes("\n".join(lines).encode("iso-8859-1"))
    third = read_ratingliste(text)[2]
    out, failure = compare(tmp_path / "post")
    who = " ".join(p for p in first.name if p)
    assert out.splitlines() == [
        f"{who}: rating: site {first.state.rating}, program {first.state.rating + 7}",
        f"{who}: bonus count: site 0, program 3",
        f"{' '.join(p for p in third.name if p)}: player: site listed, program missing",
    ]
    assert failure == "3 unexplained differences with post"


@pytest.mark.parametrize("case", case_names())
def test_compare_files_of_every_reference_case_is_identical(case: str) -> None:
    """The standalone run of the folder the program read, beside the program's own list: nothing to explain."""
    program = case_dir(case) / "ratingliste.post"
    out = io.StringIO()
    call_command("fesa_compare", str(program), "--files", str(case_dir(case)), stdout=out)
    players = len(read_ratingliste(program.read_bytes()))
    assert out.getvalue().splitlines() == [f"{players} players, identical to ratingliste.post"]


def test_compare_lists_reports_positions_only_when_the_values_agree() -> None:
    records = read_ratingliste((case_dir("sample-2016-01-07") / "ratingliste.post").read_bytes())
    swapped = [records[1], records[0], *records[2:]]
    assert [str(d) for d in compare_lists(swapped, records)] == [
        f"{records[0].last_name} {records[0].first_name}: position: site 2, program 1",
        f"{records[1].last_name} {records[1].first_name}: position: site 1, program 2",
    ]
    assert compare_lists(records, records) == []


def record(name: str, rating: int, pairs: tuple[tuple[int, float], ...]) -> ListRecord:
    return ListRecord(name, "Test", (), PlayerState(rating=rating, result_list=pairs))


def test_compare_lists_without_a_model_explains_nothing() -> None:
    """Only the replay of the tables tells a documented divergence (tests/files/test_compare_divergences.py): a
    one-point difference at an exact half root is no explanation by itself."""
    pairs = ((1003, 1.0), (1000, 0.0))
    (difference,) = compare_lists([record("Half", 1002, pairs)], [record("Half", 1001, pairs)])
    assert (difference.field, difference.explained) == ("rating", "")


@pytest.mark.django_db
def test_compare_names_the_byes_only_newcomer_apart_and_succeeds(
    tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    """The sample table with a newcomer who had only byes: the program rates him 1 and dates him, the site leaves
    him out. Every difference is his, explained; the command succeeds and says so."""
    case = case_dir("sample-2016-01-07")
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    turnering = (case / "turnering.txt").read_bytes() + b"5 [Neu] [Otto] [0+ 0+ 0+]\n"
    (tmp_path / "turnering.txt").write_bytes(turnering)
    (tmp_path / "nye-spillere").write_bytes(NEWCOMER)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        call_command(
            "import_turnering",
            str(tmp_path / "turnering.txt"),
            "--new-players",
            str(tmp_path / "nye-spillere"),
            "--submit",
            stdout=io.StringIO(),
        )
    call_command("export_fesa_state", str(tmp_path / "site.post"), stdout=io.StringIO())
    site = (tmp_path / "site.post").read_bytes().decode("iso-8859-1")
    lines = site.split("\n")
    (newcomer,) = [i for i, line in enumerate(lines) if '"Neu"' in line]
    assert ":ELO-NUMBER 0 " in lines[newcomer] and ':LAST-PLAYED "2016-01-07"' not in lines[newcomer]
    program = lines[newcomer].replace(":ELO-NUMBER 0 ", ":ELO-NUMBER 1 ")
    program = re.sub(r":LAST-PLAYED (NIL|\"[^\"]*\")", ':LAST-PLAYED "2016-01-07"', program)
    lines[newcomer] = program
    (tmp_path / "program.post").write_bytes("\n".join(lines).encode("iso-8859-1"))

    out, failure = compare(tmp_path / "program.post")
    assert failure is None, out
    report = out.splitlines()
    assert report[0] == "2 differences explained by documented divergences:"
    assert report[1:3] == [
        f"  Neu Otto: rating: site 0, program 1 (explained: {BYES_ONLY} (Nekomado-ken (2016-01-07)))",
        f"  Neu Otto: last played: site never, program 2016-01-07 (explained: {BYES_ONLY} (Nekomado-ken (2016-01-07)))",
    ]
    assert report[-1].endswith("no unexplained difference")

    (tmp_path / "worse.post").write_bytes(
        "\n".join(lines).replace(":BONUS-COUNT 0)", ":BONUS-COUNT 3)", 1).encode("iso-8859-1")
    )
    out, failure = compare(tmp_path / "worse.post")
    assert failure == "1 unexplained differences with worse.post"
    assert out.splitlines()[0].endswith("bonus count: site 0, program 3")
