"""The admin upload of a turnering.txt: upload, preview (saves nothing), choices, confirm, permissions."""

from __future__ import annotations

import datetime as dt
import re
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from ratings.models import Player, Table, TableStatus, Tournament
from tests.factories import make_director, make_grade_officer, make_player, make_rating_officer, make_tournament
from tests.files.test_import_turnering import FOUR, four_players

URL = "/admin/ratings/table/upload/turnering/"
DAY = dt.date(2016, 1, 7)  # FOUR's date


def login(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def director_with_tournament() -> tuple[Client, Tournament]:
    """A director logged in, and a tournament of his on the table's date."""
    director = make_director()
    return login(director), make_tournament(date=DAY, directors=[director])


def upload(client: Client, text: str, tournament: Tournament | None, **extra: str) -> object:
    data = {"file": SimpleUploadedFile("turnering.txt", text.encode("iso-8859-1")), **extra}
    if tournament is not None:
        data["tournament"] = str(tournament.pk)
    return client.post(URL, data)


def payload_of(response: object) -> str:
    match = re.search(r'name="payload" value="([^"]+)"', response.content.decode())  # type: ignore[attr-defined]
    assert match, "the preview carries the file in a signed field"
    return match.group(1)


def counts() -> tuple[int, int, int]:
    return Player.objects.count(), Table.objects.count(), Tournament.objects.count()


@pytest.mark.django_db
def test_upload_url_is_in_the_admin() -> None:
    assert reverse("admin:ratings_upload_turnering") == URL


@pytest.mark.django_db
def test_upload_form_preselects_the_tournament() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    response = login(director).get(URL, {"tournament": tournament.pk})
    assert response.status_code == 200
    assert f'<option value="{tournament.pk}" selected>' in response.content.decode()


@pytest.mark.django_db
@pytest.mark.slow
def test_upload_preview_shows_lines_and_effect_and_saves_nothing() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    make_player("Ishikawa", "Musashi")
    before = counts()
    response = upload(login(director), FOUR, tournament)
    page = response.content.decode()  # type: ignore[attr-defined]
    assert response.status_code == 200  # type: ignore[attr-defined]
    assert "Nothing has been saved yet" in page
    assert 'id="effect"' in page and "Ould Ahmed" in page and "2+ 4+ 3+" in page
    assert 'name="confirm"' in page  # three new players, one known: nothing to fix
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.slow
def test_upload_confirm_saves_the_table_and_new_players(django_capture_on_commit_callbacks: object) -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    client = login(director)
    payload = payload_of(upload(client, FOUR, tournament))
    line = {"nationality_2": "FR", "prior_2": "dan:1"}
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        response = client.post(URL, {"payload": payload, "confirm": "1", "submit": "on", **line})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "admin:ratings_table_change", args=[table.pk]
    )
    assert (table.tournament, table.date, table.status) == (tournament, dt.date(2016, 1, 7), TableStatus.RATED)
    samy = Player.objects.get(family_name="Ould Ahmed")
    assert (str(samy.nationality), samy.prior_grade_kind, samy.prior_grade_level) == ("FR", "", None)
    proposal = samy.prior_grade_proposals.get()  # a director's prior grade waits for a rating officer
    assert (proposal.kind, proposal.level, proposal.status, proposal.proposed_by) == ("dan", 1, "pending", director)
    assert Player.objects.count() == 4


@pytest.mark.django_db
@pytest.mark.slow
def test_upload_by_rating_officer_sets_new_players_prior_grades(django_capture_on_commit_callbacks: object) -> None:
    client = login(make_rating_officer())
    payload = payload_of(upload(client, FOUR, make_tournament(date=DAY)))
    line = {"nationality_2": "FR", "prior_2": "dan:1"}
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        client.post(URL, {"payload": payload, "confirm": "1", "submit": "on", **line})
    samy = Player.objects.get(family_name="Ould Ahmed")
    assert (samy.prior_grade_kind, samy.prior_grade_level) == ("dan", 1)
    assert not samy.prior_grade_proposals.exists()


@pytest.mark.django_db
@pytest.mark.slow
def test_upload_without_submit_leaves_a_draft() -> None:
    client, tournament = director_with_tournament()
    client.post(URL, {"payload": payload_of(upload(client, FOUR, tournament)), "confirm": "1"})
    assert Table.objects.get().status == TableStatus.DRAFT


@pytest.mark.django_db
def test_upload_with_errors_cannot_be_confirmed() -> None:
    client, tournament = director_with_tournament()
    bad = FOUR.replace("[1- 3+ 4+]", "[1+ 3+ 4+]")
    response = upload(client, bad, tournament)
    page = response.content.decode()  # type: ignore[attr-defined]
    assert "line 3: round 1" in page and "do not add up to one point" in page
    assert 'name="confirm"' not in page
    before = counts()
    response = client.post(URL, {"payload": payload_of(response), "confirm": "1"})
    assert response.status_code == 200 and "do not add up" in response.content.decode()
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.slow
def test_upload_preview_again_is_offered_only_with_a_choice_to_make() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    four_players()
    client = login(director)
    unreadable = upload(client, FOUR.replace("[1- 3+ 4+]", "[1- 3? 4+]"), tournament).content.decode()  # type: ignore[attr-defined]
    assert "cannot read the cell" in unreadable and 'name="preview"' not in unreadable
    inconsistent = upload(client, FOUR.replace("[1- 3+ 4+]", "[1+ 3+ 4+]"), tournament).content.decode()  # type: ignore[attr-defined]
    assert "do not add up" in inconsistent and 'name="preview"' not in inconsistent
    Player.objects.filter(family_name="Hebert").update(family_name="Hebbert")
    close = upload(client, FOUR, tournament).content.decode()  # type: ignore[attr-defined]
    assert 'name="match_3"' in close and 'name="preview"' in close


@pytest.mark.django_db
def test_upload_close_match_waits_for_the_directors_choice() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    players = four_players()
    players[2].family_name = "Hébbert"  # a letter apart: the file's "Hebert" may be a typo, or someone else
    players[2].save()
    client = login(director)
    response = upload(client, FOUR, tournament)
    page = response.content.decode()  # type: ignore[attr-defined]
    assert "line 5" in page and 'name="match_3"' in page and 'name="confirm"' not in page
    payload = payload_of(response)
    response = client.post(URL, {"payload": payload, "preview": "1", "match_3": str(players[2].pk)})
    assert 'name="confirm"' in response.content.decode()
    client.post(URL, {"payload": payload, "confirm": "1", "match_3": str(players[2].pk)})
    assert Table.objects.get().entries.get(seat=3).player_id == players[2].pk
    assert Player.objects.count() == 4


@pytest.mark.django_db
def test_upload_close_match_can_be_a_new_player() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    players = four_players()
    players[2].family_name = "Hébbert"  # a letter apart: the director may say it is someone else
    players[2].save()
    client = login(director)
    payload = payload_of(upload(client, FOUR, tournament))
    client.post(URL, {"payload": payload, "confirm": "1", "match_3": "new", "nationality_3": "BE"})
    assert str(Player.objects.get(family_name="Hebert").nationality) == "BE"


@pytest.mark.django_db
@pytest.mark.slow
def test_upload_altered_payload_is_refused() -> None:
    client, tournament = director_with_tournament()
    payload = payload_of(upload(client, FOUR, tournament))
    response = client.post(URL, {"payload": payload[:-3] + "abc", "confirm": "1"})
    assert response.status_code == 403
    assert not Table.objects.exists()


@pytest.mark.django_db
@pytest.mark.slow
def test_upload_confirmation_replayed_saves_one_table() -> None:
    client, tournament = director_with_tournament()
    payload = payload_of(upload(client, FOUR, tournament))
    first = client.post(URL, {"payload": payload, "confirm": "1"})
    table = Table.objects.get()
    before = counts()
    for _replay in range(2):
        again = client.post(URL, {"payload": payload, "confirm": "1"}, follow=True)
        assert again.redirect_chain[0] == (first["Location"], 302)
        assert "confirmed already; nothing more was saved" in again.content.decode()
    assert counts() == before and Table.objects.get() == table


@pytest.mark.django_db
def test_upload_refused_confirmation_can_be_confirmed_once_corrected() -> None:
    """A confirmation that saves nothing (a close name not chosen yet) does not use the token up."""
    players = four_players()
    players[2].family_name = "Hébbert"
    players[2].save()
    director = make_director()
    client = login(director)
    payload = payload_of(upload(client, FOUR, make_tournament(date=DAY, directors=[director])))
    assert client.post(URL, {"payload": payload, "confirm": "1"}).status_code == 200
    assert not Table.objects.exists()
    client.post(URL, {"payload": payload, "confirm": "1", "match_3": str(players[2].pk)})
    assert Table.objects.count() == 1


@pytest.mark.django_db
def test_upload_previewed_by_one_user_cannot_be_confirmed_by_another() -> None:
    tournament = make_tournament()
    officer = make_rating_officer()
    payload = payload_of(upload(login(officer), FOUR, tournament))
    response = login(make_rating_officer()).post(URL, {"payload": payload, "confirm": "1"})
    assert response.status_code == 403
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_upload_of_a_runaway_file_is_refused_quickly_with_its_line() -> None:
    director = make_director()
    tournament = make_tournament(directors=[director])
    lines = "".join(f"{n} [P{n}] [] [0+]\n" for n in range(1, 33_001))
    started = time.monotonic()
    response = upload(login(director), "[Cup]\n[2020-05-01]\n" + lines, tournament)
    assert time.monotonic() - started < 10
    page = response.content.decode()  # type: ignore[attr-defined]
    assert "line 1003: a table has at most 1000 players" in page and 'name="confirm"' not in page


@pytest.mark.django_db
def test_upload_into_another_directors_tournament_is_refused() -> None:
    director, other = make_director(), make_director()
    theirs = make_tournament(date=DAY, directors=[other])
    response = upload(login(director), FOUR, theirs)
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()  # type: ignore[attr-defined]
    assert not Table.objects.exists()


@pytest.mark.django_db
def test_upload_by_grade_officer_is_forbidden() -> None:
    response = login(make_grade_officer()).get(URL)
    assert response.status_code == 403


@pytest.mark.django_db
def test_upload_by_rating_officer_into_any_tournament() -> None:
    officer = make_rating_officer()
    tournament = make_tournament(date=DAY, directors=[make_director()])
    client = login(officer)
    client.post(URL, {"payload": payload_of(upload(client, FOUR, tournament)), "confirm": "1"})
    assert Table.objects.get().tournament == tournament


@pytest.mark.django_db
def test_upload_without_tournament_creates_one_directed_by_the_uploader() -> None:
    director = make_director()
    client = login(director)
    client.post(URL, {"payload": payload_of(upload(client, FOUR, None)), "confirm": "1"})
    tournament = Tournament.objects.get()
    assert tournament.name == "Nekomado-ken" and list(tournament.directors.all()) == [director]


@pytest.mark.django_db
def test_tournament_list_links_to_the_upload() -> None:
    page = login(make_director()).get(reverse("admin:ratings_tournament_changelist")).content.decode()
    assert f'href="{URL}"' in page
    page = login(make_grade_officer()).get(reverse("admin:ratings_tournament_changelist")).content.decode()
    assert f'href="{URL}"' not in page


@pytest.mark.django_db
def test_tournament_page_links_to_the_upload_for_that_tournament() -> None:
    director = make_director()
    tournament = make_tournament()
    tournament.directors.add(director)
    page = login(director).get(reverse("admin:ratings_tournament_change", args=[tournament.pk])).content.decode()
    assert f'href="{URL}?tournament={tournament.pk}"' in page


def _seat_of(client: Client, text: str, tournament: Tournament, seat: int) -> int:
    """Confirm the upload with no choice made; the player of ``seat`` in the saved table."""
    client.post(URL, {"payload": payload_of(upload(client, text, tournament)), "confirm": "1"})
    return Table.objects.get().entries.get(seat=seat).player_id


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("site", "line"),
    [
        (("Zieliński", "Paweł"), "[Zielinski] [Pawel]"),  # as the FESA files write it
        (("Müller", "Birgit"), "[Muller] [Birgit]"),  # a keyboard without umlauts
        (("Müller", "Birgit"), "[Mueller] [Birgit]"),  # German without umlauts
        (("Strauß", "Birgit"), "[STRAUSS] [birgit]"),  # ß as ss, and case
    ],
)
def test_upload_name_in_plain_letters_is_the_only_player_it_reads_as(site: tuple[str, str], line: str) -> None:
    """Zielinski and Muller are taken alike: the same Latin letters, one such player, nothing to choose."""
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    players = four_players()
    players[2].family_name, players[2].given_name = site
    players[2].save()
    client = login(director)
    text = FOUR.replace("[Hebert] [Pascal]", line)
    page = upload(client, text, tournament).content.decode()  # type: ignore[attr-defined]
    assert 'name="match_3"' not in page and 'name="confirm"' in page
    assert f"{site[0]} {site[1]} (0, FR) — same name but for accents or case" in page
    assert _seat_of(client, text, tournament, 3) == players[2].pk
    assert Player.objects.count() == 4


@pytest.mark.django_db
def test_upload_names_that_read_alike_in_plain_letters_wait_for_the_directors_choice() -> None:
    """Two players read as "Muller Birgit": the director chooses, the exact spelling offered first."""
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    four_players()
    umlaut = make_player("Müller", "Birgit", nationality="DE")
    plain = make_player("Muller", "Birgit", nationality="FR")
    client = login(director)
    text = FOUR.replace("[Hebert] [Pascal]", "[Muller] [Birgit]")
    page = upload(client, text, tournament).content.decode()  # type: ignore[attr-defined]
    assert 'name="confirm"' not in page and "2 players have this name" in page
    select = page[page.index('name="match_3"') :]
    assert select.index(f'value="{plain.pk}"') < select.index(f'value="{umlaut.pk}"') < select.index('value="new"')
    # Namesakes told apart by what the director can check: the federation id and the last table played.
    assert f"Muller Birgit (0, FR) — same name · {plain.federation_id} · no rated table yet" in page


@pytest.mark.django_db
@pytest.mark.parametrize("site_name", ["Müllner", "Mueller"])
def test_upload_name_a_letter_apart_is_offered_not_taken(site_name: str) -> None:
    """Müllner and Muller, Mueller and Muller differ in a letter: maybe a typo, maybe another person."""
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    players = four_players()
    players[2].family_name, players[2].given_name = site_name, "Birgit"
    players[2].save()
    client = login(director)
    text = FOUR.replace("[Hebert] [Pascal]", "[Muller] [Birgit]")
    response = upload(client, text, tournament)
    page = response.content.decode()  # type: ignore[attr-defined]
    assert 'name="match_3"' in page and 'name="confirm"' not in page and "one letter apart" in page
    client.post(URL, {"payload": payload_of(response), "confirm": "1", "match_3": str(players[2].pk)})
    assert Table.objects.get().entries.get(seat=3).player_id == players[2].pk


@pytest.mark.django_db
def test_upload_another_file_keeps_the_tournament_chosen() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    page = upload(login(director), FOUR, tournament).content.decode()  # type: ignore[attr-defined]
    again = re.search(r'<a href="([^"]+)" class="closelink">Upload another file</a>', page)
    assert again and again.group(1) == f"{URL}?tournament={tournament.pk}"  # not a second tournament from the file


@pytest.mark.django_db
def test_upload_preview_writes_half_points_as_the_public_pages_do() -> None:
    """A draw's half point as FESA players write it, in the file's lines and the rating effect alike ("1.5" in one
    table and "1,5" in the next, in Dutch, before)."""
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    drawn = FOUR.replace("[2+ 4+ 3+]", "[2= 4+ 3+]").replace("[1- 3+ 4+]", "[1= 3+ 4+]")
    client = login(director)
    response = client.post(
        URL,
        {"file": SimpleUploadedFile("turnering.txt", drawn.encode("iso-8859-1")), "tournament": str(tournament.pk)},
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    page = response.content.decode()
    assert page.count('<td class="numeric">2½</td>') == 4  # two lines, and the two players' effect
    assert "2,5" not in page and "2.5<" not in page


@pytest.mark.django_db
def test_a_line_that_cannot_be_read_says_why_in_its_row_of_the_preview() -> None:
    """The row of an unreadable line was empty: no name, no results, nothing to point at what is wrong."""
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    four_players()
    client = login(director)
    page = upload(client, FOUR.replace("[4+ 2- 1-]", "[4+ 2- x]"), tournament).content.decode()  # type: ignore[attr-defined]
    row = page[page.index('id="line-3"') :]
    row = row[: row.index("</tr>")]
    assert "cannot read the cell" in row and 'name="confirm"' not in page
