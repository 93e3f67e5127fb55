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
from ratings.models import Promotion, Table
from ratings.selectors.search import player_search
from ratings.templatetags.ratings_public import search_rows
from ratings.web.filters import DateInput
from ratings.web.tables import PendingPromotionTable, TournamentTable
from ratings.web.widgets import QuickSelect, QuickTextInput
from tests.factories import make_player, make_tournament
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
