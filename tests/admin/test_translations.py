"""The admin screens this project adds read in French and German for directors and officers: its own templates,
messages, labels and help texts (Django's own admin texts come translated with Django)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Player, Promotion, Table, TableStatus
from tests.factories import make_rating_officer, make_user
from tests.public.test_translations import (
    LANGUAGES,
    data_texts,
    demo,
    english_afterwards,
    english_vocabulary,
    texts_of,
    untranslated,
)

pytestmark = pytest.mark.django_db
__all__ = ["demo", "english_afterwards"]  # fixtures shared with the public pages' test

# Django's admin's own untranslated alt text ("Search"), file names, and words the same in French or German.
ADMIN_SAME = {"Search", "turnering.txt", "nye-spillere", "Dan (amateur)", "Filter", "Status", "Name", "normal"}
ADMIN_SAME |= {"performance", "› Promotions", "2 promotions"}


def admin_pages() -> Iterator[tuple[str, str]]:
    table = Table.objects.filter(status=TableStatus.RATED).order_by("-date").first()
    assert table is not None
    player = Player.objects.filter(games__gt=0).first()
    assert player is not None
    yield "index", reverse("admin:index")
    yield "tables", reverse("admin:ratings_table_changelist")
    yield "table", reverse("admin:ratings_table_change", args=[table.pk])
    yield "table preview", reverse("admin:ratings_table_preview", args=[table.pk])
    yield "crosstable", reverse("admin:ratings_table_grid", args=[table.pk])
    yield "tournaments", reverse("admin:ratings_tournament_changelist")
    yield "players", reverse("admin:ratings_player_changelist")
    yield "player", reverse("admin:ratings_player_change", args=[player.pk])
    yield "upload", reverse("admin:ratings_upload_turnering")
    yield "promotions", reverse("admin:ratings_promotion_changelist")
    promotion = Promotion.objects.order_by("-pk").first()
    if promotion is not None:
        yield "promotion", reverse("admin:ratings_promotion_change", args=[promotion.pk])


def test_the_admins_own_screens_are_translated(client: Client, demo: None) -> None:
    officer = make_user(superuser=True)
    make_rating_officer()
    client.force_login(officer)
    same = {*ADMIN_SAME, officer.get_username()}
    vocabulary, data = english_vocabulary(), data_texts()
    problems = []
    for name, url in admin_pages():
        english = texts_of(client.get(url, headers={"accept-language": "en"}).content.decode())
        for lang in LANGUAGES:
            response = client.get(url, headers={"accept-language": lang})
            assert response.status_code == 200, url
            texts = [t for t in texts_of(response.content.decode()) if t.rstrip(":") not in same]
            problems += [f"{lang} {name}: {t!r}" for t in untranslated(english, texts, lang, vocabulary, data)]
    assert not problems, "untranslated:\n" + "\n".join(sorted(set(problems)))
