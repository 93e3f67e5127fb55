"""Files directors send: who sets prior grades, players from a ``nye-spillere`` met again, previews that write
nothing, and every problem of a file in one upload.

Only rating officers set prior grades: in a director's upload the grades of ``nye-spillere`` become proposals
(as the add form's do), a rating officer's upload (and the command line) takes them, and no file changes the
prior grade of a player the site has already.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ratings.fesa_files.run import rate_files
from ratings.fesa_files.turnering import read_turnering
from ratings.models import ListArrival, Player, PriorGradeProposal, RatingRow, Table, TableStatus
from ratings.services.fesa.state import fesa_state_export, fesa_state_import
from ratings.services.fesa.tables import MAX_NEW_PLAYERS
from ratings.services.fesa.turnering import turnering_import
from ratings.services.tables.submit import table_submit
from tests.factories import add_game, make_director, make_player, make_rating_officer, make_table, make_tournament
from tests.files.fesa_cases import case_dir, case_names_with_new_players, records_by_name, without_rated_game
from tests.files.test_import_turnering import FOUR, four_players
from tests.files.test_upload_admin import URL, payload_of

NEKOMADOKEN = "nekomadoken-13"  # three newcomers in its nye-spillere: N55 3 Kyu, N56 2 Dan, N57 1 Kyu
DATE = dt.date(2017, 4, 15)


def nekomadoken() -> tuple[bytes, bytes, bytes]:
    case = case_dir(NEKOMADOKEN)
    return (
        (case / "ratingliste.pre").read_bytes(),
        (case / "turnering.txt").read_bytes(),
        (case / "nye-spillere").read_bytes(),
    )


def opening_balance(pre: bytes, nye: bytes | None = None) -> None:
    fesa_state_import(ratingliste=pre, new_players=nye)


def prior(name: str) -> tuple[str, int | None]:
    player = Player.objects.get(family_name=name)
    return player.prior_grade_kind, player.prior_grade_level


# Who sets prior grades


@pytest.mark.django_db
def test_directors_nye_spillere_grades_become_proposals() -> None:
    pre, turnering, nye = nekomadoken()
    opening_balance(pre)
    director = make_director()
    tournament = make_tournament(date=DATE, directors=[director])
    plan = turnering_import(data=turnering, tournament=tournament, user=director, nye_spillere=nye, commit=True)
    assert plan.table_id is not None
    assert [prior(n) for n in ("N55", "N56", "N57")] == [("", None)] * 3
    proposals = PriorGradeProposal.objects.filter(status="pending").order_by("player__family_name")
    assert [(p.player.family_name, p.kind, p.level, p.proposed_by) for p in proposals] == [
        ("N55", "kyu", 3, director),
        ("N56", "dan", 2, director),
        ("N57", "kyu", 1, director),
    ]


@pytest.mark.django_db
def test_rating_officers_nye_spillere_sets_prior_grades() -> None:
    pre, turnering, nye = nekomadoken()
    opening_balance(pre)
    officer = make_rating_officer()
    turnering_import(data=turnering, tournament=make_tournament(date=DATE), user=officer, nye_spillere=nye, commit=True)
    assert [prior(n) for n in ("N55", "N56", "N57")] == [("kyu", 3), ("dan", 2), ("kyu", 1)]
    assert not PriorGradeProposal.objects.exists()


@pytest.mark.parametrize("uploader", [make_director, make_rating_officer])
@pytest.mark.django_db
def test_nye_spillere_never_changes_an_existing_players_prior_grade(uploader: object) -> None:
    pre, turnering, nye = nekomadoken()
    opening_balance(pre)
    make_player("N56", "", prior=("dan", 7))  # entered by another director, not rated yet
    user = uploader()  # type: ignore[operator]
    tournament = make_tournament(date=DATE, directors=[user])
    plan = turnering_import(data=turnering, tournament=tournament, user=user, nye_spillere=nye, commit=True)
    assert plan.table_id is not None
    assert prior("N56") == ("dan", 7)
    assert not PriorGradeProposal.objects.filter(player__family_name="N56").exists()
    assert any("N56" in note and "7 Dan" in note for note in plan.notes)


@pytest.mark.django_db
def test_directors_nye_spillere_player_bringing_a_rating_is_refused() -> None:
    pre, turnering, _nye = nekomadoken()
    opening_balance(pre)
    nye = b'(\n("N56" "" (#S(HOME :list #\\E :nationality "JP" :residens "JP")) 2 "Dan" 2400 0 nil)\n)\n'
    director = make_director()
    tournament = make_tournament(date=DATE, directors=[director])
    plan = turnering_import(data=turnering, tournament=tournament, user=director, nye_spillere=nye, create_new=True)
    assert [(p.line, "rating officer" in p.message) for p in plan.problems if p.file == "nye-spillere"] == [(2, True)]


@pytest.mark.django_db
def test_upload_preview_says_what_becomes_of_the_files_grades() -> None:
    pre, turnering, nye = nekomadoken()
    opening_balance(pre)
    make_player("N57", "", prior=("kyu", 4))
    director = make_director()
    tournament = make_tournament(date=DATE, directors=[director])
    client = Client()
    client.force_login(director)
    files = {
        "file": SimpleUploadedFile("turnering.txt", turnering),
        "new_players": SimpleUploadedFile("nye-spillere", nye),
        "tournament": str(tournament.pk),
    }
    page = client.post(URL, files).content.decode()  # type: ignore[attr-defined]
    section = page.split('id="new-players"', 1)[1].split("</table>", 1)[0]
    rows = [r for r in section.split("<tr")[2:]]
    assert "N55" in rows[0] and "3 Kyu" in rows[0] and "proposed to a rating officer" in rows[0]
    assert "N56" in rows[1] and "2 Dan" in rows[1] and "proposed to a rating officer" in rows[1]
    assert "N57" in rows[2] and "1 Kyu" in rows[2] and "4 Kyu" in rows[2] and "kept" in rows[2]


# Players from a nye-spillere met again


@pytest.mark.django_db
@pytest.mark.parametrize("name", case_names_with_new_players())
def test_side_by_side_recipe_gives_nye_spillere_to_both_imports(
    name: str, django_capture_on_commit_callbacks: object
) -> None:
    """The README's recipe: import_fesa_state ratingliste.pre --new-players nye-spillere, then import_turnering
    turnering.txt --new-players nye-spillere: the second knows the newcomers, and the list is the program's."""
    case = case_dir(name)
    pre, nye = case / "ratingliste.pre", case / "nye-spillere"
    call_command("import_fesa_state", str(pre), "--new-players", str(nye), stdout=io.StringIO())
    players = Player.objects.count()
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        call_command(
            "import_turnering", str(case / "turnering.txt"), "--new-players", str(nye), "--submit", stdout=io.StringIO()
        )
    assert Player.objects.count() == players  # nobody created twice
    assert Table.objects.get().status == TableStatus.RATED
    run = rate_files((case / "turnering.txt").read_bytes(), pre.read_bytes(), nye.read_bytes())
    left_out = without_rated_game(case)
    assert records_by_name(fesa_state_export(), left_out) == records_by_name(run.ratingliste_post, left_out)


@pytest.mark.django_db
def test_reupload_with_the_same_nye_spillere_while_the_first_is_a_draft() -> None:
    pre, turnering, nye = nekomadoken()
    opening_balance(pre)
    director = make_director()
    tournament = make_tournament(date=DATE, directors=[director])
    client = Client()
    client.force_login(director)

    def upload() -> object:
        files = {
            "file": SimpleUploadedFile("turnering.txt", turnering),
            "new_players": SimpleUploadedFile("nye-spillere", nye),
            "tournament": str(tournament.pk),
        }
        preview = client.post(URL, files)
        assert preview.status_code == 200  # type: ignore[attr-defined]
        return client.post(URL, {"payload": payload_of(preview), "confirm": "1"})

    assert upload().status_code == 302  # type: ignore[attr-defined]
    players = Player.objects.count()
    again = upload()  # the same games as the draft's: refused, the draft named (ratings/services/tables/twins.py)
    assert again.status_code == 200 and "These games are already saved as table" in again.content.decode()  # type: ignore[attr-defined]
    assert Table.objects.count() == 1 and Player.objects.count() == players
    Table.objects.get().delete()  # the director deletes his draft and uploads the files again
    assert upload().status_code == 302  # type: ignore[attr-defined]
    assert Player.objects.count() == players  # the file's new players, created the first time, are matched
    assert Table.objects.filter(status=TableStatus.DRAFT).count() == 1
    assert ListArrival.objects.count() == 3
    assert PriorGradeProposal.objects.count() == 3  # proposed once


# A preview writes nothing; nothing is created before the whole file is checked


WRITES = ("INSERT", "UPDATE", "DELETE")


@pytest.mark.django_db
def test_preview_with_nye_spillere_writes_nothing() -> None:
    pre, turnering, nye = nekomadoken()
    opening_balance(pre)
    with CaptureQueriesContext(connection) as queries:
        plan = turnering_import(data=turnering, tournament=None, nye_spillere=nye, create_new=True)
    assert plan.ok and len(plan.effects) == 13
    assert [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith(WRITES)] == []


@pytest.mark.django_db
def test_nye_spillere_over_the_limit_is_refused_naming_the_limit() -> None:
    four_players()
    rows = [
        f'("Newcomer" "N{n}" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 1 "Kyu" 0 0 nil)'
        for n in range(MAX_NEW_PLAYERS + 1)
    ]
    nye = ("(\n" + "\n".join(rows) + "\n)\n").encode()
    plan = turnering_import(data=FOUR.encode(), tournament=None, nye_spillere=nye, commit=False)
    assert [p.message for p in plan.problems] == [f"a nye-spillere holds at most {MAX_NEW_PLAYERS:,} players"]
    assert not Player.objects.exclude(pk__in=[p.pk for p in Player.objects.all()[:4]]).exists()


# Every problem of every stage at once


@pytest.mark.django_db
def test_one_upload_shows_every_problem_of_every_stage_once() -> None:
    players = four_players()
    tournament = make_tournament(date=dt.date(2016, 2, 1))
    text = (
        FOUR.replace("[Ould Ahmed] [Samy] [1- 3+ 4+]", "[Ould Ahmed] [Samy] [1- 3x 4+]")  # unreadable cell
        .replace("[Mazouzi] [Sana] [3- 1- 2-]", "[Mazouzi] [Sana] [3+ 1- 2-]")  # 3 and 4 both won round 1
        .replace("[Hebert] [Pascal]", "[Heb\x02ert] [Pascal]")  # a control character
        .replace("[Ishikawa]", "[Ishikava]")  # nobody has this name (close to Ishikawa)
    )
    nye = b'(\n("Nouveau" "Jean" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 12 "Dan" 0 0 nil)\n)\n'
    plan = turnering_import(
        data=text.encode("iso-8859-1"), tournament=tournament, nye_spillere=nye, user=make_rating_officer()
    )
    shown = [str(p) for p in plan.problems]
    assert len(shown) == len(set(shown)) == 6, shown
    assert [p.file for p in plan.problems].count("nye-spillere") == 1
    told = [(p.line, p.message) for p in plan.problems if p.file == "turnering.txt"]
    assert (4, "round 2: cannot read the cell '3x'") in told
    assert (5, "the family name 'Heb\\x02ert' holds a control character (U+0002)") in told  # once, on its field
    assert [line for line, message in told if "Ishikava" in message] == [3]
    assert [line for line, message in told if "do not add up to one point" in message] == [5]
    assert [line for line, message in told if "outside its tournament's dates" in message] == [2]
    assert not Table.objects.exists() and Player.objects.count() == len(players)


@pytest.mark.django_db
def test_a_date_problem_of_many_players_is_told_once_naming_their_lines(
    django_capture_on_commit_callbacks: object,
) -> None:
    players = four_players()
    later = make_table(players, date=dt.date(2016, 3, 1))
    add_game(later, 1, players[0], players[1])
    add_game(later, 1, players[2], players[3])
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        table_submit(table=later, user=None)
    plan = turnering_import(data=FOUR.encode(), tournament=None)
    dated = [p for p in plan.problems if "last rated table" in p.message]
    assert len(dated) == 1 and dated[0].line == 2
    assert all(f"line {n}" in dated[0].message for n in (3, 4, 5, 6))
    assert len(plan.problems) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("name", case_names_with_new_players()[:4])
@pytest.mark.parametrize("uploader", [make_director, make_rating_officer])
def test_preview_with_nye_spillere_is_what_submitting_stores(
    name: str, uploader: object, django_capture_on_commit_callbacks: object
) -> None:
    """The preview rates in memory what the save then stores: newcomers from the grade they will have (none
    while a director's grade is only proposed), recognised players from their state."""
    case = case_dir(name)
    opening_balance((case / "ratingliste.pre").read_bytes())
    user = uploader()  # type: ignore[operator]
    turnering, nye = (case / "turnering.txt").read_bytes(), (case / "nye-spillere").read_bytes()
    date = read_turnering(turnering).date
    tournament = make_tournament(date=date, directors=[user])
    options = {"data": turnering, "tournament": tournament, "user": user, "nye_spillere": nye, "today": date}
    preview = turnering_import(**options, create_new=True)  # type: ignore[arg-type]
    assert preview.ok, preview.problems
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        done = turnering_import(**options, create_new=True, commit=True, submit=True)  # type: ignore[arg-type]
    table = Table.objects.get(pk=done.table_id)
    assert table.status == TableStatus.RATED
    seat = {e.player_id: e.seat for e in table.entries.all()}
    stored = {seat[r.player_id]: (r.rating_before, r.rating_after) for r in RatingRow.objects.filter(table=table)}
    assert stored == {e.number: (e.rating_before, e.rating_after) for e in preview.effects}


HEBERT_NYE = b'(\n("Hebert" "Pascal" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 3 "Kyu" 0 0 nil)\n)\n'


@pytest.mark.django_db
def test_nye_spillere_record_in_plain_letters_is_the_one_player_it_reads_as() -> None:
    """The upload's rule for the file's players too: "Hebert Pascal" is the Hébert Pascal a director entered
    by hand (no state yet), who comes onto the list with the table; nobody is created."""
    players = four_players()
    players[2].family_name = "Hébert"
    players[2].save()
    tournament = make_tournament(date=dt.date(2016, 1, 7))
    officer = make_rating_officer()
    plan = turnering_import(data=FOUR.encode(), tournament=tournament, user=officer, nye_spillere=HEBERT_NYE)
    assert not plan.problems
    assert [(n.player_id, n.arrives) for n in plan.newcomers] == [(players[2].pk, True)]
    assert [line.choice for line in plan.lines] == [p.pk for p in players]
    turnering_import(data=FOUR.encode(), tournament=tournament, user=officer, nye_spillere=HEBERT_NYE, commit=True)
    assert Player.objects.count() == 4
    assert ListArrival.objects.get().player_id == players[2].pk


@pytest.mark.django_db
def test_nye_spillere_record_two_players_read_as_is_refused() -> None:
    players = four_players()
    players[2].family_name = "Hébert"
    players[2].save()
    make_player("Hebert", "Pascal")
    tournament = make_tournament(date=dt.date(2016, 1, 7))
    plan = turnering_import(
        data=FOUR.encode(), tournament=tournament, user=make_rating_officer(), nye_spillere=HEBERT_NYE
    )
    assert [(p.file, p.line) for p in plan.problems] == [("nye-spillere", 2), ("turnering.txt", 5)]
    assert "several players of the site have this name" in str(plan.problems[0])
