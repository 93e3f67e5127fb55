"""Markup written in Python for speed (ratings/templatetags/ratings_public.py, ratings/web/widgets.py) is the markup
Django's templates wrote before."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import pytest
from django import forms
from django.template import Context, Template
from django.template.loader import get_template
from django.test import RequestFactory

from ratings import selectors
from ratings.models import GameResult, Promotion, Table, TableStatus
from ratings.selectors.search import player_search
from ratings.selectors.tournaments import tournament_page
from ratings.templatetags.ratings_public import search_rows, standings_rows
from ratings.web.filters import DateInput
from ratings.web.tables import PendingPromotionTable, TournamentTable
from ratings.web.widgets import QuickSelect, QuickTextInput
from tests.factories import add_game, make_player, make_table, make_tournament
from tests.public.conftest import days_ago, seasoned

pytestmark = pytest.mark.django_db

# The search page's rows as templates/ratings/search.html wrote them before search_rows.
SEARCH_ROWS_TEMPLATE = """{% load i18n ratings_public %}{% for p in result.players %}
      <tr>
        <th scope="row">{% include "ratings/_player_name.html" with namesakes=result.namesakes %}{% if p.is_professional or p.prior_grade_kind == "pro" %} <span class="minor">{% translate "professional" %}</span>{% endif %}</th>
        <td class="minor">{{ p.federation_id }}</td>
        <td>{% if p.nationality %}<abbr title="{{ p.nationality.name }}">{{ p.nationality.code }}</abbr>{% endif %}{% if p.residence and p.residence != p.nationality %} <span class="minor">({% blocktranslate with country=p.residence.code %}lives in {{ country }}{% endblocktranslate %})</span>{% endif %}</td>
        <td class="num">{% if p.games %}{{ p.rating }}{% else %}–{% endif %}</td>
        <td>{{ p.grade|grade|default:"–" }}</td>
        <td class="minor">{{ p.last_played|date:"Y-m-d"|default:"–" }}</td>
      </tr>{% endfor %}"""  # noqa: E501


def test_search_rows_are_the_templates_rows() -> None:
    make_player("Martin", "Paul", nationality="FR")
    make_player("Martin", "Paul", nationality="DE", residence="NL")
    make_player("Martinez", "Ana <b>", nationality="ES", is_professional=True)
    make_player("Martins", "Eva", nationality="PT", residence="PT", games=12, rating=1234, grade=14)
    result = player_search("martin")
    assert len(result.players) == 4 and result.namesakes
    expected = Template(SEARCH_ROWS_TEMPLATE).render(Context({"result": result}))
    assert spaced(search_rows(result)) == spaced(expected)


# A tournament table's rows as templates/ratings/tournament_detail.html wrote them before standings_rows (with
# the classes the sticky columns have since).
STANDINGS_ROWS_TEMPLATE = """{% load i18n ratings_public %}{% with table=ts.crosstable.table %}{% for s in ts.standings %}{% with row=s.row %}
      <tr id="t{{ table.pk }}-s{{ row.seat }}">
        <td class="num place"><strong>{{ s.place_label }}</strong></td>
        <td class="num minor seat">{{ row.seat }}</td>
        <th scope="row">{% include "ratings/_player_name.html" with p=row.player namesakes=page.namesakes %}</th>
        <td class="minor">{% if row.player.nationality %}<abbr title="{{ row.player.nationality.name }}">{{ row.player.nationality.code }}</abbr>{% endif %}</td>
        <td class="minor">{{ row.grade|grade }}</td>
        <td class="num">{% if row.rating is not None %}{{ row.rating|rating_or_dash }}{% if row.starred %}*{% endif %}{% endif %}</td>
        <td class="num"><strong>{{ row.points|points }}</strong></td>
        <td class="num minor">{% if s.performance is not None %}{{ s.performance|rating_or_dash }}{% endif %}</td>
        <td class="num">{% if row.row %}<a href="{% url 'ratings:player_table' row.player.federation_id table.pk %}" title="{% translate 'How the rating moved' %}">{% if row.starred %}<span class="minor">{% translate "new" %}</span>{% else %}<span class="{% if row.change > 0 %}win{% elif row.change < 0 %}loss{% endif %}">{{ row.change|signed }}</span>{% endif %}</a>{% else %}{{ row.change|signed }}{% endif %}</td>
        <td class="num">{% if row.row %}{{ row.row.rating_after|rating_or_dash }}{% endif %}</td>
        {% for cell in row.cells %}
        <td class="cell {{ cell.outcome }}">{% if cell.opponent %}<a href="#t{{ table.pk }}-s{{ cell.opponent_seat }}" title="{{ cell.opponent }}">{{ cell.text }}</a>{% else %}{{ cell.text }}{% endif %}{% if not cell.played %}<sup>ff</sup>{% endif %}</td>
        {% endfor %}
      </tr>
    {% endwith %}{% endfor %}{% endwith %}"""  # noqa: E501


def test_standings_rows_are_the_templates_rows(rate: Callable[[Table], Table]) -> None:
    paul_fr = seasoned(1800, family_name="Martin", given_name="Paul", nationality="FR", grade=14)
    paul_de = seasoned(1700, family_name="Martin", given_name="Paul", nationality="DE", residence="NL")
    yamada = seasoned(1600, family_name="山田", given_name="太郎", latin_family_name="Yamada", latin_given_name="Taro")
    newcomer = seasoned(1500, family_name="Beta <i>", nationality="", result_list=((1600, 1.0), (1700, 0.0)))
    absent = seasoned(1400, family_name="Absent")
    players = [paul_fr, paul_de, yamada, newcomer, absent]
    tournament = make_tournament("Open & Cup", date=days_ago(20))
    rated = make_table(players, tournament=tournament, date=days_ago(20))
    add_game(rated, 1, paul_fr, paul_de, GameResult.SECOND_WON)
    add_game(rated, 1, yamada, newcomer, GameResult.DRAW, handicap="L", giver="first")
    add_game(rated, 2, paul_fr, yamada, played=False)
    add_game(rated, 2, newcomer, None, GameResult.BYE)
    add_game(rated, 2, absent, None, GameResult.ABSENT)
    rate(rated)
    waiting = make_table([paul_fr, yamada], tournament=tournament, date=days_ago(19), status=TableStatus.SUBMITTED)
    add_game(waiting, 1, yamada, paul_fr)
    page = tournament_page(tournament.pk)
    assert page.namesakes == {paul_fr.pk, paul_de.pk} and len(page.tables) == 2
    for ts in page.tables:
        expected = Template(STANDINGS_ROWS_TEMPLATE).render(Context({"ts": ts, "page": page}))
        assert spaced(standings_rows(ts, page.namesakes)) == spaced(expected)
    rated_html = standings_rows(page.tables[0], page.namesakes)
    assert "(YAMADA Taro)" in rated_html and "<sup>ff</sup>" in rated_html and "lives in NL" in rated_html


def test_search_rows_write_a_latin_name_as_the_template() -> None:
    make_player("山田", "太郎", latin_family_name="Yamada", latin_given_name="Taro")
    result = player_search("yamada")
    expected = Template(SEARCH_ROWS_TEMPLATE).render(Context({"result": result}))
    assert "latin-name" in expected
    assert spaced(search_rows(result)) == spaced(expected)


def spaced(html: str) -> str:
    """``html`` as a browser reads its spaces: runs of white space as one, none before a closing cell (the
    name's template ended with a line break)."""
    return re.sub(r"\s+", " ", html).replace(" </th>", "</th>").strip()


@pytest.mark.parametrize("value", ["", "1", "grp-a", None])
def test_quick_select_writes_what_django_writes(value: str | None) -> None:
    choices = [("", "any"), ("1", "1 <Kyu>"), ("Group", [("grp-a", "A & B"), ("grp-b", "B")])]
    attrs = {"id": "id_g", "required": True, "data-x": '"q"'}
    django = forms.Select(choices=choices, attrs=attrs).render("g", value)
    quick = QuickSelect(choices=choices, attrs=attrs).render("g", value)
    assert quick == "\n".join(line for line in django.splitlines() if line.strip())


@pytest.mark.parametrize("value", ["b&r", None, ""])
def test_quick_inputs_write_what_django_writes(value: str | None) -> None:
    attrs = {"type": "search", "placeholder": 'e.g. "x"', "id": "id_q", "maxlength": 100}
    assert QuickTextInput(attrs=attrs).render("q", value) == forms.TextInput(attrs=attrs).render("q", value)

    class Native(forms.DateInput):
        input_type = "date"

    day = dt.date(2024, 1, 2)
    assert DateInput().render("date", day) == Native(format="%Y-%m-%d").render("date", day)


def _page(table: Any, template: str) -> str:
    request = RequestFactory().get("/")
    table.paginate(page=1, per_page=25)
    html = spaced(get_template(template).render({"table": table, "request": request}))
    return re.sub(r"> <(/?)(td|tr|tbody)\b", r"><\1\2", html)  # white space between cells shows nothing


def test_table_rows_are_django_tables2s_rows(rated_round_robin: Callable[..., Table]) -> None:
    a, b = seasoned(1900, family_name="Alpha", grade=20), seasoned(1500, family_name="Beta <i>")
    table = rated_round_robin([a, b], days_ago(10))
    Promotion.objects.create(
        player=a, grade=22, table=table, game_number=41, route="upper_bound", rating=1900, status="pending"
    )
    make_tournament(date=days_ago(3))  # a tournament without a public table, an empty city
    for make in (
        lambda: PendingPromotionTable(selectors.pending_promotions()),
        lambda: TournamentTable(selectors.tournaments_list()),
    ):
        fast, slow = make(), make()
        assert fast.paginated_rows is not None
        assert _page(fast, "ratings/_quick_table.html") == _page(slow, "ratings/_table.html")
    empty = TournamentTable(selectors.tournaments_list().none())
    assert "No tournament matches" in _page(empty, "ratings/_quick_table.html")
