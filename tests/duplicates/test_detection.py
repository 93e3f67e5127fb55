"""Which names are likely the same person: accents, case, word order, one edit; never across two countries."""

from __future__ import annotations

import pytest

from ratings.selectors.duplicates import NameKey, duplicate_pairs, duplicates_of, names_alike
from tests.factories import add_game, make_player, make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("Lemaître", "Pierre"), ("LEMAITRE", "pierre")),  # accents and case
        (("Müller", "Jörg"), ("Mueller", "Joerg")),  # German spellings
        (("Rossi", "Mateo"), ("Mateo", "Rossi")),  # swapped
        (("Rossi", "Mateo"), ("Rossi", "Matteo")),  # a letter added
        (("Rossi", "Matteo"), ("Rosis", "Matteo")),  # two letters swapped
        (("Andersson", "Erik"), ("Andersen", "Erik")),  # a letter changed
        (("Van Damme", "Jan"), ("Vandamme", "Jan")),  # a space dropped
    ],
)
def test_alike(a: tuple[str, str], b: tuple[str, str]) -> None:
    assert names_alike(NameKey.of(*a), NameKey.of(*b))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("Rossi", "Mateo"), ("Rossi", "Marco")),  # two edits
        (("Li", "Wu"), ("Li", "Wa")),  # short names one letter apart: mostly two people
        (("Rossi", "Mateo"), ("Bianchi", "Mateo")),
    ],
)
def test_not_alike(a: tuple[str, str], b: tuple[str, str]) -> None:
    assert not names_alike(NameKey.of(*a), NameKey.of(*b))


def test_duplicates_of_keeps_to_the_country_or_an_unknown_one() -> None:
    italian = make_player("Rossi", "Mateo", nationality="IT")
    unknown = make_player("Mateo", "Rossi", nationality="")
    make_player("Rossi", "Mateo", nationality="FR")
    make_player("Verdi", "Mateo", nationality="IT")
    assert set(duplicates_of("Rossi", "Matteo", "IT")) == {italian, unknown}
    assert len(duplicates_of("Rossi", "Matteo", "")) == 3  # unknown country: every country


def test_pairs_across_the_federation_leave_out_merged_players_and_those_who_met() -> None:
    a, b = make_player("Rossi", "Mateo", nationality="IT"), make_player("Rossi", "Matteo", nationality="IT")
    c, d = make_player("Lemaître", "Pierre"), make_player("Lemaitre", "Pierre")
    add_game(make_table([c, d]), 1, c, d)  # they played each other: two people
    make_player("Rossi", "Mattia", nationality="IT")  # two letters from Matteo
    pairs = duplicate_pairs()
    assert {(p.first.pk, p.second.pk) for p in pairs} == {(a.pk, b.pk)}
    b.merged_into = a
    b.save()
    assert duplicate_pairs() == []
