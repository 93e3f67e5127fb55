"""Side by side with the FESA program over several tables: the site and the program's run on files stay equal.

The reference cases hold one table each; here a second table (the same pairings a month later) follows the
first, and the site's state, list and result tables after both are compared with what the file run
(ratings/fesa_files/run.py, checked against the program's own output by the fesa tests) gives when fed its
own ``ratingliste.post`` as the next ``ratingliste.pre``, as a federation running both systems would do.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import call_command

from ratings.fesa_files.run import rate_files
from ratings.models import Table, TableStatus
from ratings.selectors.fesa_records import table_result_txt
from ratings.services.fesa.state import fesa_state_export
from ratings.services.rerate import rerate_check
from tests.files.fesa_cases import all_txt_rows, case_dir, records_by_name, without_rated_game

pytestmark = pytest.mark.slow


def later(turnering: bytes, days: int) -> tuple[bytes, dt.date]:
    text = turnering.decode("iso-8859-1")
    lines = text.splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.startswith("[") and i > 0)
    date = dt.date.fromisoformat(lines[index].strip()[1:11]) + dt.timedelta(days=days)
    lines[index] = f"[{date.isoformat()}]\n"
    return "".join(lines).encode("iso-8859-1"), date


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["sample-2016-01-07", "nekomadoken-13", "synthetic-case-003", "synthetic-case-013"])
def test_two_tables_match_two_runs_of_the_program(
    name: str, tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    case = case_dir(name)
    pre = (case / "ratingliste.pre").read_bytes()
    nye = (case / "nye-spillere").read_bytes() if (case / "nye-spillere").is_file() else None
    first = (case / "turnering.txt").read_bytes()
    second, second_date = later(first, 30)
    run1 = rate_files(first, pre, nye)
    run2 = rate_files(second, run1.ratingliste_post)

    args = [str(case / "ratingliste.pre")] + (["--new-players", str(case / "nye-spillere")] if nye else [])
    call_command("import_fesa_state", *args, stdout=io.StringIO())
    for data, file in ((first, "t1.txt"), (second, "t2.txt")):
        (tmp_path / file).write_bytes(data)
        with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
            call_command("import_turnering", str(tmp_path / file), "--submit", stdout=io.StringIO())

    tables = list(Table.objects.order_by("date"))
    assert [t.status for t in tables] == [TableStatus.RATED, TableStatus.RATED]
    left_out = without_rated_game(case)
    assert records_by_name(fesa_state_export(), left_out) == records_by_name(run2.ratingliste_post, left_out)
    out = io.StringIO()
    call_command("export_rating_list", "--format", "all.txt", "--date", second_date.isoformat(), stdout=out)
    assert all_txt_rows(out.getvalue().encode("iso-8859-1"), left_out) == all_txt_rows(run2.all_txt, left_out)
    if not left_out:
        assert table_result_txt(tables[0]) == run1.result_txt
        assert table_result_txt(tables[1]) == run2.result_txt
    assert rerate_check() == []  # the stored rows are what rating the history from scratch gives
