"""The admin screens this project adds read in French and German for directors and officers: its own templates,
messages, labels and help texts (Django's own admin texts come translated with Django)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import strip_tags

from ratings.models import OfficialList, Player, Promotion, Table, TableStatus
from ratings.services.tokens import access_token_create
from tests.admin.helpers import post_page
from tests.factories import make_player, make_rating_officer, make_tournament, make_user
from tests.public.test_translations import (
    LANGUAGES,
    data_texts,
    demo,
    english_afterwards,
    english_vocabulary,
    official,
    texts_of,
    untranslated,
)

pytestmark = pytest.mark.django_db
__all__ = ["demo", "english_afterwards", "official"]  # fixtures shared with the public pages' test

# Django's admin's own untranslated alt text ("Search"), file names, and words the same in French or German.
ADMIN_SAME = {"Search", "turnering.txt", "nye-spillere", "Dan (amateur)", "Filter", "Status", "Name", "normal"}
ADMIN_SAME |= {"performance", "› Promotions", "2 promotions"}
# django-otp names its admin section and its devices in English only.
ADMIN_SAME |= {"Otp_Totp", "TOTP devices", "Otp_Static", "Static devices"}
# The same word in the language. Django's admin and django-axes leave some texts in English in some languages: the
# site's catalogues translate them (ratings/admin/wording.py), and this test finds them if they come back.
ADMIN_SAME_IN = {
    "nl": {"Ratings", "Rating", "Club", "Clubs"},
    "it": {"Home"},
}


def admin_same(lang: str) -> set[str]:
    return ADMIN_SAME_IN.get(lang, set())


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
    make_player("藤井", "聡太", nationality="JP")  # a name in another script without its Latin form: the notice
    yield "players", reverse("admin:ratings_player_changelist")
    yield "players without a Latin form", reverse("admin:ratings_player_changelist") + "?latin_form=missing"
    yield "player", reverse("admin:ratings_player_change", args=[player.pk])
    yield "upload", reverse("admin:ratings_upload_turnering")
    yield "promotions", reverse("admin:ratings_promotion_changelist")
    yield "duplicates", reverse("admin:ratings_player_duplicates")
    merge = reverse("admin:ratings_player_merge", args=[player.pk])
    newcomer = make_player("Okada", "Ren", nationality=str(player.nationality) or "FR")
    yield "merge", merge
    yield "merge, what it changes", merge + f"?kept={newcomer.federation_id}"
    replace = reverse("admin:ratings_table_replace_player", args=[table.pk])
    wrong = table.entries.order_by("seat").first()
    assert wrong is not None
    yield "replace a player", replace
    yield "replace, what it changes", replace + f"?wrong={wrong.player.federation_id}&right={newcomer.federation_id}"
    official = OfficialList.objects.get()
    yield "publish an official list", reverse("admin:ratings_officiallist_add")
    yield "official lists", reverse("admin:ratings_officiallist_changelist")
    yield "official list", reverse("admin:ratings_officiallist_change", args=[official.pk])
    yield "official list entries", reverse("admin:ratings_listentry_changelist")
    token, _secret = access_token_create(
        user=make_rating_officer(username="kowalczyk"), name="PC-7", expires_at=timezone.now() + dt.timedelta(days=9)
    )
    yield "access tokens", reverse("admin:ratings_accesstoken_changelist")
    yield "new access token", reverse("admin:ratings_accesstoken_add")
    yield "access token", reverse("admin:ratings_accesstoken_change", args=[token.pk])
    promotion = Promotion.objects.order_by("-pk").first()
    if promotion is not None:
        yield "promotion", reverse("admin:ratings_promotion_change", args=[promotion.pk])


@pytest.mark.slow
def test_the_admins_own_screens_are_translated(client: Client, official: OfficialList) -> None:
    officer = make_user(superuser=True)
    make_rating_officer()
    client.force_login(officer)
    public_url = reverse("ratings:official_list", args=[official.date.isoformat()])
    # who published the official list, and its public page's address, shown as they are
    same = {*ADMIN_SAME, officer.get_username(), official.published_by.get_username(), public_url}
    vocabulary, data = english_vocabulary(), data_texts()
    problems = []
    for name, url in admin_pages():
        english = texts_of(client.get(url, headers={"accept-language": "en"}).content.decode())
        for lang in LANGUAGES:
            response = client.get(url, headers={"accept-language": lang})
            assert response.status_code == 200, url
            texts = [t for t in texts_of(response.content.decode()) if t.rstrip(":") not in same | admin_same(lang)]
            problems += [f"{lang} {name}: {t!r}" for t in untranslated(english, texts, lang, vocabulary, data)]
    assert not problems, "untranslated:\n" + "\n".join(sorted(set(problems)))


def test_the_publish_confirmation_is_translated(client: Client, official: OfficialList) -> None:
    officer = make_rating_officer()
    client.force_login(officer)
    url, date = reverse("admin:ratings_officiallist_add"), timezone.localdate().isoformat()
    english = texts_of(client.post(url, {"date": date}, headers={"accept-language": "en"}).content.decode())
    assert any("will hold" in text for text in english)
    for lang in LANGUAGES:
        page = client.post(url, {"date": date}, headers={"accept-language": lang}).content.decode()
        texts = [t for t in texts_of(page) if t != officer.get_username() and t not in admin_same(lang)]
        assert not untranslated(english, texts, lang, english_vocabulary(), data_texts())


@pytest.mark.parametrize(("lang", "verb", "noun"), [("es", "Modificar", "Cambio"), ("nl", "Wijzigen", "Verandering")])
def test_the_admins_change_links_are_the_verb_not_a_ratings_change(
    client: Client, lang: str, verb: str, noun: str
) -> None:
    """The site's "Change" (of a rating, of a correction) has its own context: Django's verb keeps its words."""
    client.force_login(make_rating_officer())
    index = client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert f">{verb}</a>" in index and f">{noun}</a>" not in index


@pytest.mark.parametrize(
    ("lang", "saved"),
    [
        ("es", "Se modificó torneo “Ostrava Open (2024)” correctamente."),
        ("it", "Modifica di torneo “Ostrava Open (2024)” riuscita."),
        ("nl", "Gewijzigd: toernooi ‘Ostrava Open (2024)’."),
        ("pl", "Zmieniono turniej „Ostrava Open (2024)”."),
    ],
)
def test_a_save_is_told_without_an_article_that_must_agree_with_the_models_name(lang: str, saved: str) -> None:
    """Django's catalogues say "El tabla", "Il tabella", "De toernooi" and "został(a)(-ło)": the site's own wording."""
    tournament = make_tournament("Ostrava Open")
    client = Client()
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_tournament_change", args=[tournament.pk])
    _page, response = post_page(client, url, {"_continue": "1"}, HTTP_ACCEPT_LANGUAGE=lang, follow=True)
    told = [strip_tags(str(m)) for m in response.context["messages"]]
    assert told[0].startswith(saved), told


def test_a_deletion_is_asked_without_an_article_that_must_agree_with_the_models_name() -> None:
    """Django's Spanish asks "¿… borrar los torneo …?"; Polish would want the accusative of the model's name."""
    tournament = make_tournament("Ostrava Open")
    client = Client()
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_tournament_delete", args=[tournament.pk])
    asked = {lang: strip_tags(client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()) for lang in ("es", "pl")}
    assert "¿Está seguro de que quiere eliminar torneo" in asked["es"]
    assert "Czy na pewno usunąć: turniej" in asked["pl"]


def test_dutch_admin_titles_begin_with_a_capital() -> None:
    """Django's Dutch puts the model's name first: every page's title began "toernooi wijzigen"."""
    tournament = make_tournament("Ostrava Open")
    client = Client()
    client.force_login(make_rating_officer())
    change = client.get(reverse("admin:ratings_tournament_change", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="nl")
    add = client.get(reverse("admin:ratings_tournament_add"), HTTP_ACCEPT_LANGUAGE="nl")
    assert "<h1>Wijzig toernooi</h1>" in change.content.decode()
    assert "<h1>Voeg toernooi toe</h1>" in add.content.decode()


@pytest.mark.parametrize(
    ("lang", "title"),
    [("fr", "<h1>Modification : tournoi</h1>"), ("pl", "<h1>Zmień: turniej</h1>"), ("ja", "<h1>大会を変更</h1>")],
)
def test_admin_titles_set_the_models_name_after_a_colon_where_the_language_would_decline_it(
    lang: str, title: str
) -> None:
    """Django's French and Polish titles read "Affichage de erreur signalée" and "Zmień tabela"."""
    tournament = make_tournament("Ostrava Open")
    client = Client()
    client.force_login(make_rating_officer())
    change = client.get(reverse("admin:ratings_tournament_change", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    assert title in change.content.decode()
