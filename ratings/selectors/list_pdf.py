"""A published official list as PDF, to print: one page per hundred players, each page headed by the
federation's name, the list's title and date, the players in list order with their public ranks, as the page
shows them (reportlab).

Set in the TrueType font ``PDF_FONT`` (DejaVu Sans: Latin, Greek and Cyrillic letters). Japanese text (the
headings in Japanese, a name in kana or kanji) is set in ``JAPANESE_FONT``, one of the Japanese fonts that PDF
readers supply themselves (reportlab names it; nothing is embedded); any other text the font cannot write is
written in Latin letters (``anyascii``), as FESA's own files do. Without the font file the PDF falls back to
Helvetica, whose text is folded the same way outside Latin-1.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from anyascii import anyascii
from django.conf import settings
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from ratings.engine import grade_label
from ratings.models import ListEntry, OfficialList
from ratings.selectors.lists import LIST_ORDER

NO_RANK = gettext_lazy("“–”: no rank yet; the player is still rated by his performance, in the list's order.")
PER_PAGE = 100
MARGIN = 36.0  # half an inch
ROW = 7.0  # a hundred rows and the heading on an A4 page
SIZE = 6.4
COLUMNS = (  # (x of the column's edge, right-aligned)
    ("rank", 36.0, True),
    ("name", 46.0, False),
    ("nationality", 300.0, False),
    ("grade", 330.0, False),
    ("rating", 420.0, True),
    ("games", 470.0, True),
    ("country_rank", 540.0, True),
)


JAPANESE_FONT = "HeiseiKakuGo-W5"
_JAPANESE = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")  # kana, kanji, full width


@cache
def _fonts(regular: str, bold: str) -> tuple[str, str, frozenset[int] | None]:
    """The names of the regular and bold fonts registered with reportlab, and the characters they write (None:
    Helvetica's Latin-1)."""
    pdfmetrics.registerFont(UnicodeCIDFont(JAPANESE_FONT))
    if not (Path(regular).is_file() and Path(bold).is_file()):
        return "Helvetica", "Helvetica-Bold", None
    pdfmetrics.registerFont(TTFont("ListFont", regular))
    pdfmetrics.registerFont(TTFont("ListFont-Bold", bold))
    face = pdfmetrics.getFont("ListFont").face  # type: ignore[attr-defined]
    return "ListFont", "ListFont-Bold", frozenset(face.charToGlyph)


def _set(text: str, font: str, chars: frozenset[int] | None) -> tuple[str, str]:
    """(text, font) to write ``text`` with: ``font`` if it writes every character (``chars``; None: Latin-1),
    Japanese text in ``JAPANESE_FONT``, anything else in Latin letters."""
    missing = [c for c in text if (ord(c) >= 256 if chars is None else ord(c) not in chars)]
    if not missing:
        return text, font
    if all(_JAPANESE.match(c) for c in missing):
        return text, JAPANESE_FONT
    return anyascii(text), font


def _draw(canvas: Canvas, x: float, y: float, text: str, font: str, size: float, right: bool = False) -> None:
    canvas.setFont(font, size)
    (canvas.drawRightString if right else canvas.drawString)(x, y, text)


_PRINTED = ("position", "rank", "country_rank", "family_name", "given_name", "nationality", "grade", "rating", "games")


def _entries(official: OfficialList) -> list[ListEntry]:
    return list(ListEntry.objects.filter(stored_list__official=official).order_by(*LIST_ORDER).only(*_PRINTED))


def official_list_pdf(official: OfficialList) -> bytes:
    """The PDF of ``official``: its entries in list order, a hundred a page. One query."""
    regular, bold, chars = _fonts(settings.PDF_FONT, settings.PDF_FONT_BOLD)
    entries = _entries(official)
    pages = [entries[i : i + PER_PAGE] for i in range(0, len(entries), PER_PAGE)] or [[]]
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=True)  # invariant: the same list gives the same bytes
    title = official.title or _("Official rating list")
    canvas.setTitle(f"{settings.FEDERATION_NAME}: {title} {official.date.isoformat()}")
    canvas.setAuthor(settings.FEDERATION_NAME)
    for number, page in enumerate(pages, start=1):
        _page(canvas, official, title, page, (number, len(pages)), (regular, bold, chars))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _page(
    canvas: Canvas,
    official: OfficialList,
    title: str,
    entries: Sequence[ListEntry],
    numbers: tuple[int, int],
    fonts: tuple[str, str, frozenset[int] | None],
) -> None:
    regular, bold, chars = fonts
    width, height = A4
    top = height - MARGIN
    _draw(canvas, MARGIN, top, *_set(settings.FEDERATION_NAME, bold, chars), 10)
    date = formats.date_format(official.date, "DATE_FORMAT")
    _draw(canvas, MARGIN, top - 11, *_set(f"{title} · {date}", regular, chars), 8)
    page = _("Page %(page)d of %(pages)d") % {"page": numbers[0], "pages": numbers[1]}
    _draw(canvas, width - MARGIN, top - 11, *_set(page, regular, chars), 8, right=True)
    y = top - 26
    headings = {
        "rank": _("Rank"),
        "name": _("Name"),
        "nationality": _("Nat"),
        "grade": _("Grade"),
        "rating": _("Rating"),
        "games": _("Games"),
        "country_rank": _("In country"),
    }
    for key, x, right in COLUMNS:
        _draw(canvas, x, y, *_set(str(headings[key]), bold, chars), SIZE, right)
    canvas.setLineWidth(0.4)
    canvas.line(MARGIN - 8, y - 2, width - MARGIN, y - 2)
    y -= 2  # clear of the rule
    for index, entry in enumerate(entries):
        y -= ROW
        if (index // 5) % 2:  # every other group of five rows shaded: the eye follows a line across
            canvas.setFillGray(0.92)
            canvas.rect(MARGIN - 8, y - 1.9, width - 2 * MARGIN + 8, ROW, stroke=0, fill=1)
            canvas.setFillGray(0)
        values = {
            "rank": "–" if entry.rank is None else str(entry.rank),
            "name": f"{entry.family_name.upper()} {entry.given_name}".strip()[:60],
            "nationality": entry.nationality,
            "grade": grade_label(entry.grade) if entry.grade else "",
            "rating": str(entry.rating),
            "games": str(entry.games),
            "country_rank": "–" if entry.country_rank is None else str(entry.country_rank),
        }
        for key, x, right in COLUMNS:
            _draw(canvas, x, y, *_set(values[key], regular, chars), SIZE, right)
    if any(entry.rank is None for entry in entries):  # a line at the top without a rank is read as number 1
        _draw(canvas, MARGIN - 8, MARGIN - 14, *_set(str(NO_RANK), regular, chars), SIZE)
