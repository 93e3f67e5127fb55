"""The Lisp reader and printer of the FESA state files."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.lisp import NIL, Char, Struct, Symbol, T, print_form, read_list_items, read_one


def test_read_one_structure_with_keywords_is_case_insensitive() -> None:
    form = read_one('#s(home :list #\\E :Nationality "JP" :residens "JP")', "f")
    assert form == Struct("HOME", (("LIST", Char("E")), ("NATIONALITY", "JP"), ("RESIDENS", "JP")))


def test_read_one_numbers_ratios_and_symbols() -> None:
    assert read_one("(1740 1/2 -3 nil t Foo :lb)", "f") == [
        1740,
        Fraction(1, 2),
        -3,
        NIL,
        T,
        Symbol("FOO"),
        Symbol("LB", True),
    ]


def test_read_one_string_escapes_take_the_next_character() -> None:
    assert read_one(r'"a \"b\" \\ c"', "f") == 'a "b" \\ c'


def test_read_one_skips_comments_and_empty_list_prints_as_nil() -> None:
    form = read_one("; a comment\n(  ) ; trailing\n", "f")
    assert form == []
    assert print_form(form) == "NIL"


def test_print_form_writes_what_was_read() -> None:
    text = '#S(PLAYER :NAME "O\\"Neil" :GAMES ((1740 0 1) (400 1/2 1)) :LB-COUNT (:LB 3 T) :C #\\E :X NIL)'
    assert print_form(read_one(text, "f")) == text


def test_read_list_items_gives_each_element_its_line() -> None:
    items = read_list_items('(\n(1 2)\n\n#S(A :B 1)\n"x")\n', "f")
    assert [line for line, _ in items] == [2, 4, 5]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("(\n(1 2\n", 2, "a list is not closed"),
        ("(\n(1 2)\n", 1, "the list is not closed"),
        ('(\n"abc\n\n', 2, "a string is not closed"),
        ("(1 2))", 1, "text after the end"),
        ("(\n)\n)", 3, "text after the end"),
        ("(\n1.5)", 2, "unsupported number"),
        ("(\n\n#S(HOME :LIST))", 3, "key without a value"),
        ("(\n#S(HOME LIST 1))", 2, "not a keyword"),
        ("(\n'a)", 2, "unsupported Lisp syntax"),
        ("(\n#+sbcl 1)", 2, "unsupported Lisp syntax"),
        ("(a b)\n(c)", 2, "text after the end"),
        ("", 1, "empty"),
    ],
)
def test_read_list_items_malformed_names_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(FesaFileError) as caught:
        read_list_items(text, "ratingliste.pre")
    assert caught.value.line == line
    assert words in caught.value.message
    assert str(caught.value).startswith(f"ratingliste.pre, line {line}: ")


def test_read_one_stray_closing_parenthesis_is_an_error() -> None:
    with pytest.raises(FesaFileError, match=r"f, line 2: unexpected '\)'"):
        read_one("\n)", "f")
