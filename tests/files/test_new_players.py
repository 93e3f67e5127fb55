"""A table with the program's ``nye-spillere`` file: ``import_turnering --new-players`` and the service.

The newcomers are created as the program reads them (names, nationality, prior grade, any stored rating
and games) before the table's lines are matched, so a newcomer who is 2 Dan abroad gets the first rating
the program gives him; ``--create-new`` alone knows no prior grade.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from ratings.fesa_files.ratingliste import read_ratingliste
from ratings.fesa_files.run import rate_files
from ratings.models import ListArrival, OpeningState, Player, RatingRow, Table
from ratings.selectors.states import starting_states
from ratings.services.fesa.turnering import turnering_import
from tests.factories import make_rating_officer, make_tournament
from tests.files.fesa_cases import case_dir
from tests.files.test_upload_admin import URL, payload_of

NEKOMADOKEN = "nekomadoken-13"  # three newcomers: N55 3 Kyu, N56 2 Dan, N57 1 Kyu
DATE = dt.date(2017, 4, 15)  # its table's


def import_case(name: str, capture: object, *extra: str) -> None:
    case = case_dir(name)
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    with capture(execute=True):  # type: ignore[operator]
        call_command("import_turnering", str(case / "turnering.txt"), "--submit", *extra, stdout=io.StringIO())


def first_rating(name: str) -> int:
    player = Player.objects.get(family_name=name)
    return RatingRow.objects.get(player=player).rating_after


@pytest.mark.django_db
def test_new_players_file_gives_newcomers_their_prior_grade_and_the_programs_first_rating(
    django_capture_on_commit_callbacks: object,
) -> None:
    case = case_dir(NEKOMADOKEN)
    import_case(NEKOMADOKEN, django_capture_on_commit_callbacks, "--new-players", str(case / "nye-spillere"))
    program = {r.last_name: r.state.rating for r in read_ratingliste((case / "ratingliste.post").read_bytes())}
    n56 = Player.objects.get(family_name="N56")
    assert (n56.prior_grade_kind, n56.prior_grade_level, str(n56.nationality)) == ("dan", 2, "JP")
    assert {n: first_rating(n) for n in ("N55", "N56", "N57")} == {n: program[n] for n in ("N55", "N56", "N57")}
    assert list(ListArrival.objects.order_by("position").values_list("player__family_name", "table")) == [
        ("N55", Table.objects.get().pk),
        ("N56", Table.objects.get().pk),
        ("N57", Table.objects.get().pk),
    ]
    assert not OpeningState.objects.filter(player__family_name__in=["N55", "N56", "N57"]).exists()


@pytest.mark.django_db
def test_create_new_without_the_file_knows_no_prior_grade(django_capture_on_commit_callbacks: object) -> None:
    case = case_dir(NEKOMADOKEN)
    import_case(NEKOMADOKEN, django_capture_on_commit_callbacks, "--create-new")
    program = {r.last_name: r.state.rating for r in read_ratingliste((case / "ratingliste.post").read_bytes())}
    assert Player.objects.get(family_name="N56").prior_grade_kind == ""
    assert first_rating("N56") != program["N56"]  # why the file is needed


NYE_WITH_STATE = (
    b'(\n("Nouveau" "Jean" (#S(HOME :list #\\E :nationality "BE" :residens "FR")) 1 "Dan" 1650 '
    b'((1600 1 1) (1700 0 1)) "2015-11-02" (:LB 2 NIL) (:MP 1))\n)\n'
)
SAMPLE_PLUS_NOUVEAU = (
    "[Nekomado-ken]\n[2016-01-07]\n"
    "1 [Ishikawa] [Musashi] [2+ 4+ 3+ 0+]\n2 [Ould Ahmed] [Samy] [1- 3+ 4+ 0+]\n"
    "3 [Hebert] [Pascal] [4+ 2- 1- 0+]\n4 [Mazouzi] [Sana] [3- 1- 2- 5-]\n5 [Nouveau] [Jean] N [0+ 0- 0+ 4+]\n"
)


@pytest.mark.django_db
def test_new_player_with_a_stored_rating_and_games_starts_from_them(
    tmp_path: Path, django_capture_on_commit_callbacks: object
) -> None:
    case = case_dir("sample-2016-01-07")
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    (tmp_path / "t.txt").write_text(SAMPLE_PLUS_NOUVEAU, encoding="latin-1")
    (tmp_path / "nye").write_bytes(NYE_WITH_STATE)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        call_command("import_turnering", str(tmp_path / "t.txt"), "--new-players", str(tmp_path / "nye"), "--submit")
    nouveau = Player.objects.get(family_name="Nouveau")
    state = starting_states([nouveau.pk])[nouveau.pk]
    assert (state.rating, state.result_list, state.lb_run, state.lb_mp_seen, state.mp_run) == (
        1650,
        ((1600, 1.0), (1700, 0.0)),
        2,
        False,
        1,
    )
    assert (str(nouveau.nationality), str(nouveau.residence), nouveau.prior_grade_level) == ("BE", "FR", 1)
    run = rate_files(SAMPLE_PLUS_NOUVEAU.encode("latin-1"), (case / "ratingliste.pre").read_bytes(), NYE_WITH_STATE)
    program = {r.last_name: r.state for r in run.records}
    assert starting_states([nouveau.pk])[nouveau.pk] != program["Nouveau"]  # the table was rated from it
    assert RatingRow.objects.get(player=nouveau).state_after["rating"] == program["Nouveau"].rating


@pytest.mark.django_db
@pytest.mark.slow
def test_new_players_file_on_a_dry_run_or_a_refused_table_saves_nobody(tmp_path: Path) -> None:
    case = case_dir(NEKOMADOKEN)
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    before = Player.objects.count()
    args = [str(case / "turnering.txt"), "--new-players", str(case / "nye-spillere")]
    out = io.StringIO()
    call_command("import_turnering", *args, "--dry-run", stdout=out)
    assert "N56 (new)" in out.getvalue()
    broken = tmp_path / "turnering.txt"
    broken.write_bytes((case / "turnering.txt").read_bytes().replace(b"[2017-", b"[2099-"))
    with pytest.raises(CommandError):
        call_command("import_turnering", str(broken), *args[1:], stdout=io.StringIO(), stderr=io.StringIO())
    assert Player.objects.count() == before
    assert not ListArrival.objects.exists() and not Table.objects.exists()


@pytest.mark.django_db
def test_new_players_file_naming_a_listed_player_is_refused_with_its_line(tmp_path: Path) -> None:
    case = case_dir("sample-2016-01-07")
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    (tmp_path / "nye").write_bytes(NYE_WITH_STATE.replace(b'"Nouveau" "Jean"', b'"Hebert" "Pascal"'))
    plan = turnering_import(
        data=(case / "turnering.txt").read_bytes(),
        tournament=None,
        nye_spillere=(tmp_path / "nye").read_bytes(),
        commit=False,
    )
    assert [f"{p.file}, {p}" for p in plan.problems] == [
        "nye-spillere, line 2: this player already has a state on the site (imported twice?)"
    ]
    assert not Table.objects.exists() and Player.objects.count() == 4


@pytest.mark.django_db
@pytest.mark.slow
def test_admin_upload_with_new_players_file_previews_then_creates_them(
    django_capture_on_commit_callbacks: object,
) -> None:
    """A rating officer's upload: the file's prior grades are set (a director's are proposals,
    tests/files/test_upload_trust.py), so the first ratings are the program's."""
    case = case_dir(NEKOMADOKEN)
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    officer = make_rating_officer()
    tournament = make_tournament(date=DATE)
    client = Client()
    client.force_login(officer)
    before = Player.objects.count()
    files = {
        "file": SimpleUploadedFile("turnering.txt", (case / "turnering.txt").read_bytes()),
        "new_players": SimpleUploadedFile("nye-spillere", (case / "nye-spillere").read_bytes()),
        "tournament": str(tournament.pk),
    }
    preview = client.post(URL, files)
    page = preview.content.decode()  # type: ignore[attr-defined]
    assert 'name="confirm"' in page and "N56" in page
    assert Player.objects.count() == before  # a preview saves nobody
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        client.post(URL, {"payload": payload_of(preview), "confirm": "1", "submit": "on"})
    assert Player.objects.get(family_name="N56").prior_grade_level == 2
    program = {r.last_name: r.state.rating for r in read_ratingliste((case / "ratingliste.post").read_bytes())}
    assert first_rating("N56") == program["N56"]


@pytest.mark.django_db
def test_admin_upload_preview_names_the_new_players_of_the_file_with_their_grade() -> None:
    """A line that is a player of nye-spillere reads as a new player from that file, with the file's prior
    grade: not as a player the site has ("N55 (0, JP) — same name")."""
    case = case_dir(NEKOMADOKEN)
    call_command("import_fesa_state", str(case / "ratingliste.pre"), stdout=io.StringIO())
    client = Client()
    client.force_login(make_rating_officer())
    files = {
        "file": SimpleUploadedFile("turnering.txt", (case / "turnering.txt").read_bytes()),
        "new_players": SimpleUploadedFile("nye-spillere", (case / "nye-spillere").read_bytes()),
        "tournament": str(make_tournament(date=DATE).pk),
    }
    page = client.post(URL, files).content.decode()  # type: ignore[attr-defined]
    lines = {n: page[page.index(f'id="line-{n}"') :].split("</tr>", 1)[0] for n in (10, 11, 12, 13)}
    for number, player, grade in ((11, "N55", "3 Kyu"), (12, "N56", "2 Dan"), (13, "N57", "1 Kyu")):
        label = f"{player} (JP) — new player from the nye-spillere file, prior grade in the file: {grade}"
        assert label in lines[number]
        assert "same name" not in lines[number]
    assert "N52 (" in lines[10] and "— same name" in lines[10]  # a player of the list, as before
