"""Head-to-head: two players' games against each other, on a page reached from either player and any game, and
in the API."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from ratings.engine.expectation import expected_score
from ratings.models import GameResult, Table
from ratings.selectors.head_to_head import head_to_head, opponents_of
from tests.factories import add_game, make_player, make_table
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db


def test_expected_score_is_the_elo_expectation() -> None:
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(1 / (1 + 10 ** (-1)))
    assert expected_score(0, 200000) == 0.0


@pytest.fixture
def met(rate: Callable[[Table], Table]):  # type: ignore[no-untyped-def]
    a, b, c = seasoned(1800, family_name="Ando"), seasoned(1600, family_name="Baba"), seasoned(1500)
    first = make_table([a, b, c], date=days_ago(20))
    add_game(first, 1, a, b)  # a wins
    add_game(first, 2, b, c)
    rate(first)
    second = make_table([a, b], date=days_ago(10))
    add_game(second, 1, b, a, GameResult.DRAW)
    add_game(second, 2, a, b, GameResult.SECOND_WON)
    rate(second)
    draft = make_table([a, b], date=days_ago(5))  # a draft: not public
    add_game(draft, 1, a, b)
    return a, b, c, first, second


def test_head_to_head_scores_each_game_from_the_first_players_side(met) -> None:  # type: ignore[no-untyped-def]
    a, b, c, first, second = met
    h2h = head_to_head(a, b)
    assert [(g.table, g.round, g.score) for g in h2h.games] == [(first, 1, 1.0), (second, 1, 0.5), (second, 2, 0.0)]
    assert (h2h.score_a, h2h.score_b, h2h.wins, h2h.draws, h2h.losses) == (1.5, 1.5, 1, 1, 1)
    assert h2h.games[0].rating_a == 1800 and h2h.games[0].rating_b == 1600
    # the explanation's own expectation: the opponent's rating the engine used (after the table, R2)
    detail = a.rating_rows.get(table=first).detail
    assert h2h.games[0].expected == next(d["expected"] for d in detail if d["opponent"] == b.pk)
    assert h2h.games[0].expected == pytest.approx(expected_score(1800, 1600), abs=0.01)
    assert h2h.expected_a is not None and 1.5 < h2h.expected_a < 3
    other_side = head_to_head(b, a)
    assert (other_side.score_a, other_side.wins) == (1.5, 1)
    assert [(o.player, o.games, o.points, o.against) for o in opponents_of(a)] == [(b, 3, 1.5, 1.5)]
    assert head_to_head(a, c).games == []


def test_the_page_is_reached_from_either_player_and_any_game(client: Client, met) -> None:  # type: ignore[no-untyped-def]
    a, b, _c, first, _second = met
    url = reverse("ratings:head_to_head", args=[a.federation_id, b.federation_id])
    page = client.get(url).content.decode()
    assert "1.5 – 1.5" in page or "1½ – 1½" in page
    assert reverse("ratings:table", args=[first.pk]) in page
    assert f">{first.label}</a>" in page and str(first) not in page  # its date in its own column, not twice
    opponents = client.get(reverse("ratings:opponents", args=[a.federation_id])).content.decode()
    assert url in opponents and "1½&nbsp;–&nbsp;1½" in opponents  # the score the link promises
    assert (
        reverse("ratings:opponents", args=[a.federation_id])
        in client.get(reverse("ratings:player", args=[a.federation_id])).content.decode()
    )
    game_page = client.get(reverse("ratings:player_table", args=[a.federation_id, first.pk])).content.decode()
    assert url in game_page
    assert client.get(reverse("ratings:head_to_head", args=[a.federation_id, a.federation_id])).status_code == 404
    assert client.get(reverse("ratings:head_to_head", args=[a.federation_id, "NOSUCHID"])).status_code == 404


def test_the_api_answers_a_head_to_head(client: Client, met) -> None:  # type: ignore[no-untyped-def]
    a, b, _c, first, _second = met
    answer = client.get(reverse("api-v1:head_to_head", args=[a.federation_id, b.federation_id])).json()
    assert (answer["score"], answer["opponent_score"], answer["wins"]) == (1.5, 1.5, 1)
    assert answer["player"]["federation_id"] == a.federation_id
    assert answer["games"][0]["table"] == first.pk and answer["games"][0]["score"] == 1.0
    assert client.get(reverse("api-v1:head_to_head", args=[a.federation_id, "NOSUCHID"])).status_code == 404
    assert (
        client.get(reverse("api-v1:head_to_head", args=[a.federation_id, b.federation_id]), {"x": "1"}).status_code
        == 400
    )


def test_player_and_head_to_head_pages_speak_of_any_player_alike(client: Client, met) -> None:  # type: ignore[no-untyped-def]
    """The texts name the player or say "the player", never "his": a player may be a woman."""
    a, b, *_ = met
    pages = [
        client.get(reverse("ratings:player", args=[a.federation_id])),
        client.get(reverse("ratings:head_to_head", args=[a.federation_id, b.federation_id])),
    ]
    for page in pages:
        assert page.status_code == 200
        text = re.sub(r"<[^>]+>", " ", page.content.decode().split("<main", 1)[1])
        assert not re.search(r"\b(his|him|he)\b", text, re.IGNORECASE), re.findall(r".{40}\b[Hh]is\b.{40}", text)


def test_a_newcomers_first_game_has_no_expected_score(rate: Callable[[Table], Table]) -> None:
    """Rated by performance from no rating at all (0 before the table): no score was expected of him."""
    new, old = make_player("Newcomer"), seasoned(1339, family_name="Old")
    table = make_table([new, old], date=days_ago(10))
    add_game(table, 1, new, old)
    rate(table)
    game = head_to_head(new, old).games[0]
    assert (game.score, game.rating_a, game.expected) == (1.0, 0, None)
    assert head_to_head(new, old).expected_a is None
