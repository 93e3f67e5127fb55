"""Player, tournament and table names in the site's forms and the admin: control, invisible format (right-to-left
overrides, zero-width characters) and line-separator characters are refused on their field, the character named;
names in any script are kept (the files' readers refuse the same characters: tests/fesa/test_names.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from ratings.admin.forms.players import PlayerForm
from ratings.admin.forms.tournaments import TournamentForm
from ratings.models import Player, Tournament
from tests.factories import make_player, make_rating_officer, make_tournament

pytestmark = pytest.mark.django_db

HIDDEN = ["Rossi\u202eiss", "Ros\u200bsi", "Rossi\u2028", "Ro\tssi", "Rossi\u2066"]


@pytest.mark.parametrize("name", HIDDEN)
@pytest.mark.parametrize("field", ["family_name", "given_name"])
def test_a_player_name_with_a_hidden_character_is_refused_on_its_field(field: str, name: str) -> None:
    player = make_player("Rossi")
    setattr(player, field, name)
    with pytest.raises(ValidationError) as refused:
        player.full_clean()
    (message,) = refused.value.message_dict[field]
    assert "A name may not hold U+" in message


@pytest.mark.parametrize("field", ["name", "city"])
def test_a_tournament_name_or_city_with_a_right_to_left_override_is_refused(field: str) -> None:
    tournament = make_tournament("Paris Open", date=dt.date(2024, 5, 4))
    setattr(tournament, field, "Paris \u202enepO")
    with pytest.raises(ValidationError) as refused:
        tournament.full_clean()
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in refused.value.message_dict[field][0]


@pytest.mark.parametrize("name", ["Åberg", "羽生", "عبد الله", "Ngô Bảo Châu", "O'Neil-Smith"])
def test_names_in_any_script_are_kept(name: str) -> None:
    player = make_player(name)
    player.full_clean()
    assert Player.objects.get(pk=player.pk).family_name == name


def test_the_desks_forms_show_the_error_on_the_field() -> None:
    form = PlayerForm(data={"family_name": "Ros\u200bsi", "given_name": "Anna", "nationality": "IT"})
    assert not form.is_valid()
    assert "U+200B ZERO WIDTH SPACE" in form.errors["family_name"][0]
    data = {"name": "Cup\u2029Final", "country": "FR", "start_date": "2024-05-04", "end_date": "2024-05-04"}
    tournament = TournamentForm(data=data)
    assert not tournament.is_valid()
    assert "U+2029 PARAGRAPH SEPARATOR" in tournament.errors["name"][0]
    assert not Tournament.objects.exists()


def test_the_admin_refuses_such_a_name_and_saves_nothing(client: Client) -> None:
    player = make_player("Rossi", given_name="Anna")
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_player_change", args=[player.pk])
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, list | tuple)}
    data.update({"family_name": "Rossi\u202e", "given_name": "Anna", "nationality": "IT"})
    response = client.post(url, data)
    assert response.status_code == 200  # the form again, with its errors
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in str(response.context["adminform"].form.errors["family_name"])
    player.refresh_from_db()
    assert player.family_name == "Rossi"
