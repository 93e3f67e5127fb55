"""Every public page reads in every language of the site: no text the visitor sees is left in English.

The pages are rendered with the demo federation in English and in each language; a text node (or a title,
label or placeholder) of the translated page that is also one of the English page's texts, and that holds an
English word of the site's own vocabulary (the words of the catalogues' msgids), is an untranslated string.
Names, numbers, dates, codes and grade notation hold no such word, so they pass; the few words that are the same
in both languages are listed below.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django_countries import countries

from ratings.models import Club, Correction, OfficialList, Player, Table, TableStatus, Tournament
from ratings.services.corrections.apply import correction_make
from ratings.services.official_lists import official_list_publish
from ratings.services.rerate import rerate_pending
from tests.corrections.helpers import result_flipped
from tests.factories import make_rating_officer

pytestmark = pytest.mark.django_db

LANGUAGES = tuple(code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE)

# Words of the English texts that stay as they are: names of things, units and the grade notation.
SAME_EVERYWHERE = {"fesa", "elo", "nsr", "dan", "kyu", "csv", "json", "api", "atom", "gzip", "txt", "all"}
SAME_EVERYWHERE |= {"openapi", "sente", "excel"}  # a product's name
SAME_EVERYWHERE |= {"bytes"}  # a unit: Django's Dutch file sizes say "255 bytes"
# The rating systems compared and their authors (ratings/web/views/predictions.py).
SAME_EVERYWHERE |= {"glicko", "glickman", "openskill", "plackett", "luce", "weng", "cheymol", "duniho"}

# Whole texts that are the same word in English and in the language (compared case-sensitively).
SAME_IN = {
    "fr": {
        "Promotions",
        "Promotion",
        "Performance",
        "Date",
        "Date:",
        "Bonus",
        "Place",
        "Corrections",
        "Pages",
        "Note",
        "Pts",
        "Grade",
        "Score",
        "Handicap",
        "Club",
        "Clubs",
    },
    "de": {"Name", "Status", "Bonus", "Rang", "Export", "Partie", "Start", "System"},
    "nl": {"Rating", "Ratings", "Score", "Bonus", "Handicap", "Nat", "Club", "Clubs"},
    "it": {"Handicap", "Bonus", "File", "Percentile"},
    "es": {"provisional", "Pts", "Club"},
    "pl": {"System"},
    "ja": set(),
}

FILE_NAME = re.compile(r"[\w.-]+\.(?:txt|csv|json|gz)")
SKIPPED_TAGS = {"script", "style", "svg", "code", "pre"}
SHOWN_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}


class _Texts(HTMLParser):
    """The texts a visitor sees or hears: text nodes and the shown attributes, whitespace collapsed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED_TAGS:
            self._skipping += 1
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self._add(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED_TAGS and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self._add(data)

    def _add(self, text: str) -> None:
        text = " ".join(text.split())
        if text:
            self.texts.append(text)


def texts_of(html: str) -> list[str]:
    parser = _Texts()
    parser.feed(html)
    return parser.texts


def english_vocabulary() -> set[str]:
    """The lower-case words of every msgid of the site (read from the German catalogue, which has them all)."""
    po = Path(settings.BASE_DIR, "locale", "de", "LC_MESSAGES", "django.po").read_text(encoding="utf-8")
    msgids = re.findall(r'^msgid(?:_plural)? "(.*)"$|^"(.*)"$', po, flags=re.M)
    words = set()
    for a, b in msgids:
        words.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"%\(\w+\)s|<[^>]+>", " ", a or b)))
    return words - SAME_EVERYWHERE


def untranslated(
    english: list[str], translated: list[str], lang: str, vocabulary: set[str], data: frozenset[str] = frozenset()
) -> list[str]:
    """The translated page's texts that are English: shown so on the English page, holding a word of the site's
    vocabulary once the data (``data``: names of tournaments, tables, countries) is taken out."""
    shown_in_english = set(english)
    found = []
    for text in translated:
        if text not in shown_in_english or text in SAME_IN[lang] or FILE_NAME.fullmatch(text):
            continue
        words = text
        for value in sorted(data, key=len, reverse=True):
            words = words.replace(value, " ")
        if any(w.lower() in vocabulary for w in re.findall(r"[A-Za-z]{3,}", words)):
            found.append(text)
    return found


def data_texts() -> frozenset[str]:
    """What the pages show from the database (an official list's title and note, a correction's reason and
    summary too) or the country list, the same in every language's page."""
    values = {*Tournament.objects.values_list("name", flat=True), *Tournament.objects.values_list("city", flat=True)}
    values.update(Tournament.objects.values_list("time_control", flat=True))  # typed by the director
    values.update(Table.objects.exclude(name="").values_list("name", flat=True))
    values.update(Club.objects.values_list("name", flat=True))  # as the club writes its name
    values.update(text for official in OfficialList.objects.all() for text in (official.title, official.note))
    for reason, summary in Correction.objects.values_list("reason", "summary"):  # stored in the officer's words
        values.update([reason, *summary.splitlines()])
    for lang in ("en", *LANGUAGES):
        with translation.override(lang):
            values.update(str(name) for _code, name in countries)
    return frozenset(v for v in values if v)


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """The test client's requests leave their language active in this thread: later tests must get English."""
    with translation.override(settings.LANGUAGE_CODE):
        yield


@pytest.fixture
def demo() -> None:
    """The demo federation, small: draws, byes, handicaps, promotions (some waiting), drafts and old tables."""
    today = timezone.localdate().isoformat()
    args = ["--players", "60", "--years", "2", "--tables-per-year", "10", "--until", today, "--seed", "3"]
    call_command("seed_demo", *args, stdout=io.StringIO())


@pytest.fixture
def official(demo: None) -> OfficialList:
    """An official list published at the date of the demo's latest rated table, with a title and a note; that
    table corrected since, so its "today" page shows changed rows."""
    table = Table.objects.filter(status=TableStatus.RATED).order_by("-date").first()
    assert table is not None, "the demo rated nothing"
    officer = make_rating_officer()
    published = official_list_publish(
        date=table.date, user=officer, title="Spring list", note="Published at the meeting.", expected=None
    )
    correction_make(
        user=officer, reason="Result entered the wrong way round", change=result_flipped(table), expected=None
    )
    rerate_pending()
    return published


def public_pages() -> Iterator[tuple[str, str]]:
    """(name, url) of every public page, with the demo's players and tables, and its error pages."""
    table = Table.objects.filter(status=TableStatus.RATED).order_by("-date").first()
    assert table is not None, "the demo rated nothing"
    player = Player.objects.get(pk=table.entries.order_by("seat").values_list("player", flat=True)[0])
    tournament = Tournament.objects.get(pk=table.tournament_id)
    yield "rating list", reverse("ratings:rating_list")
    yield "rating list, all filters", reverse("ratings:rating_list") + "?active=all&grade_min=1&category=established"
    yield "rating list, bad filter", reverse("ratings:rating_list") + "?date=2999-01-01"
    yield "past rating list", reverse("ratings:rating_list_of", args=[table.date.isoformat()])
    yield "player", reverse("ratings:player", args=[player.federation_id])
    yield "player's table", reverse("ratings:player_table", args=[player.federation_id, table.pk])
    yield "table", reverse("ratings:table", args=[table.pk])
    yield "tournaments", reverse("ratings:tournaments")
    yield "tournament", reverse("ratings:tournament", args=[tournament.pk])
    yield "promotions", reverse("ratings:promotions")
    yield "search", reverse("ratings:search") + f"?q={player.family_name}"
    yield "search, nothing found", reverse("ratings:search") + "?q=zzzzzz"
    yield "calculator", reverse("ratings:calculator")
    yield (
        "calculator, computed",
        reverse("ratings:calculator")
        + (
            f"?player={player.federation_id}&form-TOTAL_FORMS=2&form-INITIAL_FORMS=0"
            "&form-0-opponent_rating=1900&form-0-result=1&form-0-handicap=L&form-0-side=received"
            "&form-1-opponent_rating=2100&form-1-result=0"
        ),
    )
    yield (
        "calculator, newcomer",
        reverse("ratings:calculator")
        + ("?rating=1500&games=0&form-TOTAL_FORMS=1&form-INITIAL_FORMS=0&form-0-opponent_rating=1900&form-0-result=1"),
    )
    yield "statistics", reverse("ratings:statistics")
    yield "how well the ratings predict", reverse("ratings:predictions")
    yield "downloads", reverse("downloads:index")
    yield "download error", reverse("files:rating_list") + "?format=xls"
    yield "download, bad date", reverse("files:rating_list") + "?date=yesterday"
    yield from official_list_pages(OfficialList.objects.filter(title="Spring list").get())
    yield from club_pages(player, table)
    yield "not found", reverse("ratings:player", args=["NOSUCH99"])


def club_pages(player: Player, table: Table) -> Iterator[tuple[str, str]]:
    """Clubs, categories, a head-to-head and a report's form, with the demo's clubs and players."""
    club = Club.objects.order_by("pk").first()
    assert club is not None, "the demo made no club"
    opponent = table.entries.exclude(player=player).order_by("seat").values_list("player__federation_id", flat=True)[0]
    yield "clubs", reverse("ratings:clubs")
    yield "club", reverse("ratings:club", args=[club.pk])
    yield "countries", reverse("ratings:countries")
    yield "top lists by category", reverse("ratings:category_tops")
    yield "head-to-head", reverse("ratings:head_to_head", args=[player.federation_id, opponent])
    yield "opponents", reverse("ratings:opponents", args=[player.federation_id])
    yield "report", reverse("ratings:report_player", args=[player.federation_id]) + f"?table={table.pk}"
    yield "report sent", reverse("ratings:report_sent")


def official_list_pages(official: OfficialList) -> Iterator[tuple[str, str]]:
    iso = official.date.isoformat()
    yield "official lists", reverse("ratings:official_lists")
    yield "official list", reverse("ratings:official_list", args=[iso])
    yield "official list, today", reverse("ratings:official_list_revised", args=[iso])
    yield "official list, only changed rows", reverse("ratings:official_list_revised", args=[iso]) + "?changed=on"
    yield "official list, not published", reverse("ratings:official_list", args=["2001-01-01"])


def _get(client: Client, url: str, lang: str) -> str:
    response = client.get(url, headers={"accept-language": lang})
    assert response.status_code < 500, url
    assert response.headers.get("Content-Language", lang) == lang, url
    return response.content.decode()


@pytest.mark.slow
def test_every_public_page_is_fully_translated(client: Client, official: OfficialList) -> None:
    vocabulary, data = english_vocabulary(), data_texts()
    revised = reverse("ratings:official_list_revised", args=[official.date.isoformat()])
    assert "depuis la publication" in _get(client, revised, "fr")  # the changed rows are checked too
    problems = []
    for name, url in public_pages():
        english = texts_of(_get(client, url, "en"))
        for lang in LANGUAGES:
            for text in untranslated(english, texts_of(_get(client, url, lang)), lang, vocabulary, data):
                problems.append(f"{lang} {name} ({url}): {text!r}")
    assert not problems, "untranslated:\n" + "\n".join(sorted(set(problems)))


@pytest.mark.parametrize("template", ["400.html", "404.html", "500.html"])
def test_error_pages_are_translated(template: str) -> None:
    with translation.override("en"):
        english = texts_of(render_to_string(template))
    for lang in LANGUAGES:
        with translation.override(lang):
            assert not untranslated(english, texts_of(render_to_string(template)), lang, english_vocabulary())


def test_the_check_finds_an_english_text() -> None:
    english = texts_of("<p>Rating list</p><td>Abe Ken</td><td>1 Dan</td><td title='Rated tables'>3</td>")
    german = texts_of("<p>Wertungsliste</p><td>Abe Ken</td><td>1 Dan</td><td title='Rated tables'>3</td>")
    assert untranslated(english, german, "de", {"rating", "list", "rated", "tables", "ken"} - {"ken"}) == [
        "Rated tables"
    ]


def test_the_footer_switches_the_language_and_the_page_follows(client: Client) -> None:
    page = client.get(reverse("ratings:tournaments")).content.decode()
    assert f'action="{reverse("set_language")}"' in page and 'value="de"' in page

    response = client.post(reverse("set_language"), {"language": "de", "next": reverse("ratings:tournaments")})

    assert response.status_code == 302 and response["Location"] == reverse("ratings:tournaments")
    german = client.get(reverse("ratings:tournaments"))
    assert german["Content-Language"] == "de" and "Turniere" in german.content.decode()
    assert '<option value="de" lang="de" selected>Deutsch</option>' in german.content.decode()


def test_the_language_choice_leads_only_back_into_the_site(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "fr", "next": "https://elsewhere.example/"})
    assert response.status_code == 302 and "elsewhere" not in response["Location"]


@pytest.mark.parametrize(
    ("lang", "title"),
    [
        ("fr", "Classements FESA : tableaux évalués"),
        ("de", "FESA-Wertungen"),
        ("nl", "FESA-ratings: berekende tabellen"),
        ("it", "Punteggi FESA: tabelle valutate"),
        ("es", "Puntuaciones FESA: tablas evaluadas"),
        ("pl", "Rankingi FESA: obliczone tabele"),
        ("ja", "FESA レーティング: 計算済みの対局表"),
    ],
)
def test_feed_titles_are_translated(client: Client, lang: str, title: str) -> None:
    feed = client.get(reverse("feeds:tables"), headers={"accept-language": lang}).content.decode()
    assert f"<title>{title}" in feed
