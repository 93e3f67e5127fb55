"""A director's file problems in the language of his page (every problem the turnering.txt reader tells, in
every language of the site, and the upload's preview that shows them), and in the order of his file."""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from ratings.fesa_files.errors import FesaFileError, Phrase
from ratings.fesa_files.turnering import read_turnering_checked
from ratings.services.fesa.messages import error_text, problem_text
from ratings.services.fesa.turnering import turnering_import
from tests.factories import make_director, make_tournament
from tests.fesa.test_turnering import BAD_TABLES, INCOMPLETE_TABLES
from tests.files.test_import_turnering import FOUR, four_players
from tests.files.test_upload_admin import DAY, URL, login

TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]


def every_problem() -> list[FesaFileError]:
    texts = [text for text, _line, _words in BAD_TABLES] + [text for text, _words in INCOMPLETE_TABLES]
    problems = [problem for text in texts for problem in read_turnering_checked(text)[1]]
    assert len(problems) >= len(texts)
    return problems


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


@pytest.mark.django_db
def test_the_uploads_problems_come_in_the_order_of_the_files_lines() -> None:
    """The date's problem (line 2) is found after the reader's (line 4): it was told last, below them."""
    four_players()
    director = make_director()
    tournament = make_tournament(date=DAY + dt.timedelta(days=30), directors=[director])
    broken = FOUR.replace("[1- 3+ 4+]", "[1- 3+ 4x]")
    plan = turnering_import(data=broken.encode(), tournament=tournament, user=director)
    assert [p.line for p in plan.problems] == [2, 4]
