"""Who sees a player's date of birth in the admin, and the rating officer's export and erasure actions."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from ratings.models import Player, PrivacyAction
from tests.factories import make_director, make_grade_officer, make_player, make_rating_officer, make_user

pytestmark = pytest.mark.django_db

BIRTH = dt.date(1979, 3, 14)
# However the admin would print it: ISO, localised, or as the year alone in a date hierarchy.
BIRTH_SPELLINGS = ("1979-03-14", "14/03/1979", "14.03.1979", "March 14, 1979", "14 March 1979", "1979")
OTHERS = [make_director, make_grade_officer]


def _shows_birth(html: str) -> bool:
    # As a word of its own: random text on the page (a CSRF token, a federation id) may hold "1979" by chance.
    return any(re.search(rf"(?<![\w-]){re.escape(spelling)}(?![\w-])", html) for spelling in BIRTH_SPELLINGS)


@pytest.fixture
def player() -> Player:
    return make_player("Tanaka", "Hiro", date_of_birth=BIRTH)


@pytest.mark.parametrize("role", OTHERS, ids=["director", "grade-officer"])
def test_other_roles_never_see_the_date_of_birth(client: Client, player: Player, role: Callable[[], User]) -> None:
    client.force_login(role())
    pages = [
        reverse("admin:ratings_player_change", args=[player.pk]),
        reverse("admin:ratings_player_history", args=[player.pk]),
        reverse("admin:ratings_player_changelist"),
        reverse("admin:ratings_player_changelist") + "?q=Tanaka",
        reverse("admin:autocomplete") + "?app_label=ratings&model_name=tableentry&field_name=player&term=Tan",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "Tanaka" in response.content.decode(), url  # the page does show the player
        assert not _shows_birth(response.content.decode()), url


def test_the_add_form_asks_nobody_but_a_rating_officer_for_a_date_of_birth(client: Client) -> None:
    client.force_login(make_director())
    assert "date_of_birth" not in client.get(reverse("admin:ratings_player_add")).content.decode()
    client.force_login(make_rating_officer())
    assert "date_of_birth" in client.get(reverse("admin:ratings_player_add")).content.decode()


@pytest.mark.parametrize("role", OTHERS, ids=["director", "grade-officer"])
@pytest.mark.parametrize(
    "lookup", ["date_of_birth__year=1979", "date_of_birth=1979-03-14", "date_of_birth__gte=1979-01-01"]
)
def test_other_roles_cannot_probe_the_date_of_birth_with_a_filter(
    client: Client, player: Player, role: Callable[[], User], lookup: str
) -> None:
    client.force_login(role())
    assert client.get(reverse("admin:ratings_player_changelist") + "?" + lookup).status_code == 400


def test_a_rating_officer_sees_the_date_of_birth(client: Client, player: Player) -> None:
    client.force_login(make_rating_officer())
    html = client.get(reverse("admin:ratings_player_change", args=[player.pk])).content.decode()
    assert "1979-03-14" in html or "14/03/1979" in html


def _act(client: Client, action: str, players: list[Player], **extra: str) -> object:
    data = {"action": action, ACTION_CHECKBOX_NAME: [str(p.pk) for p in players], **extra}
    return client.post(reverse("admin:ratings_player_changelist"), data)


@pytest.mark.parametrize("role", OTHERS, ids=["director", "grade-officer"])
def test_other_roles_are_not_offered_the_privacy_actions(
    client: Client, player: Player, role: Callable[[], User]
) -> None:
    client.force_login(role())
    html = client.get(reverse("admin:ratings_player_changelist")).content.decode()
    assert "erase_personal_data" not in html and "export_personal_data" not in html
    _act(client, "erase_personal_data", [player], confirmed="yes")
    _act(client, "export_personal_data", [player], confirmed="yes")
    player.refresh_from_db()
    assert player.family_name == "Tanaka"
    assert not PrivacyAction.objects.exists()


def test_erasure_asks_for_confirmation_then_erases(client: Client, player: Player) -> None:
    officer = make_rating_officer()
    client.force_login(officer)
    page = _act(client, "erase_personal_data", [player])
    assert page.status_code == 200  # type: ignore[attr-defined]
    assert 'name="confirmed"' in page.content.decode()  # type: ignore[attr-defined]
    player.refresh_from_db()
    assert player.family_name == "Tanaka"

    done = _act(client, "erase_personal_data", [player], confirmed="yes")
    assert done.status_code == 302  # type: ignore[attr-defined]
    player.refresh_from_db()
    assert (player.family_name, player.date_of_birth) == (f"Erased player {player.pk}", None)
    assert PrivacyAction.objects.get().done_by == officer


def test_export_asks_for_confirmation_then_downloads_the_document(client: Client, player: Player) -> None:
    client.force_login(make_user(superuser=True))
    page = _act(client, "export_personal_data", [player])
    assert 'name="confirmed"' in page.content.decode()  # type: ignore[attr-defined]
    assert not PrivacyAction.objects.exists()
    download = _act(client, "export_personal_data", [player], confirmed="yes")
    assert download["Content-Disposition"] == f'attachment; filename="personal-data-{player.federation_id}.json"'  # type: ignore[index]
    document = json.loads(download.content)  # type: ignore[attr-defined]
    assert document["player"]["date_of_birth"] == "1979-03-14"
    assert PrivacyAction.objects.get().kind == PrivacyAction.Kind.EXPORT


def test_the_actions_take_one_player_at_a_time(client: Client, player: Player) -> None:
    client.force_login(make_rating_officer())
    other = make_player("Ames")
    _act(client, "erase_personal_data", [player, other], confirmed="yes")
    assert set(Player.objects.values_list("family_name", flat=True)) == {"Tanaka", "Ames"}
    assert not PrivacyAction.objects.exists()


def test_the_record_of_privacy_actions_is_for_rating_officers_only(client: Client, player: Player) -> None:
    url = reverse("admin:ratings_privacyaction_changelist")
    client.force_login(make_director())
    assert client.get(url).status_code == 403
    client.force_login(make_rating_officer())
    assert client.get(url).status_code == 200
