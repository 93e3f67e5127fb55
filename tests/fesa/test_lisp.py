"""The Lisp reader and printer of the FESA state files."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest

from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.lisp import (
    NIL,
    Char,
    Struct,
    Symbol,
    T,
    _number,
    _read_list_items,
    _scan_list_items,
    print_form,
    read_list_items,
    read_one,
)


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


# The single-pass scanner must read exactly what the stepwise reader reads, and give way to it (None) on
# anything it does not fully understand, so that messages stay the reader's.
SCANNED = [
    "()",
    "(\n)\n",
    '(#S(PLAYER :A 1 :B "x\\"y" :C (1 1/2 -3 +4 5.)) ; note\n #s(home :list #\\E :l #\\Space) nil T :kw)\n',
    "(\n(1 2)\n\n(3 (4 (5)))\n)",
    "(#S(P :G ((1740 0 1) (1700 1/2 1) (1650 1 1) (1600 2/4 1) ( 1 0 1))))",
    "((1740 1/2 1) (1 0 1))",
    '(("N55" "" (#S(HOME :list #\\E :nationality "JP")) 3 "Kyu" 0 0 nil))',
    "(a|b)",
    "(1.5)",
    "('x)",
    "(#S(:K 1))",
    "(#S(P :K))",
    "(#S(P 1 2))",
    "(#x)",
    "(#\\Bogus)",
    '("open)',
    "(1/0)",
    "(pkg:sym)",
    "(: )",
    "(1) (2)",
    "((1)",
    "(1))",
    "nil",
    "",
    "#S(P :A 1)",
]


@pytest.mark.parametrize("text", SCANNED)
def test_scanned_list_reads_as_the_reader_reads_it_or_gives_way(text: str) -> None:
    try:
        expected: object = _read_list_items(text, "f")
    except FesaFileError as exc:
        expected = exc
    scanned = _scan_list_items(text)
    if isinstance(expected, FesaFileError):
        assert scanned is None
        with pytest.raises(FesaFileError, match=re.escape(str(expected))):
            read_list_items(text, "f")
    elif scanned is not None:
        assert scanned == expected
        assert [print_form(f) for _, f in scanned] == [print_form(f) for _, f in expected]  # type: ignore[attr-defined]


def test_scanned_list_is_taken_for_a_well_formed_file() -> None:
    assert _scan_list_items('(\n#S(P :A "1")\n\n(2)\n)') == [(2, Struct("P", (("A", "1"),))), (4, [2])]


def test_numbers_are_told_from_other_tokens_as_the_number_patterns_tell_them() -> None:
    """_number does with str methods what ``[+-]?[0-9]{1,9}\\.?`` and ``[+-]?[0-9]{1,9}/[0-9]{1,9}`` did (their
    compiling was part of every run's start): every token of up to five of these characters, and long ones."""
    integer, ratio = re.compile(r"[+-]?[0-9]{1,9}\.?"), re.compile(r"[+-]?[0-9]{1,9}/[0-9]{1,9}")
    tokens = ["".join(t) for n in range(6) for t in itertools.product("+-./09٣", repeat=n)]
    tokens += [sign + "1" * n + end for sign in ("", "-") for n in (8, 9, 10) for end in ("", ".", "/2", "/123456789")]
    tokens += ["5/" + "1" * n for n in (9, 10)] + ["１２", "1_0", " 1", "1 "]
    for token in tokens:
        expected = None
        if integer.fullmatch(token):
            expected = int(token.rstrip("."))
        elif ratio.fullmatch(token):
            num, den = token.split("/")
            expected = (int(num), int(den))
        assert (token, _number(token)) == (token, expected)
