"""What a club's site may embed (ratings/web/views/embed.py): a player's badge and the top list, the only answers
another site may frame."""

from __future__ import annotations

from collections.abc import Callable
from xml.etree import ElementTree

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Player, Table
from tests.factories import make_player, make_table, round_robin
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(rate: Callable[[Table], Table]) -> list[Player]:
    players = [make_player("Tanaka", "Ken"), make_player("O'Brien <b>", "Seán", nationality="IE"), make_player()]
    table = make_table(players, date=days_ago(10))
    round_robin(table, players)
    rate(table)
    return [Player.objects.get(pk=p.pk) for p in players]


def test_badge_is_an_svg_with_the_players_name_and_rating(client: Client, rated: list[Player]) -> None:
    player = rated[1]
    response = client.get(reverse("ratings:player_badge", args=[player.federation_id]))
    assert response.status_code == 200 and response["Content-Type"].startswith("image/svg+xml")
    svg = ElementTree.fromstring(response.content)  # well-formed: the name's < and ' are escaped
    text = " ".join(t.text or "" for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    assert "O'BRIEN <B>" in text and "Seán" in text and "IE" in text
    assert response["ETag"] and "max-age" in response["Cache-Control"]


def test_badge_of_an_unknown_player_is_a_404(client: Client) -> None:
    assert client.get(reverse("ratings:player_badge", args=["NOBODY"])).status_code == 404


def test_top_list_shows_the_best_players_of_a_country(client: Client) -> None:
    # The top lists count established players (docs/rules.md §8).
    seasoned(1800, family_name="Tanaka", given_name="Ken", nationality="JP")
    seasoned(1700, family_name="O'Brien <b>", given_name="Seán", nationality="IE")
    page = client.get(reverse("ratings:embed_top") + "?country=IE&n=5").content.decode()
    assert "O&#39;BRIEN &lt;B&gt;" in page and "TANAKA" not in page
    assert client.get(reverse("ratings:embed_top") + "?country=ZZ").status_code == 404


@pytest.mark.parametrize("name", ["badge", "top"])
def test_only_the_embeds_may_be_framed_by_another_site(client: Client, rated: list[Player], name: str) -> None:
    url = (
        reverse("ratings:player_badge", args=[rated[0].federation_id])
        if name == "badge"
        else reverse("ratings:embed_top")
    )
    embed = client.get(url)
    assert "X-Frame-Options" not in embed
    assert "frame-ancestors *" in embed["Content-Security-Policy"]
    page = client.get(reverse("ratings:player", args=[rated[0].federation_id]))
    assert page["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in page["Content-Security-Policy"]


def test_the_data_licence_is_stated_on_the_downloads_the_api_docs_and_the_json_files(client: Client) -> None:
    from django.conf import settings

    downloads = client.get(reverse("downloads:index")).content.decode()
    assert f'href="{settings.DATA_LICENCE_URL}" rel="license"' in downloads
    docs = client.get(reverse("api-v1:docs")).content.decode()
    assert settings.DATA_LICENCE_NAME in docs and f'href="{reverse("ratings:rating_list")}"' in docs
    schema = client.get(reverse("api-v1:schema")).json()
    assert schema["info"]["license"] == {"name": settings.DATA_LICENCE_NAME, "url": settings.DATA_LICENCE_URL}
    assert "API_ANON_RATE" not in schema["info"]["description"]
    listed = client.get(reverse("ratings:rating_list_json")).json()
    assert listed["licence"] == {"name": settings.DATA_LICENCE_NAME, "url": settings.DATA_LICENCE_URL}


def test_the_badge_snippet_gives_screen_readers_the_player_and_a_link_to_his_rating(client: Client) -> None:
    """An empty alt told a screen reader the badge was decoration: the rating was not said at all."""
    page = client.get(reverse("downloads:index")).content.decode()
    snippet = page[page.index("&lt;a href=") : page.index("&lt;/a&gt;")]
    assert 'alt=""' not in snippet
    assert 'alt="FESA rating of PLAYER NAME"' in snippet
    assert "/players/FEDERATION-ID/&quot;&gt;" in snippet or '/players/FEDERATION-ID/"&gt;' in snippet
    assert "/players/FEDERATION-ID/badge.svg" in snippet
