"""The rows of the search, of a tournament's tables and of the django-tables2 tables (tournaments, pending
promotions), written by the pages' templates: each cell as readers need it, names told apart, text escaped."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from ratings.engine import grade_label
from ratings.models import GameResult, Promotion, Table, TableStatus
from tests.factories import add_game, make_player, make_table, make_tournament
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db

NAMESAKE = 'title="Another player has this name"'


def body_rows(client: Client, url: str, query: dict[str, str] | None = None) -> str:
    """The rows of the page's tables, white space as a browser reads it: runs of it as one, none between tags
    of a row (the cells' and rows' line breaks show nothing)."""
    response = client.get(url, query or {})
    assert response.status_code == 200
    bodies = re.findall(r"<tbody[^>]*>(.*?)</tbody>", response.content.decode(), flags=re.DOTALL)
    html = re.sub(r"\s+", " ", " ".join(bodies))
    return re.sub(r"\s*(</?(?:tr|td|th)\b[^>]*>)\s*", r"\1", html).strip()


def test_search_rows_write_each_players_cells(client: Client) -> None:
    paul_fr = make_player("Martin", "Paul", nationality="FR")
    paul_de = make_player("Martin", "Paul", nationality="DE", residence="NL")
    pro = make_player("Martinez", "Ana <b>", nationality="ES", is_professional=True)
    eva = make_player("Martins", "Eva", nationality="PT", residence="PT", games=12, rating=1234, grade=14)
    rows = body_rows(client, reverse("ratings:search"), {"q": "martin"})
    assert rows.count("<tr>") == 4
    fr, de, es, pt = (p.federation_id for p in (paul_fr, paul_de, pro, eva))
    assert (
        f'<tr><th scope="row"><a href="/players/{de}/">MARTIN Paul</a> <span class="namesake" {NAMESAKE}>'
        f'{de} · DE · lives in NL</span></th><td class="minor">{de}</td>'
        '<td><abbr title="Germany">DE</abbr> <span class="minor">(lives in NL)</span></td>'
        '<td class="num">–</td><td>–</td><td class="minor">–</td></tr>'
    ) in rows
    assert f'<span class="namesake" {NAMESAKE}>{fr} · FR</span></th>' in rows
    assert (
        f'<th scope="row"><a href="/players/{es}/">MARTINEZ Ana &lt;b&gt;</a> <span class="minor">professional</span>'
        f'</th><td class="minor">{es}</td><td><abbr title="Spain">ES</abbr></td>'
    ) in rows
    assert (
        f'<th scope="row"><a href="/players/{pt}/">MARTINS Eva</a></th><td class="minor">{pt}</td>'
        f'<td><abbr title="Portugal">PT</abbr></td><td class="num">1234</td><td>{grade_label(14)}</td>'
    ) in rows  # living in his own country: no "lives in", no namesake


def test_search_rows_write_a_latin_name_beside_the_name(client: Client) -> None:
    yamada = make_player("山田", "太郎", latin_family_name="Yamada", latin_given_name="Taro", nationality="JP")
    make_player("Yamada", "Hanako", nationality="JP")
    rows = body_rows(client, reverse("ratings:search"), {"q": "yamada"})
    assert (
        f'<a href="/players/{yamada.federation_id}/">山田 太郎 <span class="latin-name">(YAMADA Taro)</span></a>'
    ) in rows


def test_standings_rows_write_places_changes_and_the_crosstable(client: Client, rate: Callable[[Table], Table]) -> None:
    paul_fr = seasoned(1800, family_name="Martin", given_name="Paul", nationality="FR", grade=14)
    paul_de = seasoned(1700, family_name="Martin", given_name="Paul", nationality="DE", residence="NL")
    yamada = seasoned(1600, family_name="山田", given_name="太郎", latin_family_name="Yamada", latin_given_name="Taro")
    newcomer = seasoned(1500, family_name="Beta <i>", nationality="", result_list=((1600, 1.0), (1700, 0.0)))
    absent = seasoned(1400, family_name="Absent")
    tournament = make_tournament("Open & Cup", date=days_ago(20))
    rated = make_table([paul_fr, paul_de, yamada, newcomer, absent], tournament=tournament, date=days_ago(20))
    add_game(rated, 1, paul_fr, paul_de, GameResult.SECOND_WON)
    add_game(rated, 1, yamada, newcomer, GameResult.DRAW, handicap="L", giver="first")
    add_game(rated, 2, paul_fr, yamada, played=False)
    add_game(rated, 2, newcomer, None, GameResult.BYE)
    add_game(rated, 2, absent, None, GameResult.ABSENT)
    rate(rated)
    waiting = make_table([paul_fr, yamada], tournament=tournament, date=days_ago(19), status=TableStatus.SUBMITTED)
    add_game(waiting, 1, yamada, paul_fr)
    rows = body_rows(client, reverse("ratings:tournament", args=[tournament.pk]))
    t = rated.pk
    de = paul_de.federation_id
    # Paul of Germany won round 1 against Paul of France (seat 1), whose name the cell's link gives; both have
    # one point: a shared place.
    assert (
        f'<tr id="t{t}-s2"><td class="num place"><strong>2–3</strong></td><td class="num minor seat">2</td>'
        f'<th scope="row"><a href="/players/{de}/">MARTIN Paul</a> <span class="namesake" {NAMESAKE}>'
        f'{de} · DE · lives in NL</span></th><td class="minor"><abbr title="Germany">DE</abbr></td>'
    ) in rows
    assert f'<a href="#t{t}-s1" title="{paul_fr}">' in rows
    change = f'<a href="/players/{de}/tables/{t}/" title="How the rating moved"><span class="win">+'
    assert change in rows
    assert f'<a href="#t{t}-s3" title="山田 太郎">3+</a><sup>ff</sup></td>' in rows  # round 2, not played
    assert '<span class="latin-name">(YAMADA Taro)</span>' in rows
    assert "BETA &lt;I&gt;" in rows and "<i>" not in rows
    assert f'<tr id="t{waiting.pk}-s1">' in rows  # the table waiting to be rated: its rows, without changes
    assert f"/tables/{waiting.pk}/" not in rows
    french = client.get(reverse("ratings:tournament", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    with translation.override("fr"):
        how, lives = gettext("How the rating moved"), gettext("lives in %(country)s") % {"country": "NL"}
    assert how != "How the rating moved" and f'title="{how}"' in french.content.decode()
    assert f"{de} · DE · {lives}</span>" in french.content.decode()  # the reader's language


def test_tournament_and_pending_promotion_rows_write_each_cell(
    client: Client, rated_round_robin: Callable[..., Table]
) -> None:
    a, b = seasoned(1900, family_name="Alpha", grade=20), seasoned(1500, family_name="Beta <i>")
    assert "No Dan promotion is waiting" in body_rows(client, reverse("ratings:promotions"))
    table = rated_round_robin([a, b], days_ago(10))
    Promotion.objects.create(
        player=a, grade=22, table=table, game_number=41, route="upper_bound", rating=1900, status="pending"
    )
    tournament = table.tournament
    bare = make_tournament("Bare", date=days_ago(9))
    bare.city, bare.country = "", ""
    bare.save()
    make_table([a, b], tournament=bare, date=days_ago(9), status=TableStatus.SUBMITTED)
    rows = body_rows(client, reverse("ratings:tournaments"))
    assert f'<a href="/tournaments/{bare.pk}/">Bare</a></td><td class="minor">—</td><td class="extra">—</td>' in rows
    assert (
        f'<td class="date">{table.date.isoformat()}</td><td><a href="/tournaments/{tournament.pk}/">'
        f'{tournament.name}</a></td><td class="minor">Paris</td><td class="extra"><abbr title="France">FR</abbr></td>'
        f'<td><ul class="plain"><li><a href="/tables/{table.pk}/">Table of {table.date.isoformat()}</a> '
        '<span class="minor">2 players</span></li></ul></td></tr>'
    ) in rows
    rows = body_rows(client, reverse("ratings:promotions"))
    assert f'<tr class="even"><td class="text"><a href="/players/{a.federation_id}/">ALPHA</a></td>' in rows
    assert (
        f'<td class="extra"><abbr title="France">FR</abbr></td><td class="pair"><span class="nowrap">'
        f'{grade_label(21)}</span> – <span class="nowrap">{grade_label(22)}</span></td>'
    ) in rows
    assert (  # on a phone, the date under the table's name, as its own column folds away
        f'<td class="text"><a href="/tournaments/{tournament.pk}/#table-{table.pk}">{tournament.name}</a>'
        f' <span class="minor narrow-only">{table.date.isoformat()}</span></td>'
        f'<td class="extra">{table.date.isoformat()}</td><td class="minor">reached the upper bound</td></tr>'
    ) in rows  # the table has no name of its own: no link to it beside the tournament's
