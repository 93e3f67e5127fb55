"""Clubs: a player's club by date, club pages, the rankings, the CSV import and the admin."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ratings.models import Club, ClubMembership, Player
from ratings.selectors.clubs import (
    club_choices,
    club_members_q,
    club_page,
    club_ranking,
    clubs_on,
    country_ranking,
    top_average,
)
from ratings.services.clubs.imports import ClubImportRejected, clubs_import
from ratings.services.clubs.matching import club_match
from ratings.services.clubs.memberships import club_membership_set
from tests.factories import make_director, make_player, make_rating_officer
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db

JAN, JUN = dt.date(2025, 1, 1), dt.date(2026, 6, 1)


def club(name: str = "Shogi Club Lyon", country: str = "FR") -> Club:
    return Club.objects.create(name=name, country=country, city="Lyon")


def test_a_players_club_on_a_date_is_the_one_of_that_date() -> None:
    lyon, paris = club(), club("Paris Shogi")
    player = make_player()
    club_membership_set(player=player, club=lyon, since=JAN)
    club_membership_set(player=player, club=paris, since=JUN)
    assert clubs_on([player.pk], dt.date(2024, 12, 31)) == {}
    assert clubs_on([player.pk], dt.date(2025, 5, 1)) == {player.pk: lyon}
    assert clubs_on([player.pk], JUN) == {player.pk: paris}
    club_membership_set(player=player, club=None, since=dt.date(2026, 6, 10))
    assert clubs_on([player.pk], dt.date(2026, 6, 15)) == {}


def test_club_members_q_filters_players_by_their_club_of_the_date() -> None:
    lyon, paris = club(), club("Paris Shogi")
    moved, stayed, other = make_player(), make_player(), make_player()
    club_membership_set(player=moved, club=lyon, since=JAN)
    club_membership_set(player=moved, club=paris, since=JUN)
    club_membership_set(player=stayed, club=lyon, since=JAN)
    club_membership_set(player=other, club=paris, since=JAN)
    assert set(Player.objects.filter(club_members_q(lyon.pk, dt.date(2025, 6, 1)))) == {moved, stayed}
    assert set(Player.objects.filter(club_members_q(lyon.pk, JUN))) == {stayed}
    assert set(Player.objects.filter(club_members_q(paris.pk, JUN))) == {moved, other}


def test_club_membership_set_writes_nothing_when_the_club_is_the_same() -> None:
    lyon, player = club(), make_player()
    club_membership_set(player=player, club=lyon, since=JAN)
    club_membership_set(player=player, club=lyon, since=JUN)
    assert ClubMembership.objects.filter(player=player).count() == 1


def test_top_average_needs_enough_players() -> None:
    assert top_average([1800, 1700], 3) is None
    assert top_average([1000, 2000, 1500, 1900], 3) == pytest.approx((2000 + 1900 + 1500) / 3)


def test_club_ranking_ranks_by_the_average_of_the_best_five() -> None:
    strong, weak, small = club("Strong"), club("Weak"), club("Small")
    for i in range(6):
        club_membership_set(player=seasoned(2000 + 10 * i), club=strong, since=JAN)
        club_membership_set(player=seasoned(1500 + 10 * i), club=weak, since=JAN)
    club_membership_set(player=seasoned(2500), club=small, since=JAN)
    ranking = club_ranking()
    assert [(g.rank, g.name) for g in ranking] == [(1, "Strong"), (2, "Weak"), (None, "Small")]
    assert ranking[0].average == pytest.approx(sum(2000 + 10 * i for i in range(1, 6)) / 5)
    assert ranking[0].players == 6


def test_country_ranking_by_the_best_ten() -> None:
    for i in range(10):
        seasoned(1800 + i, nationality="JP")
        seasoned(1900 + i, nationality="DE")
    seasoned(2400, nationality="NL")
    ranking = country_ranking()
    assert [(g.rank, g.key) for g in ranking] == [(1, "DE"), (2, "JP"), (None, "NL")]
    assert ranking[0].name == "Germany"


def test_unranked_countries_follow_in_the_readers_alphabet() -> None:
    for code in ("CH", "DK", "HU"):  # in Polish: Szwajcaria, Dania, Węgry
        seasoned(1800, nationality=code)
    with translation.override("pl"):
        assert [g.name for g in country_ranking()] == ["Dania", "Szwajcaria", "Węgry"]
    assert [g.name for g in country_ranking()] == ["Denmark", "Hungary", "Switzerland"]


def test_club_page_shows_members_average_and_hosted_tournaments(client: Client, rated_round_robin) -> None:  # type: ignore[no-untyped-def]
    lyon = club()
    members = [seasoned(1800 + i, family_name=f"Member{i}") for i in range(5)]
    for player in members:
        club_membership_set(player=player, club=lyon, since=JAN)
    table = rated_round_robin(members[:2], days_ago(5))
    table.tournament.host_club = lyon
    table.tournament.save()
    page = club_page(lyon.pk)
    assert [p.rating for p in page.members] == sorted((p.rating for p in page.members), reverse=True)
    assert len(page.members) == 5
    assert page.top_average == pytest.approx(
        sum(p.rating for p in Player.objects.filter(pk__in=[m.pk for m in members])) / 5
    )
    assert page.tournaments == [table.tournament]
    html = client.get(reverse("ratings:club", args=[lyon.pk])).content.decode()
    assert "MEMBER4" in html and table.tournament.name in html
    # The average names the players it counts (those of the top list), not every member listed below it.
    assert "top list (active, with an established rating): <strong>" in html
    assert client.get(reverse("ratings:club", args=[lyon.pk + 99])).status_code == 404
    listing = client.get(reverse("ratings:clubs")).content.decode()
    assert "Shogi Club Lyon" in listing
    assert client.get(reverse("ratings:countries")).status_code == 200
    player_page = client.get(reverse("ratings:player", args=[members[0].federation_id])).content.decode()
    assert reverse("ratings:club", args=[lyon.pk]) in player_page


def test_the_club_page_links_its_members_on_the_rating_list(client: Client, rated_round_robin) -> None:  # type: ignore[no-untyped-def]
    lyon = club()
    members = [seasoned(1800 + i, family_name=f"Member{i}") for i in range(3)]
    outsider = seasoned(1900, family_name="Outsider")
    for player in members:
        club_membership_set(player=player, club=lyon, since=JAN)
    rated_round_robin([*members, outsider], days_ago(5))
    html = client.get(reverse("ratings:club", args=[lyon.pk])).content.decode()
    link = f"{reverse('ratings:rating_list')}?club={lyon.pk}"
    assert f'href="{link}"' in html
    listing = client.get(link).content.decode()
    assert all(p.family_name.upper() in listing for p in members) and "OUTSIDER" not in listing


def test_club_match_is_one_rule_for_names() -> None:
    lyon = club("Shogi-Club Müller")
    assert club_match(name="shogi-club mueller", country="FR") == lyon
    assert club_match(name="SHOGI-CLUB MÜLLER") == lyon
    assert club_match(name="shogi-club mueller", country="DE") is None
    club("Shogi-Club Müller", country="DE")
    assert club_match(name="Shogi-Club Müller") is None  # two countries: the name alone does not say which


CSV = "name;country;city;website\nShogi Club Lyon;fr;Lyon;https://lyon.example\nKyoto Kai;JP;Kyoto;\n"


def test_clubs_import_previews_then_saves_matching_known_clubs() -> None:
    lyon = Club.objects.create(name="shogi club lyon", country="FR")
    preview = clubs_import(text=CSV, commit=False)
    assert (preview.created, preview.updated) == (1, 1)
    assert preview.lines[0].club == lyon
    assert Club.objects.count() == 1
    clubs_import(text=CSV, commit=True)
    assert Club.objects.count() == 2
    lyon.refresh_from_db()
    assert lyon.website == "https://lyon.example"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty"),
        ("club,land\nX,FR\n", "missing: name, country"),
        ("name,country\nX,France\n", "Line 2: “FRANCE” is not a two-letter country code."),
        ("name,country\n,FR\n", "Line 2: the club has no name."),
        ("name,country,website\nX,FR,javascript:alert(1)\n", "Line 2: the web site is not an http(s) address."),
        ("name,country\nLyon,FR\nLYON,fr\n", "Line 3: the same club as line 2."),
        ("name,country\nA\u202eB,FR\n", "Line 2: the name holds"),
    ],
)
def test_clubs_import_refuses_bad_input_and_saves_nothing(text: str, problem: str) -> None:
    with pytest.raises(ClubImportRejected) as rejected:
        clubs_import(text=text + "Good Club,FR\n" if text else text, commit=True)
    assert any(problem in p for p in rejected.value.problems), rejected.value.problems
    assert not Club.objects.exists()


def test_officer_imports_clubs_in_the_admin_after_a_preview(client: Client) -> None:
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_club_import")
    page = client.post(url, {"file": SimpleUploadedFile("clubs.csv", CSV.encode())})
    assert page.status_code == 200
    assert "new club" in page.content.decode()
    assert not Club.objects.exists()
    done = client.post(url, {"payload": page.context["payload"]})
    assert done.status_code == 302
    assert set(Club.objects.values_list("name", flat=True)) == {"Shogi Club Lyon", "Kyoto Kai"}
    listing = client.get(reverse("admin:ratings_club_changelist"))
    assert listing.status_code == 200 and url in listing.content.decode()
    assert client.get(reverse("admin:ratings_clubmembership_changelist")).status_code == 200
    assert client.get(reverse("admin:ratings_womenslistentry_changelist")).status_code == 200


def test_the_import_preview_shows_what_a_known_club_takes_from_the_file(client: Client) -> None:
    Club.objects.create(name="Kyoto Kai", country="JP", city="Kyōto", website="https://old.example.org/")
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_club_import")
    text = "name,country,city,website\nKyoto Kai,JP,Kyoto,\nShogi Club Lyon,FR,Lyon,https://lyon.example.org/\n"
    page = client.post(url, {"file": SimpleUploadedFile("clubs.csv", text.encode())}).content.decode()
    assert "1 new club." in page and "1 club already here." in page
    assert "<del>Kyōto</del> <strong>Kyoto</strong>" in page  # the city the file replaces, struck through
    assert "https://old.example.org/" in page  # no web site in the file: the club keeps its own
    french = {"file": SimpleUploadedFile("clubs.csv", text.encode())}
    page = client.post(url, french, headers={"accept-language": "fr"}).content.decode()
    assert "1 nouveau club." in page and "1 club déjà présent." in page


def test_a_director_may_not_import_clubs(client: Client) -> None:
    client.force_login(make_director())
    assert client.get(reverse("admin:ratings_club_import")).status_code == 403


def test_officer_adds_a_club_with_its_members_in_the_admin(client: Client) -> None:
    client.force_login(make_rating_officer())
    player = make_player()
    response = client.post(
        reverse("admin:ratings_club_add"),
        {
            "name": "Kyoto Kai",
            "country": "JP",
            "city": "",
            "website": "",
            "memberships-TOTAL_FORMS": "1",
            "memberships-INITIAL_FORMS": "0",
            "memberships-0-player": str(player.pk),
            "memberships-0-since": "2026-01-01",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert clubs_on([player.pk], dt.date(2026, 6, 1))[player.pk].name == "Kyoto Kai"
    again = client.post(
        reverse("admin:ratings_club_add"),
        {"name": "KYOTO kai", "country": "JP", "memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0"},
    )
    assert again.status_code == 200
    assert "already" in again.content.decode()


def test_the_api_answers_clubs_rankings_and_a_club(client: Client) -> None:
    lyon = club()
    player = seasoned(1900)
    club_membership_set(player=player, club=lyon, since=JAN)
    clubs = client.get(reverse("api-v1:clubs")).json()
    assert clubs["top"] == 5
    assert clubs["results"] == [
        {"rank": None, "key": str(lyon.pk), "name": lyon.name, "country": "FR", "players": 1, "average": None}
    ]
    detail = client.get(reverse("api-v1:club", args=[lyon.pk])).json()
    assert detail["club"]["name"] == lyon.name
    assert [m["federation_id"] for m in detail["members"]] == [player.federation_id]
    assert client.get(reverse("api-v1:club", args=[lyon.pk + 1])).status_code == 404
    assert client.get(reverse("api-v1:countries")).json()["results"][0]["key"] == "FR"
    assert client.get(reverse("api-v1:clubs"), {"country": "FR"}).status_code == 400


def test_the_admins_club_list_filters_by_the_countries_that_have_clubs(client: Client) -> None:
    club(), club("Kyoto Kai", "JP")
    client.force_login(make_rating_officer())
    page = client.get(reverse("admin:ratings_club_changelist")).content.decode()
    assert "country=FR" in page and "country=JP" in page
    assert "country=DE" not in page and "Germany" not in page  # not the world's 250 countries


def test_clubs_are_ordered_by_name_as_read_whatever_the_accents() -> None:
    for name in ("Trondheim Shogi", "Ōsaka Shogi-kai", "Tōkyō Shogi", "Zürich Shogi", "Oslo Shogi"):
        club(name)
    assert [name for _, name in club_choices()] == [
        "Ōsaka Shogi-kai", "Oslo Shogi", "Tōkyō Shogi", "Trondheim Shogi", "Zürich Shogi"
    ]  # fmt: skip
    assert [g.name for g in club_ranking()] == [name for _, name in club_choices()]  # none ranked: by name


def test_the_rankings_say_which_players_they_count(client: Client) -> None:
    lyon = club()
    club_membership_set(player=seasoned(1800), club=lyon, since=JAN)
    club_membership_set(player=seasoned(1700, games=12), club=lyon, since=JAN)  # provisional: not counted
    assert [g.players for g in club_ranking()] == [1]
    for name in ("ratings:clubs", "ratings:countries"):
        page = client.get(reverse(name)).content.decode()
        assert "Established players</abbr>" in page and "in the last two years" in page
