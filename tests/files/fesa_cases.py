"""How to compare with the FESA reference cases (found through ``tests/fesa/data.py``).

Expected files there were produced by the official FESA program (tests/data/fesa/README.md); nothing there is
produced by our own code. As that README says, players who had no rated game in the table are left out of
comparisons: the program gives a newcomer with only byes the rating 1, which docs/rules.md §6 does not.
"""

from __future__ import annotations

import io
from pathlib import Path

from django.core.management import call_command

from ratings.fesa_files.ratingliste import ListRecord, read_ratingliste
from ratings.fesa_files.turnering import read_turnering
from ratings.models import Table
from tests.fesa.data import CASES, case_dir, case_names

__all__ = [
    "CASES",
    "all_txt_rows",
    "case_dir",
    "case_names",
    "case_names_with_new_players",
    "comparable",
    "load_case",
    "records_by_name",
    "without_rated_game",
]


def load_case(case: Path, capture: object) -> Table:
    """The case loaded as a federation moving over would load it: the program's state list as the opening
    balance, then the director's turnering.txt submitted and rated in-process (``capture`` is pytest-django's
    ``django_capture_on_commit_callbacks``, run so that the re-rate queued on commit happens)."""
    args = [str(case / "ratingliste.pre")]
    if (case / "nye-spillere").is_file():
        args += ["--new-players", str(case / "nye-spillere")]
    call_command("import_fesa_state", *args, stdout=io.StringIO())
    with capture(execute=True):  # type: ignore[operator]
        call_command("import_turnering", str(case / "turnering.txt"), "--submit", stdout=io.StringIO())
    return Table.objects.get()


def without_rated_game(case: Path) -> set[tuple[str, str]]:
    """Names of the table's players who have no rated game (only byes, absences, no-shows)."""
    table = read_turnering((case / "turnering.txt").read_bytes())
    playing = {p.number for p in table.players for c in p.cells if c.is_game}
    playing |= {c.opponent for p in table.players for c in p.cells if c.is_game}
    return {p.name for p in table.players if p.number not in playing}


def comparable(record: ListRecord) -> dict[str, object]:
    """Every field the program keeps, a result list taken as a multiset (tests/data/fesa/README.md)."""
    s = record.state
    return {
        "homes": [(h.list, h.nationality, h.residens, h.last) for h in record.homes],
        "rating": s.rating,
        "history": sorted(s.result_list) if s.result_list is not None else s.game_count,
        "bonus_count": s.bonus_count,
        "grade": s.grade,
        "prior_grade": s.prior_grade,
        "runs": (s.lb_run, s.lb_mp_seen, s.mp_run),
        "last_played": s.last_played,
    }


def records_by_name(data: bytes, left_out: set[tuple[str, str]]) -> dict[tuple[str, str], dict[str, object]]:
    return {r.name: comparable(r) for r in read_ratingliste(data) if r.name not in left_out}


def all_txt_rows(data: bytes, left_out: set[tuple[str, str]]) -> list[str]:
    """The rows of an all.txt without their rank, players left out removed (ranks move with them)."""
    rows = []
    for line in data.decode("iso-8859-1").splitlines()[3:]:
        name = (line[4:21].rstrip(), line[22:37].rstrip())
        if name not in left_out:
            rows.append(line[4:])
    return rows


def case_names_with_new_players() -> list[str]:
    """The cases whose table comes with a ``nye-spillere`` file."""
    names = [n for n in case_names() if (CASES / n / "nye-spillere").is_file()]
    if not names:
        raise FileNotFoundError(f"no FESA case with a nye-spillere under {CASES}")
    return names
