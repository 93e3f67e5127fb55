"""Names in another script: the Latin form a player gives is what FESA's files and the exports write, the
transliteration only where he has none; the admin's form asks for it, the search finds either form, and the
public pages show both."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from ratings.admin.forms.players import PlayerForm
from ratings.fesa_files.turnering import write_turnering
from ratings.models import Player, Table, in_latin_script
from ratings.selectors.fesa_match import PlayerIndex
from ratings.selectors.fesa_records import table_result_txt, table_turnering
from ratings.selectors.list_files import rating_list_file
from ratings.selectors.list_spreadsheets import xlsx_bytes
from ratings.selectors.lists import list_entries
from ratings.selectors.name_forms import japanese_reading, players_without_latin_form
from ratings.selectors.search import name_matches
from ratings.services.lists import list_stored
from ratings.services.rerate import rerate_from
from ratings.services.tables.submit import table_submit
from tests.factories import make_director, make_player, make_rating_officer, make_table, round_robin

pytestmark = pytest.mark.django_db

DAY = dt.date(2024, 3, 2)
LIST_DATE = dt.date(2024, 3, 9)  # a fixed date: the list's active players do not depend on today


@pytest.fixture
def rated() -> tuple[Player, Player, Player]:
    """A rated table of Yamada (with his Latin form), Fujii (without) and a player named in Latin letters."""
    yamada = make_player("山田", "太郎", nationality="JP", latin_family_name="Yamada", latin_given_name="Taro")
    fujii = make_player("藤井", "聡太", nationality="JP")
    novak = make_player("Novák", "Tomáš", nationality="CZ")
    table = make_table([yamada, fujii, novak], date=DAY)
    round_robin(table, [yamada, fujii, novak])
    table_submit(table=table, user=None)
    rerate_from(date=None)
    return yamada, fujii, novak


def _table(player: Player) -> Table:
    return Table.objects.get(entries__player=player)


def test_the_files_write_the_latin_form_and_the_transliteration_only_without_one(rated: tuple) -> None:
    yamada, _fujii, _novak = rated
    table = _table(yamada)
    result = table_result_txt(table).decode("iso-8859-1")
    all_txt = rating_list_file(list_stored(LIST_DATE), format="all.txt")[0].decode("iso-8859-1")
    turnering = write_turnering(table_turnering(table)[0]).decode("iso-8859-1")
    for text in (result, all_txt, turnering):
        assert "Yamada" in text and "Taro" in text
        assert "ShanTian" not in text  # 山田 read in Chinese: the fallback, not used when a Latin form exists
        assert "TengJing" in text and "CongTai" in text  # 藤井 聡太 has none: the fallback writes him
        assert "Novák" in text  # ISO-8859-1 holds it


def test_the_exports_carry_the_name_in_latin_letters_beside_the_name(rated: tuple) -> None:
    stored = list_stored(LIST_DATE)
    content, _type = rating_list_file(stored, format="json")
    players = {p["federation_id"]: p for p in json.loads(content)["players"]}
    yamada, fujii, novak = rated
    assert players[yamada.federation_id]["family_name"] == "山田"
    assert (players[yamada.federation_id]["latin_family_name"], players[yamada.federation_id]["latin_given_name"]) == (
        "Yamada",
        "Taro",
    )
    assert players[fujii.federation_id]["latin_family_name"] == "TengJing"
    assert players[novak.federation_id]["given_name"] == "Tomáš"
    assert players[novak.federation_id]["latin_given_name"] == "Tomás"  # as all.txt writes it: š is not ISO-8859-1
    csv_text = rating_list_file(stored, format="csv")[0].decode("utf-8")
    assert "山田,太郎,Yamada,Taro," in csv_text
    sheet = load_workbook(io.BytesIO(xlsx_bytes(list_entries(stored), date=LIST_DATE))).active
    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    header = rows[0]
    yamada_row = next(r for r in rows if r[header.index("federation_id")] == yamada.federation_id)
    assert yamada_row[header.index("latin_family_name")] == "Yamada"


def test_a_file_read_back_with_the_latin_form_matches_the_player() -> None:
    yamada = make_player("山田", "太郎", nationality="JP", latin_family_name="Yamada", latin_given_name="Taro")
    match = PlayerIndex().match("Yamada", "Taro")
    assert match.taken is not None and match.taken.player_id == yamada.pk


def test_the_admin_form_asks_for_the_latin_form_of_a_name_in_another_script() -> None:
    form = PlayerForm(data={"family_name": "山田", "given_name": "太郎", "nationality": "JP"})
    assert not form.is_valid()
    (message,) = form.errors["latin_family_name"]
    assert "family name in Latin letters" in message
    given = PlayerForm(
        data={"family_name": "山田", "given_name": "太郎", "nationality": "JP", "latin_family_name": "Yamada"}
    )
    assert given.is_valid(), given.errors


@pytest.mark.parametrize("name", ["Zieliński", "Dvořák", "Åberg", "Müller-Lüdenscheidt"])
def test_a_name_in_latin_letters_needs_no_latin_form(name: str) -> None:
    assert in_latin_script(name)
    form = PlayerForm(data={"family_name": name, "given_name": "Anna", "nationality": "PL"})
    assert form.is_valid(), form.errors


@pytest.mark.parametrize("name", ["山田", "Иванов", "Παπαδόπουλος", "김"])
def test_the_latin_form_itself_must_be_in_latin_letters(name: str) -> None:
    assert not in_latin_script(name)
    form = PlayerForm(
        data={"family_name": "山田", "given_name": "太郎", "nationality": "JP", "latin_family_name": name}
    )
    assert not form.is_valid()
    assert form.errors["latin_family_name"] == ["Write this name in Latin letters only."]


def test_the_search_finds_a_player_by_either_form() -> None:
    yamada = make_player("山田", "太郎", nationality="JP", latin_family_name="Yamada", latin_given_name="Taro")
    make_player("山本", "太郎", nationality="JP", latin_family_name="Yamamoto", latin_given_name="Taro")
    for query in ("山田", "yamada", "Yamada Taro", "taro 山田"):
        assert list(name_matches(Player.objects.all(), query)) == [yamada], query


def test_saving_only_the_latin_form_updates_the_search_key() -> None:
    yamada = make_player("山田", "太郎", nationality="JP")
    assert not name_matches(Player.objects.all(), "yamada").exists()
    yamada.latin_family_name = "Yamada"
    yamada.save(update_fields=["latin_family_name"])
    assert list(name_matches(Player.objects.all(), "yamada")) == [yamada]


def test_the_player_page_shows_the_name_then_its_latin_form(client: Client) -> None:
    yamada = make_player("山田", "太郎", nationality="JP", latin_family_name="Yamada", latin_given_name="Taro")
    page = client.get(reverse("ratings:player", args=[yamada.federation_id])).content.decode()
    heading = page[page.index("<h1>") : page.index("</h1>")]
    assert heading.index("山田") < heading.index("YAMADA Taro")


def _officer_client() -> Client:
    client = Client()
    client.force_login(make_rating_officer())
    return client


def test_players_without_a_latin_form_are_those_named_in_another_script_without_one() -> None:
    fujii = make_player("藤井", "聡太", nationality="JP")
    ivanov = make_player("Иванов", "Иван", nationality="RU")
    given_only = make_player("Kim", "민준", nationality="KR")  # a Latin family name, a Korean given name
    make_player("山田", "太郎", nationality="JP", latin_family_name="Yamada", latin_given_name="Taro")
    for name in ("Zieliński", "O’Brien", "Łukasiewicz", "Nguyễn", "Øberg"):  # Latin letters, with marks
        make_player(name, "Anna")
    assert set(players_without_latin_form()) == {fujii, ivanov, given_only}
    assert set(players_without_latin_form(Player.objects.filter(nationality="JP"))) == {fujii}


def test_the_players_admin_lists_and_counts_for_officers_the_names_without_a_latin_form() -> None:
    fujii = make_player("藤井", "聡太", nationality="JP")
    make_player("Novák", "Tomáš", nationality="CZ")
    make_player("山田", "太郎", nationality="JP", latin_family_name="Yamada", latin_given_name="Taro")
    client = _officer_client()
    url = reverse("admin:ratings_player_changelist")
    page = client.get(url).content.decode()
    assert 'id="latin-form-missing"' in page and "1 player has a name in another script" in page
    listed = client.get(url, {"latin_form": "missing"}).context["cl"].result_list
    assert list(listed) == [fujii]
    director = Client()
    director.force_login(make_director())  # he sees the players, and may add but not correct them
    assert 'id="latin-form-missing"' not in director.get(url).content.decode()
    Player.objects.filter(pk=fujii.pk).update(latin_family_name="Fujii", latin_given_name="Sota")
    assert 'id="latin-form-missing"' not in client.get(url).content.decode()
    assert not client.get(url, {"latin_form": "missing"}).context["cl"].result_list


def test_a_japanese_name_gets_a_reading_to_confirm_and_a_chinese_one_none() -> None:
    assert japanese_reading(family_name="藤井", given_name="聡太", nationality="JP") == ("Fujii", "Satoshifutoshi")
    assert japanese_reading(family_name="ふじい", given_name="そうた") == ("Fujii", "Souta")  # kana: Japanese
    assert japanese_reading(family_name="王", given_name="伟", nationality="CN") is None  # kanji alone: maybe Chinese
    assert japanese_reading(family_name="Novák", given_name="Tomáš", nationality="JP") is None


def test_the_admin_form_shows_the_reading_to_confirm_without_writing_it() -> None:
    """A suggestion beside the fields: the officer checks it with the player (聡太 is Sota, not the dictionary's)."""
    fujii = make_player("藤井", "聡太", nationality="JP")
    form = PlayerForm(instance=fujii)
    assert "Fujii" in str(form.fields["latin_family_name"].help_text)
    assert "Check it with the player" in str(form.fields["latin_given_name"].help_text)
    assert not form["latin_family_name"].value()  # nothing filled in by itself
    yamada = make_player("山田", "太郎", nationality="JP", latin_family_name="Yamada", latin_given_name="Taro")
    assert "reading" not in str(PlayerForm(instance=yamada).fields["latin_family_name"].help_text)


def test_writing_all_txt_warns_of_each_transliterated_name_with_its_reading(rated: tuple) -> None:
    """藤井 聡太 became TengJing CongTai in all.txt without a word to anyone."""
    _yamada, fujii, _novak = rated
    out, err = io.StringIO(), io.StringIO()
    call_command("export_rating_list", "--date", LIST_DATE.isoformat(), stdout=out, stderr=err)
    assert "TengJing" in out.getvalue()
    warning = err.getvalue()
    assert "1 player(s) have a name in another script and no Latin form" in warning
    assert f"#{fujii.federation_id} 藤井 聡太: written TengJing CongTai; a Japanese reading to check: Fujii" in warning
    assert "Yamada" not in warning and "Nov" not in warning
