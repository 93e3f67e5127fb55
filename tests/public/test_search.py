"""The player search of every page: accents, case and German spellings ignored, one match goes to the page."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from ratings.models import Player, name_fold_key
from ratings.selectors.search import name_matches, player_search
from tests.factories import make_player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "key"),
    [("Müller", "muller"), ("Mueller", "muller"), ("MULLER", "muller"), ("Straße", "strase"), ("Schäfer", "schafer")],
)
def test_name_fold_key_folds_german_spellings(text: str, key: str) -> None:
    assert name_fold_key(text) == key


@pytest.mark.parametrize("query", ["mueller", "muller", "Müller", "MÜLLER", "muel"])
def test_search_finds_every_spelling_of_mueller(query: str) -> None:
    umlaut, spelt, plain = make_player("Müller", "Anna"), make_player("Mueller", "Jan"), make_player("Muller", "Eva")
    make_player("Meier", "Max")
    found = {p.pk for p in player_search(query).players}
    assert found == {umlaut.pk, spelt.pk, plain.pk}


def test_search_key_is_stored_folded_as_a_query_is() -> None:
    player = make_player("Straße-Mueller", "Anna")
    assert Player.objects.get(pk=player.pk).search_name == name_fold_key("Straße-Mueller Anna") == "strase-muller anna"


def test_search_shows_the_highest_rated_first_and_says_there_are_more() -> None:
    for rating in (1500, 1700, 1600, 1650):
        make_player("Meier", f"R{rating}", rating=rating, games=10)
    make_player("Maier", "Other", rating=2000, games=10)
    result = player_search("meier", limit=3)
    assert [p.rating for p in result.players] == [1700, 1650, 1600]
    assert result.more


def test_search_matches_every_word_and_the_federation_id() -> None:
    anna, _ = make_player("Müller", "Anna"), make_player("Müller", "Jan")
    assert [p.pk for p in player_search("anna mueller").players] == [anna.pk]
    assert [p.pk for p in player_search(anna.federation_id.lower()).players] == [anna.pk]
    assert player_search("   ").players == []


def test_search_finds_rows_written_without_a_search_key() -> None:
    Player.objects.bulk_create([Player(family_name="Wiethölter", given_name="Frederik", federation_id="ZZZZ2222")])
    assert [p.federation_id for p in player_search("Wiethölter").players] == ["ZZZZ2222"]


def test_rating_list_name_filter_uses_the_same_rule() -> None:
    umlaut = make_player("Müller", "Anna")
    assert list(name_matches(Player.objects.all(), "mueller")) == [umlaut]


def test_search_with_one_match_goes_to_the_players_page(client: Client) -> None:
    player = make_player("Åberg", "Nils")
    response = client.get(reverse("ratings:search"), {"q": "aberg"})
    assert response.status_code == 302
    assert response["Location"] == reverse("ratings:player", args=[player.federation_id])


def test_search_with_namesakes_lists_them_told_apart(client: Client) -> None:
    french = make_player("Martin", "Paul", nationality="FR")
    german = make_player("Martin", "Paul", nationality="DE", residence="NL")
    other = make_player("Martinez", "Ana", nationality="ES")
    response = client.get(reverse("ratings:search"), {"q": "martin"})
    assert response.status_code == 200
    result = response.context["result"]
    assert result.namesakes == {french.pk, german.pk}
    html = response.content.decode()
    assert 'class="namesake"' in html
    assert f"{german.federation_id} · DE · lives in NL" in html
    assert other.federation_id in html


def test_search_without_a_match_says_so(client: Client) -> None:
    make_player("Åberg", "Nils")
    response = client.get(reverse("ratings:search"), {"q": "nobody"})
    assert response.status_code == 200
    assert "No player matches" in response.content.decode()


def test_the_search_finds_a_club_by_its_name_as_it_finds_players(client: Client) -> None:
    """A club secretary types his club's name in the search box: its page is one click away, accents and case
    ignored, beside any player the words also name; one player and no club still goes straight to the player."""
    from ratings.models import Club

    osaka = Club.objects.create(name="Ōsaka Shogi-kai", country="JP", city="Ōsaka")
    Club.objects.create(name="Kyōto Shogi-kai", country="JP")
    player = make_player("Osakabe", "Rin")
    response = client.get(reverse("ratings:search"), {"q": "OSAKA"})
    assert response.status_code == 200
    assert response.context["clubs"] == [osaka]
    html = response.content.decode()
    assert f'<a href="{reverse("ratings:club", args=[osaka.pk])}">Ōsaka Shogi-kai</a>' in html
    assert "Kyōto" not in html and player.federation_id in html
    assert "Ōsaka, Japan" in html  # where the club meets, as its page says it
    assert "One player matches. " in " ".join(html.split())  # one full stop: the sentence is whole in the catalogue
    only_player = client.get(reverse("ratings:search"), {"q": "osakabe"})
    assert only_player.status_code == 302
    nothing = client.get(reverse("ratings:search"), {"q": "shogi-kai kyoto"}).content.decode()
    assert "No player matches" in nothing and "Kyōto Shogi-kai</a>" in nothing


def test_the_search_says_when_more_clubs_match_than_it_shows(client: Client) -> None:
    from ratings.models import Club
    from ratings.selectors.search import CLUB_LIMIT

    for n in range(CLUB_LIMIT + 1):
        Club.objects.create(name=f"Shogi-kai {n:02d}", country="DE")
    response = client.get(reverse("ratings:search"), {"q": "shogi-kai"})
    assert [c.name for c in response.context["clubs"]] == [f"Shogi-kai {n:02d}" for n in range(CLUB_LIMIT)]
    html = response.content.decode()
    assert f"the first {CLUB_LIMIT} are shown" in html and f'<a href="{reverse("ratings:clubs")}">All clubs</a>' in html
    Club.objects.filter(name=f"Shogi-kai {CLUB_LIMIT:02d}").delete()
    assert "are shown" not in client.get(reverse("ratings:search"), {"q": "shogi-kai"}).content.decode()


def test_every_public_page_has_the_search_box(client: Client) -> None:
    for url in (reverse("ratings:rating_list"), reverse("ratings:tournaments"), reverse("ratings:search")):
        assert 'action="/search/"' in client.get(url).content.decode(), url


def test_postgresql_finds_names_through_the_trigram_index() -> None:
    """The index of migration 0027 is on the stored key the search compares, so PostgreSQL can use it."""
    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL index")
    make_player("Müller", "Anna")
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'ratings_player'")
        assert "ratings_player_search_trgm" in {name for (name,) in cursor.fetchall()}
        # A table this small is read whole otherwise, or walked in the name index's order: ask the planner
        # for the bitmap scans an index on the search's expression makes possible.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_indexscan = off")
    plan = name_matches(Player.objects.order_by(), "mueller").explain()
    assert "ratings_player_search_trgm" in plan


@pytest.mark.parametrize(("query", "family"), [("devries", "de Vries"), ("vandermeer", "van der Meer")])
def test_search_finds_a_family_name_of_several_words_typed_as_one(query: str, family: str) -> None:
    wanted = make_player(family, "Jan")
    make_player("Vries", "Anna")
    assert [p.pk for p in player_search(query).players] == [wanted.pk]


def test_the_search_says_how_many_it_shows_when_more_players_match(client: Client) -> None:
    from ratings.selectors.search import SEARCH_LIMIT

    for n in range(SEARCH_LIMIT + 1):
        make_player("Tanaka", f"Given{n:02d}")
    english = " ".join(client.get(reverse("ratings:search"), {"q": "tanaka"}).content.decode().split())
    assert f"The first {SEARCH_LIMIT} players who match are shown: add a given name or a country" in english
    japanese = client.get(reverse("ratings:search"), {"q": "tanaka"}, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f"該当する最初の {SEARCH_LIMIT} 人の選手を表示しています。" in japanese and "ます." not in japanese
