"""The transliteration of names ISO-8859-1 cannot hold (docs/fesa-files.md, "Encodings")."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.fesa_files.encoding import ENCODING, encode_text, latin1_text


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("Zieliński", "Zielinski"),
        ("Dvořák", "Dvorák"),
        ("Čulić", "Culic"),
        ("Gūji", "Guji"),
        ("Łukasz Wałęsa", "Lukasz Walesa"),
        ("Œuvray", "Oeuvray"),
        ("ŒUVRAY", "OEUVRAY"),
        ("Œ", "OE"),
        ("œuvre", "oeuvre"),
        ("Ŋuyen", "Nguyen"),
        ("Kılıç", "Kiliç"),
        ("Đorđević", "Dordevic"),
        ("Şahin Öztürk", "Sahin Öztürk"),
        ("Győző Erdős", "Gyozo Erdos"),
        ("Ștefănescu", "Stefanescu"),
        ("Ķēniņš", "Kenins"),
        ("Žemaitė Ąžuolas", "Zemaite Azuolas"),
        ("Vũ Nguyễn", "Vu Nguyen"),
        ("Ħabib", "Habib"),
        ("Ərdoğan", "Erdogan"),
        ("Щукин", "Shchukin"),
        ("Παπαδόπουλος", "Papadopoylos"),  # letter by letter: ου is o + y
        ("石川", "ShiChuan"),
    ],
)
def test_latin1_text_transliterates_letters_outside_latin1(name: str, written: str) -> None:
    assert latin1_text(name) == written


@pytest.mark.parametrize("name", ["Hébert", "Wiethölter", "Åberg", "Strauß", "Bjørn", "Þórsson", "Ñúñez", "Æsir"])
def test_latin1_text_keeps_latin1_letters(name: str) -> None:
    assert latin1_text(name) == name


def test_latin1_text_composes_a_combining_accent_instead_of_dropping_it() -> None:
    assert latin1_text("He\u0301bert") == "Hébert"
    assert latin1_text("Zielin\u0301ski") == "Zielinski"


def test_latin1_text_writes_a_mark_for_a_character_without_transliteration() -> None:
    assert latin1_text("A\U000e0001B") == "A?B"


@given(st.text())
def test_encode_text_never_fails(text: str) -> None:
    encoded = encode_text(text, "all.txt")
    assert encoded.decode(ENCODING) == latin1_text(text)
    assert latin1_text(latin1_text(text)) == latin1_text(text)


def test_latin1_text_is_already_composed() -> None:
    # latin1_text returns ISO-8859-1 text without normalising it: that is only right because NFC leaves
    # every ISO-8859-1 character alone and no combining mark is among them, so no two of them compose.
    latin1 = "".join(map(chr, range(0x100)))
    assert unicodedata.normalize("NFC", latin1) == latin1
    assert not any(unicodedata.combining(c) for c in latin1)


@given(st.text(alphabet=st.characters(max_codepoint=0xFF)))
def test_latin1_text_leaves_latin1_text_as_it_is(text: str) -> None:
    assert latin1_text(text) == unicodedata.normalize("NFC", text) == text
    assert encode_text(text, "f") == text.encode(ENCODING)
