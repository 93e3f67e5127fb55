"""The rule that takes a line of a turnering.txt as a player without asking (ratings/selectors/fesa_match.py):
the same names in plain Latin letters, and only one such player; anything else is the director's choice."""

from __future__ import annotations

import pytest

from ratings.selectors.fesa_match import PlayerIndex, name_spellings

SITE = [
    (1, "Zieliński", "Tomasz", "PL", 1800),
    (2, "Müller", "Birgit", "DE", 1700),
    (3, "Hébert", "Pascal", "FR", 1600),
    (4, "Strauß", "Jan", "AT", 1500),
    (5, "Kowalczyk", "Małgorzata", "PL", 1400),
    (6, "Ishikawa", "Musashi", "JP", 1300),
]


@pytest.mark.parametrize(
    ("text", "spellings"),
    [
        ("Müller", {"muller", "mueller"}),
        ("MÜLLER", {"muller", "mueller"}),
        ("Zieliński ", {"zielinski"}),
        ("Strauß", {"strauss"}),
        ("Bjørn  Åberg", {"bjorn aberg"}),
        ("Hébert", {"hebert"}),
        ("Citroën", {"citroen"}),  # ë is no German umlaut: one spelling
        ("Mu\u0308ller", {"muller", "mueller"}),  # a combining diaeresis, as some keyboards send it
        ("Mueller", {"mueller"}),
    ],
)
def test_name_spellings_fold_to_plain_latin_letters(text: str, spellings: set[str]) -> None:
    assert name_spellings(text) == spellings


@pytest.mark.parametrize(
    ("family", "given", "player"),
    [
        ("Zielinski", "Tomasz", 1),
        ("ZIELIŃSKI", "tomasz", 1),
        ("Muller", "Birgit", 2),
        ("Mueller", "Birgit", 2),
        ("Hebert", "Pascal", 3),
        ("Strauss", "Jan", 4),
        ("Kowalczyk", "Malgorzata", 5),
        ("Ishikawa", "Musashi", 6),
    ],
)
def test_a_name_in_the_same_plain_letters_is_taken_as_the_only_such_player(
    family: str, given: str, player: int
) -> None:
    match = PlayerIndex(SITE).match(family, given)
    assert match.taken is not None and match.taken.player_id == player
    assert match.taken.how == ("exact" if (family, given) == ("Ishikawa", "Musashi") else "spelling")


@pytest.mark.parametrize(
    ("family", "given", "how"),
    [
        ("Zielinsky", "Tomasz", "alike"),  # a letter changed: maybe a typo, maybe someone else
        ("Mullner", "Birgit", "alike"),
        ("Muler", "Birgit", "alike"),
        ("Birgit", "Müller", "swapped"),
        ("Tomasz", "Zielinski", "swapped"),
    ],
)
def test_a_name_close_but_different_is_offered_never_taken(family: str, given: str, how: str) -> None:
    match = PlayerIndex(SITE).match(family, given)
    assert match.taken is None and match.same == ()
    assert [c.how for c in match.close] == [how]


def test_players_who_read_the_same_are_namesakes_for_the_director_exact_spelling_first() -> None:
    index = PlayerIndex([*SITE, (7, "Muller", "Birgit", "FR", 1650), (8, "Mueller", "Birgit", "CH", 1200)])
    for family, same in (("Muller", [7, 2]), ("Müller", [2, 7, 8]), ("Mueller", [8, 2])):
        match = index.match(family, "Birgit")
        assert match.taken is None
        assert [c.player_id for c in match.same] == same
        assert match.same[0].how == "exact"


def test_a_new_player_of_the_nye_spillere_is_labelled_so_with_the_files_grade() -> None:
    index = PlayerIndex([], extra=[(-1, "N55", "", "JP", "3 Kyu"), (-2, "N56", "", "", "")])
    assert index.match("N55", "").taken.label == (  # type: ignore[union-attr]
        "N55 (JP) — new player from the nye-spillere file, prior grade in the file: 3 Kyu"
    )
    assert index.match("N56", "").taken.label == (  # type: ignore[union-attr]
        "N56 — new player from the nye-spillere file, no prior grade in the file"
    )
