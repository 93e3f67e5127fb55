"""Names in the files: control, invisible format and line-separator characters are refused with the line, and a
line separator inside a line never moves the line numbers after it (docs/fesa-files.md)."""

from __future__ import annotations

import pytest

from ratings.fesa_files.errors import FesaFileError, FesaFileErrors
from ratings.fesa_files.names import first_refused
from ratings.fesa_files.ratingliste import read_nye_spillere, read_ratingliste
from ratings.fesa_files.turnering import file_lines, read_turnering
from ratings.services.fesa.tables import read_upload_checked

from .data import case_dir

TABLE = "[Cup]\n[2016-01-07]\n1 [Ishikawa] [Musashi] [2+]\n2 [Ould Ahmed] [Samy] [1-]\n"


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("Ab\u202eel", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("Ab\u2067el", "U+2067 RIGHT-TO-LEFT ISOLATE"),
        ("Ab\u200bel", "U+200B ZERO WIDTH SPACE"),
        ("Ab\u200del", "U+200D ZERO WIDTH JOINER"),
        ("Ab\ufeffel", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("Ab\u2028el", "U+2028 LINE SEPARATOR"),
        ("Ab\u2029el", "U+2029 PARAGRAPH SEPARATOR"),
        ("Ab\tel", "U+0009"),
        ("Ab\x00el", "U+0000"),
        ("Ab\x85el", "U+0085"),
    ],
)
def test_a_name_with_a_hidden_or_control_character_is_refused_naming_it(name: str, named: str) -> None:
    refused = first_refused(name)
    assert refused is not None and refused[0].startswith(named)


@pytest.mark.parametrize("name", ["Åberg", "Wiethölter", "O'Neil-Smith", "羽生 善治", "عبد الله", "Ngô Bảo Châu"])
def test_names_in_any_script_are_accepted(name: str) -> None:
    assert first_refused(name) is None


def test_a_line_separator_in_a_turnering_line_keeps_the_later_line_numbers() -> None:
    """U+2028, U+0085 and a form feed end no line: the error of the fourth line is reported on line 4."""
    text = "[Cup\u2028 2016\x85 final\x0c]\n[2016-01-07]\n1 [Ishikawa] [Musashi] [2+]\n2 [Ould Ahmed] [Samy] [1-(+Q)]\n"
    with pytest.raises(FesaFileErrors) as refused:
        read_turnering(text)
    lines = [(e.line, e.message) for e in refused.value.errors]
    assert lines[0][0] == 1 and "U+2028 LINE SEPARATOR" in lines[0][1] and "table's name" in lines[0][1]
    assert [line for line, _ in lines[1:]] == [4]


def test_file_lines_end_at_newlines_only() -> None:
    assert file_lines("a\u2028b\r\nc\x0bd\x1ce\nf") == ["a\u2028b", "c\x0bd\x1ce", "f"]


@pytest.mark.parametrize(
    ("field", "line"),
    [("family name", "2 [Ould\u202eAhmed] [Samy] [1-]"), ("given name", "2 [Ould Ahmed] [Sa\u200bmy] [1-]")],
)
def test_a_player_line_with_such_a_name_is_refused_with_its_line_and_field(field: str, line: str) -> None:
    with pytest.raises(FesaFileError) as refused:
        read_turnering(TABLE.replace("2 [Ould Ahmed] [Samy] [1-]", line))
    errors = getattr(refused.value, "errors", [refused.value])
    assert any(e.line == 4 and f"the {field}" in e.message for e in errors)


def test_nye_spillere_with_such_a_name_is_refused_with_its_line() -> None:
    text = '(\n("Neu" "Otto" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 0 "" 0 0 nil)\n'
    text += '("Alt\u202e" "Anna" (#S(HOME :list #\\E :nationality "FR" :residens "FR")) 0 "" 0 0 nil)\n)\n'
    with pytest.raises(FesaFileError) as refused:
        read_nye_spillere(text)
    assert (refused.value.file, refused.value.line) == ("nye-spillere", 3)
    # The name is shown with the character escaped: visible, and unable to reorder the message around it.
    assert "the family name 'Alt\\u202e' holds an invisible format character (U+202E" in refused.value.message


@pytest.mark.parametrize("keep_text", [False, True])
def test_a_ratingliste_with_such_a_name_is_refused_with_its_line(keep_text: bool) -> None:
    text = (case_dir("sample-2016-01-07") / "ratingliste.pre").read_bytes().decode("iso-8859-1")
    text = text.replace('"Hebert"', '"Heb\x07ert"')
    with pytest.raises(FesaFileError) as refused:
        read_ratingliste(text, keep_text=keep_text)
    assert (refused.value.line, "LAST-NAME 'Heb\\x07ert' holds a control character (U+0007") == (
        3,
        refused.value.message[: len("LAST-NAME 'Heb\\x07ert' holds a control character (U+0007")],
    )


def test_an_upload_numbers_its_lines_as_the_reader_does() -> None:
    """The upload's own check of control characters counts lines at newlines only, as the reader does: a
    U+2028 in the table's name line leaves the bell on line 4 reported on line 4."""
    text = "[Cup\u2028Final]\n[2016-01-07]\n1 [Ishikawa] [Musashi] [2+]\n2 [Ould Ahmed] [Samy] [1-] \x07\n"
    _table, problems = read_upload_checked(text.encode("utf-8"), "turnering.txt")
    assert [(p.line, "U+2028" in p.message or "U+0007" in p.message) for p in problems] == [(1, True), (4, True)]
