"""The players' accent-free search key (ratings/models.py)."""

from __future__ import annotations

import pytest

from ratings.models import Player, name_search_key
from tests.factories import make_player


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Åberg Nils", "aberg nils"),
        ("Wiethölter  Frederik", "wietholter frederik"),
        ("Pagès Jérémy", "pages jeremy"),
        ("Ørsted Søren", "orsted soren"),
        ("Straße", "strasse"),
        ("Łukasz Ćwik", "lukasz cwik"),
        ("Œuvre Æsir", "oeuvre aesir"),
        ("LE HECHO LADJAL Younès", "le hecho ladjal younes"),
        (" Van der  MEER\tJan ", "van der meer jan"),
    ],
)
def test_name_search_key_drops_accents_and_case(name: str, key: str) -> None:
    assert name_search_key(name) == key


@pytest.mark.django_db
def test_player_save_keeps_the_search_key_up_to_date() -> None:
    player = make_player("Åberg", "Nils")
    assert Player.objects.get(pk=player.pk).search_name == "aberg nils"
    player.family_name = "Öberg"
    player.save(update_fields=["family_name"])
    assert Player.objects.get(pk=player.pk).search_name == "oberg nils"
