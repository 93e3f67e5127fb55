"""Markup written in Python for speed (ratings/templatetags/ratings_public.py, ratings/widgets.py) is the markup
Django's templates wrote before."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django import forms
from django.template import Context, Template

from ratings.filters import DateInput
from ratings.selectors.search import player_search
from ratings.templatetags.ratings_public import search_rows
from ratings.widgets import QuickSelect, QuickTextInput
from tests.factories import make_player

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
