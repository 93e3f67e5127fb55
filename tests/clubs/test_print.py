"""The official list as PDF: a hundred players a page, each page headed by the federation's name and the list's
date, ranks; Japanese in a Japanese font, whether headings in Japanese or names; other names the font cannot
write in Latin letters."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from pypdf import PdfReader

from ratings.models import ListEntry, OfficialList, StoredList
from ratings.selectors.list_pdf import official_list_pdf

pytestmark = pytest.mark.django_db
NAMES = ["Wróbel", "山田", "Müller", "Дмитрий", "李소"]


def published(count: int) -> OfficialList:
    official = OfficialList.objects.create(
        date=dt.date(2026, 1, 1),
        title="Official list 2026-01",
        published_at=timezone.now(),
        all_txt=b"",
        player_count=count,
        country_count=1,
    )
    stored = StoredList.objects.create(
        kind=StoredList.Kind.OFFICIAL,
        date=official.date,
        official=official,
        player_count=count,
        ranked_count=count,
        indexed=True,
    )
    ListEntry.objects.bulk_create(
        ListEntry(
            stored_list=stored,
            position=rank,
            country_position=rank,
            rank=rank,
            country_rank=rank,
            federation_id=f"ID{rank}",
            family_name=NAMES[rank % len(NAMES)],
            given_name=f"Given{rank}",
            nationality="PL",
            rating=2500 - rank,
            games=20,
            grade=10,
            fesa_grade=10,
            category="established",
            indexed=True,
        )
        for rank in range(1, count + 1)
    )
    return official


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def test_a_hundred_players_a_page_with_the_federation_and_the_date() -> None:
    pages = page_texts(official_list_pdf(published(250)))
    assert len(pages) == 3
    for number, text in enumerate(pages, start=1):
        assert "Federation of European Shogi Associations (FESA)" in text
        assert "2026-01-01" in text and f"Page {number} of 3" in text
    first = pages[0].split()
    assert "Given1" in first and "Given100" in first and "Given101" not in first
    assert "Given250" in pages[2] and "2250" in pages[2]
    assert "WRÓBEL" in pages[0]  # the font writes Polish letters
    assert "山田" in pages[0]  # in the Japanese font
    assert "ДМИТРИЙ" in pages[0] and "李" not in pages[0]  # Cyrillic in the font; Chinese alone in Latin letters


def test_without_the_font_file_it_falls_back_to_helvetica(settings: Any) -> None:
    settings.PDF_FONT = "/nonexistent/font.ttf"
    pages = page_texts(official_list_pdf(published(5)))
    assert len(pages) == 1 and "MÜLLER" in pages[0] and "WRÓBEL" in pages[0] and "山田" in pages[0]
    assert "DMITRIY" in pages[0]  # Helvetica writes Latin-1 only


def test_the_pdf_is_served_and_linked_from_the_list(client: Client) -> None:
    official = published(5)
    url = reverse("ratings:official_list_pdf", args=["2026-01-01"])
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert url in client.get(reverse("ratings:official_list", args=["2026-01-01"])).content.decode()
    assert client.get(reverse("ratings:official_list_pdf", args=["2025-01-01"])).status_code == 404
    assert official.stored_list.entries.count() == 5


def test_in_japanese_the_headings_are_japanese(settings: Any) -> None:
    with translation.override("ja"):
        pages = page_texts(official_list_pdf(published(3)))
        heading, name = gettext("Rating"), gettext("Name")
        page = gettext("Page %(page)d of %(pages)d") % {"page": 1, "pages": 1}
    assert heading != "Rating" and heading in pages[0] and name in pages[0] and page in pages[0]


def test_a_line_without_a_rank_is_explained_on_its_page_and_on_the_list(client: Client) -> None:
    """An unrated player at the top of a published list (as its all.txt keeps him) printed "– TAKEDA … –" above
    number 1: a reader took him for number 1."""
    official = published(3)
    ListEntry.objects.filter(stored_list__official=official, position=1).update(rank=None, country_rank=None)
    note = "“–”: no rank yet; the player is still rated by his performance, in the list's order."
    assert note in page_texts(official_list_pdf(official))[0]
    page = client.get(reverse("ratings:official_list", args=["2026-01-01"])).content.decode()
    assert 'id="no-rank"' in page
    ListEntry.objects.filter(stored_list__official=official).update(rank=1, country_rank=1)
    assert note not in page_texts(official_list_pdf(official))[0]
