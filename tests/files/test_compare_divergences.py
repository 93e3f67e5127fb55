"""``manage.py fesa_compare`` on tables built to hit each documented divergence from the FESA program.

The program is not at hand, so its list is made the way docs/rules.md says it behaves: the site's own run of
the table (rate_files), then, by hand and with the numbers written out, the program's behaviour for the one
player it concerns and what follows from it. Each divergence and each consequence must come out explained (exit
0); any other change, one digit anywhere, must come out unexplained (exit 1), named by player and field.

The table: Alpha, a newcomer, beats Beta, loses to Gamma and draws Delta, another newcomer who also loses to
Zeta. Alpha's performance root is 946.5006: within the program's reach of the half, so the program may give 946
where the site gives 947, and Delta's result list then holds 946 for Alpha. Four players have only byes: a
newcomer (the program rates him 1), a newcomer with a prior grade of 1 Dan (the grade's value, 1740, from its
two pairs), a provisional player (re-rated from his stored list, reversed and floored at 400: 1245) and an
established 10 Kyu one LB game short of 9 Kyu (the program's "bound to get it" promotes him, his runs stop).
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.engine import PlayerState, PriorGrade, grade_of
from ratings.fesa_files.compare import BYES_ONLY, HALF_ROOT
from ratings.fesa_files.ratingliste import Home, ListRecord, read_ratingliste, write_ratingliste
from ratings.fesa_files.run import rate_files

DAY = dt.date(2016, 3, 5)
BEFORE = dt.date(2015, 6, 1)
KYU_8, KYU_9, KYU_10 = grade_of(8, "Kyu"), grade_of(9, "Kyu"), grade_of(10, "Kyu")
TABLE = b"""[Trial]
[2016-03-05]
1 [Alpha] [Anna] [2+ 3- 4=]
2 [Beta] [Bert] [1- 0+ 0+]
3 [Gamma] [Carl] [0+ 1+ 0+]
4 [Delta] [Dora] [0+ 5- 1=]
5 [Zeta] [Fritz] [0+ 4+ 0+]
6 [Neu] [Otto] [0+ 0+ 0+]
7 [Dan] [Ichiro] [0+ 0+ 0+]
8 [Prov] [Paula] [0+ 0+ 0+]
9 [Est] [Emil] [0+ 0+ 0+]
"""
LATER = b"""[Trial two]
[2016-04-02]
1 [Prov] [Paula] [2-]
2 [Zeta] [Fritz] [1+]
3 [Dan] [Ichiro] [4+]
4 [Gamma] [Carl] [3-]
"""

Name = tuple[str, str]
Edit = Callable[[PlayerState], PlayerState]


def record(last: str, first: str, home: dt.date | None = BEFORE, **state: object) -> ListRecord:
    return ListRecord(last, first, (Home("E", "FR", "FR", home),), PlayerState(**state))  # type: ignore[arg-type]


def established(rating: int, **state: object) -> dict[str, object]:
    return {"rating": rating, "result_list": None, "game_count": 30, "bonus_count": 100, "last_played": BEFORE} | state


PAULA = ((300, 1.0), (1500, 0.0), (1200, 1.0), (1300, 0.0), (1250, 1.0), (1100, 0.0), (1400, 1.0), (1350, 0.0))
"""A provisional player's eight results, one against a rating below the floor of 400; his stored rating, 1234,
is not their performance (1245)."""

PRE = write_ratingliste(
    [
        record("Alpha", "Anna", None),
        record("Beta", "Bert", **established(1031, grade=KYU_8)),
        record("Gamma", "Carl", **established(985, grade=KYU_8)),
        record("Delta", "Dora", None),
        record("Zeta", "Fritz", **established(1100, grade=KYU_8)),
        record("Neu", "Otto", None),
        record("Dan", "Ichiro", None, prior_grade=PriorGrade("dan", 1)),
        record("Prov", "Paula", rating=1234, result_list=PAULA, last_played=BEFORE),
        record("Est", "Emil", **established(940, grade=KYU_10, lb_run=7, lb_mp_seen=True, mp_run=3)),
    ],
    "ratingliste.pre",
)

# The program's behaviour, player by player, for each divergence (docs/rules.md §5, §9).
DIVERGENCES: dict[str, dict[Name, Edit]] = {
    "newcomer with only byes": {("Neu", "Otto"): lambda s: s._replace(rating=1, last_played=DAY)},
    "newcomer with a prior grade": {
        ("Dan", "Ichiro"): lambda s: s._replace(rating=1740, result_list=((1740, 0.0), (1740, 1.0)), last_played=DAY)
    },
    "provisional player": {
        ("Prov", "Paula"): lambda s: s._replace(
            rating=1245,
            result_list=(
                (1350, 0.0),
                (1400, 1.0),
                (1100, 0.0),
                (1250, 1.0),
                (1300, 0.0),
                (1200, 1.0),
                (1500, 0.0),
                (400, 1.0),
            ),
            last_played=DAY,
        )
    },
    "established player": {
        ("Est", "Emil"): lambda s: s._replace(grade=KYU_9, lb_run=0, lb_mp_seen=False, mp_run=0, last_played=DAY)
    },
    "half root": {
        ("Alpha", "Anna"): lambda s: s._replace(rating=946),
        ("Delta", "Dora"): lambda s: s._replace(result_list=((1105, 0.0), (946, 0.5))),
    },
}
EVERY_DIVERGENCE = {name: edit for edits in DIVERGENCES.values() for name, edit in edits.items()}
# What each divergence changes on the program's list (positions apart), and the divergence named.
EXPLAINED: dict[str, dict[tuple[str, str], str]] = {
    "newcomer with only byes": {
        ("Neu Otto", "rating"): BYES_ONLY,
        ("Neu Otto", "last played"): BYES_ONLY,
        ("Neu Otto", "nationality list"): BYES_ONLY,
    },
    "newcomer with a prior grade": {
        ("Dan Ichiro", "rating"): BYES_ONLY,
        ("Dan Ichiro", "history"): BYES_ONLY,
        ("Dan Ichiro", "last played"): BYES_ONLY,
        ("Dan Ichiro", "nationality list"): BYES_ONLY,
    },
    "provisional player": {
        ("Prov Paula", "rating"): BYES_ONLY,
        ("Prov Paula", "history"): BYES_ONLY,
        ("Prov Paula", "last played"): BYES_ONLY,
        ("Prov Paula", "nationality list"): BYES_ONLY,
    },
    "established player": {
        ("Est Emil", "FESA grade"): BYES_ONLY,
        ("Est Emil", "LB run"): BYES_ONLY,
        ("Est Emil", "MP run"): BYES_ONLY,
        ("Est Emil", "last played"): BYES_ONLY,
        ("Est Emil", "nationality list"): BYES_ONLY,
    },
    "half root": {("Alpha Anna", "rating"): HALF_ROOT, ("Delta Dora", "history"): HALF_ROOT},
}


def programs_list(records: tuple[ListRecord, ...] | list[ListRecord], edits: dict[Name, Edit], date: dt.date) -> bytes:
    """The list with the program's behaviour applied, in the program's order (by rating, the others as
    they were)."""
    out = []
    for r in records:
        edit = edits.get(r.name)
        if edit is None:
            out.append(r)
            continue
        state = edit(r.state)
        out.append(
            r.played(date, "E", state)
            if state.last_played != r.state.last_played
            else r._replace(state=state, text=None)
        )
    return write_ratingliste(sorted(out, key=lambda r: -r.state.rating), "ratingliste.post")


def folder(tmp_path: Path) -> Path:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "turnering.txt").write_bytes(TABLE)
    (tmp_path / "run" / "ratingliste.pre").write_bytes(PRE)
    return tmp_path / "run"


def compare(program: bytes, tmp_path: Path, *options: str) -> tuple[list[str], str | None]:
    path = tmp_path / "ratingliste.post"
    path.write_bytes(program)
    out = io.StringIO()
    try:
        call_command("fesa_compare", str(path), *options, stdout=out)
    except CommandError as exc:
        return out.getvalue().splitlines(), str(exc)
    return out.getvalue().splitlines(), None


def explained(report: list[str]) -> dict[tuple[str, str], str]:
    """(player, field) -> the divergence named, of each explained difference but positions."""
    out = {}
    for line in report:
        if line.startswith("  ") and ": position: " not in line:
            who, field, _rest = line.strip().split(": ", 2)
            out[who, field] = next(kind for kind in (BYES_ONLY, HALF_ROOT) if kind in line)
    return out


def site_run() -> tuple[ListRecord, ...]:
    return rate_files(TABLE, PRE).records


def test_the_half_root_table_is_one() -> None:
    """The construction holds: the site rounds Alpha's root of 946.5006 up, and Delta's list holds it."""
    result = rate_files(TABLE, PRE).result.by_key()
    assert (result[1].after.rating, round(result[1].performance or 0, 4)) == (947, 946.5006)
    assert result[4].after.result_list == ((1105, 0.0), (947, 0.5))


@pytest.mark.parametrize("divergence", DIVERGENCES)
def test_files_a_divergence_and_its_consequences_are_explained(tmp_path: Path, divergence: str) -> None:
    report, failure = compare(
        programs_list(site_run(), DIVERGENCES[divergence], DAY), tmp_path, "--files", str(folder(tmp_path))
    )
    assert failure is None, report
    assert explained(report) == EXPLAINED[divergence]
    assert report[-1].endswith("no unexplained difference")


def test_files_a_consequence_is_named_with_the_divergence_it_comes_from(tmp_path: Path) -> None:
    report, _ = compare(
        programs_list(site_run(), DIVERGENCES["half root"], DAY), tmp_path, "--files", str(folder(tmp_path))
    )
    assert f"  Alpha Anna: rating: site 947, program 946 (explained: {HALF_ROOT} (Trial))" in report
    assert (
        "  Delta Dora: history: site ((1105 0) (947 0.5)), program ((1105 0) (946 0.5)) "
        f"(explained: {HALF_ROOT} (Trial), a consequence of Alpha Anna's)"
    ) in report


def test_files_every_divergence_at_once_is_explained(tmp_path: Path) -> None:
    report, failure = compare(
        programs_list(site_run(), EVERY_DIVERGENCE, DAY), tmp_path, "--files", str(folder(tmp_path))
    )
    assert failure is None, report
    assert explained(report) == {key: kind for case in EXPLAINED.values() for key, kind in case.items()}


ONE_DIGIT: dict[str, tuple[Name, Edit, str]] = {
    "a player no divergence concerns": (("Zeta", "Fritz"), lambda s: s._replace(bonus_count=99), "bonus count"),
    "an opponent of the half root, another field": (("Delta", "Dora"), lambda s: s._replace(rating=827), "rating"),
    "the half root's wrong side": (("Alpha", "Anna"), lambda s: s._replace(rating=948), "rating"),
    "a re-rated provisional player": (("Prov", "Paula"), lambda s: s._replace(rating=1246), "rating"),
    "a field the program leaves alone": (("Est", "Emil"), lambda s: s._replace(bonus_count=90), "bonus count"),
    "a re-rated newcomer's list": (
        ("Dan", "Ichiro"),
        lambda s: s._replace(result_list=((1740, 0.0), (1741, 1.0))),
        "history",
    ),
}


def with_one_digit(change: tuple[Name, Edit, str]) -> dict[Name, Edit]:
    name, edit, _ = change
    edits = dict(EVERY_DIVERGENCE)
    before = edits.get(name, lambda s: s)
    edits[name] = lambda s: edit(before(s))
    return edits


@pytest.mark.parametrize("change", ONE_DIGIT)
def test_files_one_digit_elsewhere_is_unexplained(tmp_path: Path, change: str) -> None:
    (last, first), _, field = ONE_DIGIT[change]
    program = programs_list(site_run(), with_one_digit(ONE_DIGIT[change]), DAY)
    report, failure = compare(program, tmp_path, "--files", str(folder(tmp_path)))
    assert failure == "1 unexplained differences with ratingliste.post"
    assert report[0].startswith(f"{last} {first}: {field}: site ")
    assert "(explained" not in report[0]


def import_table(path: Path, data: bytes, capture: object) -> None:
    path.write_bytes(data)
    with capture(execute=True):  # type: ignore[operator]
        call_command("import_turnering", str(path), "--submit", stdout=io.StringIO())


@pytest.mark.django_db
def test_database_divergences_are_explained_and_one_digit_is_not(
    tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    (tmp_path / "ratingliste.pre").write_bytes(PRE)
    call_command("import_fesa_state", str(tmp_path / "ratingliste.pre"), stdout=io.StringIO())
    import_table(tmp_path / "turnering.txt", TABLE, django_capture_on_commit_callbacks)

    report, failure = compare(programs_list(site_run(), EVERY_DIVERGENCE, DAY), tmp_path)
    assert failure is None, report
    assert explained(report) == {key: kind for case in EXPLAINED.values() for key, kind in case.items()}

    change = ONE_DIGIT["an opponent of the half root, another field"]
    report, failure = compare(programs_list(site_run(), with_one_digit(change), DAY), tmp_path)
    assert failure == "1 unexplained differences with ratingliste.post"
    assert report[0] == "Delta Dora: rating: site 826, program 827"


@pytest.mark.django_db
def test_database_consequences_in_a_later_table_are_explained(
    tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    """The program's list after a second table is its own run from its own list: the re-rated provisional player
    plays Zeta and turns to a count from his re-rated 1245, not the site's 1234; the newcomer with a prior grade
    plays Gamma from a list of two results, not as a newcomer. Their ratings, lists and Zeta's rating differ from
    the site's, each a consequence of the first table's divergences."""
    (tmp_path / "ratingliste.pre").write_bytes(PRE)
    call_command("import_fesa_state", str(tmp_path / "ratingliste.pre"), stdout=io.StringIO())
    import_table(tmp_path / "turnering.txt", TABLE, django_capture_on_commit_callbacks)
    import_table(tmp_path / "later.txt", LATER, django_capture_on_commit_callbacks)
    first = programs_list(site_run(), EVERY_DIVERGENCE, DAY)
    program = rate_files(LATER, first).ratingliste_post

    report, failure = compare(program, tmp_path)
    assert failure is None, report
    played_again = {"Prov Paula", "Dan Ichiro"}
    assert explained(report) == {
        **{key: kind for case in EXPLAINED.values() for key, kind in case.items() if key[0] not in played_again},
        ("Prov Paula", "rating"): BYES_ONLY,
        ("Zeta Fritz", "rating"): BYES_ONLY,
        ("Dan Ichiro", "history"): BYES_ONLY,
    }
    (zeta,) = [line for line in report if line.startswith("  Zeta Fritz: rating")]
    assert zeta.startswith("  Zeta Fritz: rating: site 1127, program 1129 (explained: ")
    assert zeta.endswith("(Trial (2016-03-05)), a consequence of Prov Paula's)")

    worse = read_ratingliste(program)
    edits: dict[Name, Edit] = {("Gamma", "Carl"): lambda s: s._replace(lb_run=s.lb_run + 1)}
    report, failure = compare(programs_list(worse, edits, dt.date(2016, 4, 2)), tmp_path)
    assert failure == "1 unexplained differences with ratingliste.post"
    assert report[0].startswith("Gamma Carl: LB run: site ")
