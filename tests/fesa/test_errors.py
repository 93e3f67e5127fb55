"""A reader's error: its English message, the template and values it keeps for the site's translation, and its
line numbers moved for a text read with lines put before it."""

from __future__ import annotations

from ratings.fesa_files.errors import FesaFileError, Phrase, gettext_noop
from ratings.fesa_files.turnering import read_turnering_checked

FRENCH = {
    "round %(round)s: cannot read the cell %(cell)r": "ronde %(round)s : case %(cell)r illisible",
    "the family name %(name)r holds %(kind)s (%(char)s)": "le nom %(name)r contient %(kind)s (%(char)s)",
    "a control character": "un caractère de contrôle",
    "no player lines": "aucune ligne de joueur",
}


def french(message: str) -> str:
    return FRENCH.get(message, message)


def test_an_error_keeps_its_template_and_values_and_reads_in_english() -> None:
    error = FesaFileError(
        "t.txt", 4, gettext_noop("round %(round)s: cannot read the cell %(cell)r"), {"round": 2, "cell": "7x"}
    )
    assert (error.template, error.params) == (
        "round %(round)s: cannot read the cell %(cell)r",
        {"round": 2, "cell": "7x"},
    )
    assert (error.message, str(error)) == (
        "round 2: cannot read the cell '7x'",
        "t.txt, line 4: round 2: cannot read the cell '7x'",
    )
    assert error.translated(french) == "ronde 2 : case '7x' illisible"


def test_a_message_without_values_is_translated_whole_and_keeps_a_percent_sign() -> None:
    assert FesaFileError("t.txt", None, "no player lines").translated(french) == "aucune ligne de joueur"
    assert FesaFileError("t.txt", None, "100% wrong").translated(french) == "100% wrong"  # not a template


def test_a_phrase_among_the_values_is_translated_too() -> None:
    [error] = read_turnering_checked("[T]\n[2020-05-01]\n1 [A\x07] [a] [0+]\n")[1]
    assert error.params is not None and isinstance(error.params["kind"], Phrase)
    assert error.message == "the family name 'A\\x07' holds a control character (U+0007)"
    assert error.translated(french) == "le nom 'A\\x07' contient un caractère de contrôle (U+0007)"


def test_moved_shifts_the_line_and_every_line_among_the_values_only() -> None:
    text = "[T]\n[2020-05-01]\n1 [A] [a] [2+ 3+]\n2 [B] [b] [1+ 0+]\n3 [C] [c] [0+ 1-]\n"
    [error] = read_turnering_checked(text)[1]
    assert error.message.startswith("round 1: A a (line 3) has '2+', B b (line 4) has '1+'")
    moved = error.moved(-2)
    assert moved.line == 1 and moved.message.startswith("round 1: A a (line 1) has '2+', B b (line 2) has '1+'")
    assert moved.params is not None and moved.params["round"] == 1  # a round is no line
    assert FesaFileError("t.txt", None, "no player lines").moved(-2).line is None
