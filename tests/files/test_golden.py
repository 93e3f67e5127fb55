"""End to end through the commands, against the FESA program's own output (tests/data/fesa/cases).

For each case, into a fresh test database: ``import_fesa_state ratingliste.pre [--new-players
nye-spillere]``, ``import_turnering turnering.txt --submit`` (the re-rate runs in-process on commit),
then ``export_fesa_state`` must give ``ratingliste.post`` and ``export_rating_list --format all.txt`` on the
table's date must give ``all.txt``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from ratings.fesa_files.ratingliste import read_ratingliste
from ratings.models import RatingRow, Table, TableStatus
from tests.files.fesa_cases import all_txt_rows, case_dir, case_names, records_by_name, without_rated_game


def run_case(case: Path, tmp_path: Path, capture: object) -> Table:
    args = [str(case / "ratingliste.pre")]
    if (case / "nye-spillere").is_file():
        args += ["--new-players", str(case / "nye-spillere")]
    call_command("import_fesa_state", *args, stdout=io.StringIO())
    with capture(execute=True):  # type: ignore[operator]
        call_command(
            "import_turnering", str(case / "turnering.txt"), "--submit", stdout=io.StringIO(), stderr=io.StringIO()
        )
    return Table.objects.get()


@pytest.mark.django_db
@pytest.mark.parametrize("name", case_names())
def test_golden_case_commands_give_the_programs_files(
    name: str, tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    case = case_dir(name)
    table = run_case(case, tmp_path, django_capture_on_commit_callbacks)
    assert table.status == TableStatus.RATED, table.rating_error
    assert RatingRow.objects.filter(table=table).exists()
    left_out = without_rated_game(case)

    call_command("export_fesa_state", str(tmp_path / "ratingliste.post"), stdout=io.StringIO())
    got = (tmp_path / "ratingliste.post").read_bytes()
    want = (case / "ratingliste.post").read_bytes()
    assert records_by_name(got, left_out) == records_by_name(want, left_out)
    ratings = [r.state.rating for r in read_ratingliste(got)]
    assert ratings == sorted(ratings, reverse=True)  # the program's order: highest first

    out = tmp_path / "all.txt"
    call_command("export_rating_list", "--format", "all.txt", "--date", table.date.isoformat(), "--output", str(out))
    want_all = (case / "all.txt").read_bytes()
    if not left_out:
        assert out.read_bytes() == want_all
    else:
        assert all_txt_rows(out.read_bytes(), left_out) == all_txt_rows(want_all, left_out)
