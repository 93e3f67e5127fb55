"""A director's file problems in the language of his page (every problem the turnering.txt and nye-spillere
readers tell, in every language of the site, and the upload's preview that shows them), and in the order of his
file."""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from ratings.fesa_files.errors import FesaFileError, Phrase
from ratings.fesa_files.ratingliste import read_nye_spillere
from ratings.fesa_files.turnering import read_turnering_checked
from ratings.services.fesa.messages import error_text, problem_text
from ratings.services.fesa.turnering import turnering_import
from tests.factories import make_director, make_tournament
from tests.fesa.test_turnering import BAD_TABLES, INCOMPLETE_TABLES
from tests.files.test_import_turnering import FOUR, four_players
from tests.files.test_upload_admin import DAY, URL, login

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]


GOOD = '("A" "B" NIL 0 "" 1500 20 "2015-01-01")'
# A nye-spillere for each problem its reader tells (the program writes the file; a hand's edit breaks it so).
BAD_NYE_SPILLERE = [
    "",
    "(\n" + GOOD,
    '(\n("A" "B\n',
    "(\n'a)",
    "(\n#+sbcl 1)",
    "(\n:a:b)",
    "(\n1.5)",
    "(\n1/0)",
    "(\n#\\Nonsense)",
    "(\n#\\",
    "(\nfoo:bar)",
    "(\n#S(HOME :LIST))",
    "(\n#S(HOME LIST 1))",
    "(\n#S 1)",
    "(\n#S(:HOME))",
    "(\n)\n)",
    "(\n" + GOOD + ")\nmore",
    "1",
    '(\n("A" "B" NIL 0 "")\n)',
    '(("A\x07" "B" NIL 0 "" 1500 20 "2015-01-01"))',
    '(("A" "B" NIL 0 "" "1500" 20 "2015-01-01"))',
    '(("A" 7 NIL 0 "" 1500 20 "2015-01-01"))',
    '(("A" "B" NIL 0 "" 1500 20 "2015-13-01"))',
    '(("A" "B" NIL 0 "Dan" 1500 20 "2015-01-01"))',
    '(("A" "B" NIL 0 "" 1500 -2 "2015-01-01"))',
    '(("A" "B" NIL 0 "" 1500 "x" "2015-01-01"))',
    '(("A" "B" NIL 0 "" 1500 ((1740 1 2)) "2015-01-01"))',
    '(("A" "B" NIL 0 "" 1500 ((1740 2 1)) "2015-01-01"))',
    '(("A" "B" NIL 0 "" 1500 (("x" 1 1)) "2015-01-01"))',
    '(("A" "B" NIL 0 "" 1500 20 "2015-01-01" (:MP 3) NIL))',
    '(("A" "B" NIL 0 "" 1500 20 "2015-01-01" (:LB "x" NIL) NIL))',
    '(("A" "B" NIL 0 "" 1500 20 "2015-01-01" NIL (:LB 3)))',
    '(("A" "B" NIL 0 "" 1500 20 "2015-01-01" NIL (:MP "y")))',
    '(("A" "B" 1 0 "" 1500 20 "2015-01-01"))',
    '(("A" "B" (1) 0 "" 1500 20 "2015-01-01"))',
    '(("A" "B" (#S(HOME :LIST "E")) 0 "" 1500 20 "2015-01-01"))',
    '(("A" "B" (#S(HOME :LIST #\\E :TOWN "x")) 0 "" 1500 20 "2015-01-01"))',
    "(\n" + GOOD + "\n" + GOOD + ")",
]


def nye_spillere_problems() -> list[FesaFileError]:
    problems = []
    for text in BAD_NYE_SPILLERE:
        with pytest.raises(FesaFileError) as caught:
            read_nye_spillere(text)
        problems.append(caught.value)
    return problems


def every_problem() -> list[FesaFileError]:
    texts = [text for text, _line, _words in BAD_TABLES] + [text for text, _words in INCOMPLETE_TABLES]
    problems = [problem for text in texts for problem in read_turnering_checked(text)[1]]
    assert len(problems) >= len(texts)
    return problems + nye_spillere_problems()


def test_every_kind_of_nye_spillere_problem_is_among_those_checked() -> None:
    """Each message of the Lisp and list readers that a nye-spillere can meet, once at least."""
    told = {problem.template for problem in nye_spillere_problems()}
    assert len(told) == len(BAD_NYE_SPILLERE) - 4, sorted(told)  # four tell what another one tells


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_problem_of_a_table_reads_in_each_language_with_all_its_values(lang: str) -> None:
    with translation.override(lang):
        for problem in every_problem():
            text = problem_text(problem)
            assert text != problem.message, f"{lang}: {problem.template!r} is not translated"
            for value in (problem.params or {}).values():
                shown = translation.gettext(value) if isinstance(value, Phrase) else value
                assert str(shown) in text or repr(shown) in text, (lang, text, value)


def test_a_files_problem_names_the_file_and_line_in_the_language_of_the_page() -> None:
    [cell] = read_turnering_checked(FOUR.replace("[2+ 4+ 3+]", "[2+ 4x 3+]"), "turnering.txt")[1]
    with translation.override("de"):
        assert error_text(cell) == "turnering.txt, Zeile 3: Runde 2: das Feld '4x' ist nicht lesbar"
    [empty] = read_turnering_checked("[Name]\n", "turnering.txt")[1]
    with translation.override("fr"):
        assert error_text(empty) == "turnering.txt : pas de ligne [date] après le nom du tableau"


@pytest.mark.django_db
def test_the_upload_preview_tells_the_files_problems_in_the_directors_language() -> None:
    director = make_director()
    tournament = make_tournament(date=DAY, directors=[director])
    broken = FOUR.replace("[1- 3+ 4+]", "[1- 3+ 4x]").replace("[Hebert]", "[Heb\x02ert]")
    data = {"file": SimpleUploadedFile("turnering.txt", broken.encode("iso-8859-1")), "tournament": str(tournament.pk)}
    response = login(director).post(URL, data, HTTP_ACCEPT_LANGUAGE="pl")
    page = html.unescape(response.content.decode())
    assert "wiersz 4: runda 3: nie da się odczytać pola '4x'" in page
    assert "wiersz 5: nazwisko 'Heb\\x02ert' zawiera znak sterujący (U+0002)" in page
    assert "cannot read" not in page and "holds" not in page
    data = {
        "file": SimpleUploadedFile("turnering.txt", FOUR.encode("iso-8859-1")),
        "new_players": SimpleUploadedFile("nye-spillere", b'(("Hebert" "Pascal" NIL 0 "" "1500" 0 NIL))'),
        "tournament": str(tournament.pk),
    }
    page = html.unescape(login(director).post(URL, data, HTTP_ACCEPT_LANGUAGE="pl").content.decode())
    assert 'nye-spillere: wiersz 1: ranking musi być liczbą całkowitą, nie "1500"' in page


@pytest.mark.django_db
def test_the_uploads_problems_come_in_the_order_of_the_files_lines() -> None:
    """The date's problem (line 2) is found after the reader's (line 4): it was told last, below them."""
    four_players()
    director = make_director()
    tournament = make_tournament(date=DAY + dt.timedelta(days=30), directors=[director])
    broken = FOUR.replace("[1- 3+ 4+]", "[1- 3+ 4x]")
    plan = turnering_import(data=broken.encode(), tournament=tournament, user=director)
    assert [p.line for p in plan.problems] == [2, 4]
