"""``manage.py fesa_compare``: the site's state beside the program's list, difference by difference."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.fesa_files.compare import compare_lists
from ratings.fesa_files.ratingliste import read_ratingliste
from tests.files.fesa_cases import case_dir


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
    assert failure == "3 differences with post"


def test_compare_lists_reports_positions_only_when_the_values_agree() -> None:
    records = read_ratingliste((case_dir("sample-2016-01-07") / "ratingliste.post").read_bytes())
    swapped = [records[1], records[0], *records[2:]]
    assert [str(d) for d in compare_lists(swapped, records)] == [
        f"{records[0].last_name} {records[0].first_name}: position: site 2, program 1",
        f"{records[1].last_name} {records[1].first_name}: position: site 1, program 2",
    ]
    assert compare_lists(records, records) == []
